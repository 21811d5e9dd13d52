// A Notion workspace on loopback for the integration tests, behind the shared OAuth server
// (oauth-server.ts): the endpoints the reader uses — POST /v1/search, GET /v1/blocks/{id}/children,
// POST /v1/data_sources/{id}/query — in the shapes of Notion-Version 2025-09-03 as @notionhq/client types
// them, with cursor pagination (`start_cursor` / `has_more` / `next_cursor`, the cursor being the next
// result's id as Notion's is). Pages hold a few hundred bytes at most, so every list answers at most
// two results per page: the seed alone exercises pagination everywhere.
import { randomUUID } from "node:crypto";
import { startFakeProvider, type FakeApiResponse, type FakeContent, type FakeProvider } from "./oauth-server";

/** Notion's own maximum is 100; a small server-side page proves the reader follows `next_cursor`. */
const SERVER_PAGE_SIZE = 2;
const USER = { object: "user", id: "7f1b5c3e-0000-4000-8000-00000000a11c" };

type BlockKind =
  | "heading_1"
  | "heading_2"
  | "paragraph"
  | "bulleted_list_item"
  | "numbered_list_item"
  | "to_do"
  | "quote"
  | "code"
  | "callout"
  | "toggle"
  | "image";

interface FakeBlock {
  id: string;
  kind: BlockKind;
  text: string;
  checked?: boolean;
  children: FakeBlock[];
}

interface FakePage {
  id: string;
  title: string;
  /** Null: a page at the workspace's top level; otherwise the data source (database) it is a row of. */
  dataSourceId: string | null;
  /** Row properties besides the title, in schema order. */
  summary?: string;
  status?: string;
  blocks: FakeBlock[];
  lastEdited: string;
  inTrash: boolean;
}

interface FakeDataSource {
  id: string;
  databaseId: string;
  title: string;
  description: string;
  lastEdited: string;
}

export async function startNotionFake(
  options: { port?: number } = {},
): Promise<FakeProvider & { content: FakeContent }> {
  let clock = Date.parse("2026-01-05T09:00:00.000Z");
  /** Notion's times have minute precision: each edit moves the clock by a minute so versions differ. */
  const tick = () => {
    clock += 60_000;
    return new Date(clock).toISOString();
  };
  const block = (kind: BlockKind, text: string, children: FakeBlock[] = [], checked?: boolean): FakeBlock => ({
    id: randomUUID(),
    kind,
    text,
    checked,
    children,
  });
  const page = (title: string, blocks: FakeBlock[], extra: Partial<FakePage> = {}): FakePage => ({
    id: randomUUID(),
    title,
    dataSourceId: null,
    blocks,
    lastEdited: tick(),
    inTrash: false,
    ...extra,
  });

  const readingList: FakeDataSource = {
    id: randomUUID(),
    databaseId: randomUUID(),
    title: "Reading list",
    description: "Books the team reads together; the cartographer draws coastlines from memory.",
    lastEdited: tick(),
  };
  /** Search order: pages and data sources interleaved, as Notion returns them (most recently edited last here). */
  const items: (FakePage | FakeDataSource)[] = [
    page("Lighthouse operations", [
      block("heading_1", "Daily routine"),
      block("paragraph", "The lighthouse keeper logs the tide at dawn."),
      block("bulleted_list_item", "Check the lamp", [block("paragraph", "Polish the Fresnel lens weekly.")]),
      block("bulleted_list_item", "Wind the clockwork"),
      block("numbered_list_item", "Climb the stairs"),
      block("numbered_list_item", "Open the shutters"),
      block("to_do", "Order paraffin", [], true),
      block("to_do", "Repaint the gallery rail", [], false),
      block("image", ""),
      block("heading_2", "Notes"),
      block("quote", "A light that fails at dusk is no light at all."),
      block("code", "beam_interval_seconds = 15"),
      block("callout", "Storm season starts in October."),
      block("toggle", "Radio channels", [block("paragraph", "Channel 16 is for distress calls.")]),
    ]),
    page("Orchard notes", [block("paragraph", "The orchard's oldest pear tree was grafted in 1911.")]),
    readingList,
    page("Bakery recipes", [block("paragraph", "Sourdough rises overnight in the cool pantry.")]),
    page("Old draft", [block("paragraph", "The abandoned mill grinds no grain anymore.")], { inTrash: true }),
    page("The Sea Around Us", [], {
      dataSourceId: readingList.id,
      summary: "Rachel Carson writes of plankton blooms in the open ocean.",
      status: "Read",
    }),
    page("Longitude", [], {
      dataSourceId: readingList.id,
      summary: "Harrison's marine chronometer solved the longitude problem.",
      status: "Reading",
    }),
  ];
  let added = 0;

  const isPage = (item: FakePage | FakeDataSource): item is FakePage => "blocks" in item;
  const pages = () => items.filter(isPage);
  const findPage = (id: string) => pages().find((item) => item.id === id);
  const findBlock = (id: string, blocks: FakeBlock[] = pages().flatMap((item) => item.blocks)): FakeBlock | null => {
    for (const candidate of blocks) {
      if (candidate.id === id) return candidate;
      const nested = findBlock(id, candidate.children);
      if (nested) return nested;
    }
    return null;
  };
  const url = (title: string, id: string) =>
    `https://www.notion.so/${title.replace(/[^A-Za-z0-9]+/g, "-")}-${id.replace(/-/g, "")}`;

  const provider = await startFakeProvider({
    provider: "notion",
    port: options.port,
    handleApi(request) {
      if (!request.headers["notion-version"]) {
        return notionError(400, "missing_version", "Notion-Version header failed validation: it is required.");
      }
      const body = (request.body ?? {}) as Record<string, unknown>;
      if (request.method === "POST" && request.path === "/v1/search") {
        return listAnswer("page_or_data_source", items, body.start_cursor, body.page_size, (item) =>
          isPage(item) ? pageObject(item) : dataSourceObject(item),
        );
      }
      const children = /^\/v1\/blocks\/([^/]+)\/children$/.exec(request.path);
      if (request.method === "GET" && children) {
        const parent = findPage(children[1]) ?? findBlock(children[1]);
        if (!parent) return null;
        const parentRef =
          "title" in parent ? { type: "page_id", page_id: parent.id } : { type: "block_id", block_id: parent.id };
        return listAnswer(
          "block",
          "title" in parent ? parent.blocks : parent.children,
          request.query.get("start_cursor"),
          request.query.get("page_size"),
          (child) =>
            blockObject(child, parentRef, "title" in parent ? parent.lastEdited : new Date(clock).toISOString()),
        );
      }
      const query = /^\/v1\/data_sources\/([^/]+)\/query$/.exec(request.path);
      if (request.method === "POST" && query) {
        if (query[1] !== readingList.id) return null;
        // A query leaves trashed rows out unless asked for them (`in_trash: true`).
        const rows = pages().filter(
          (item) => item.dataSourceId === readingList.id && (body.in_trash === true || !item.inTrash),
        );
        return listAnswer("page_or_data_source", rows, body.start_cursor, body.page_size, pageObject);
      }
      return null;
    },
  });

  function pageObject(item: FakePage) {
    const parent = item.dataSourceId
      ? { type: "data_source_id", data_source_id: item.dataSourceId, database_id: readingList.databaseId }
      : { type: "workspace", workspace: true };
    const properties: Record<string, unknown> = item.dataSourceId
      ? {
          Name: { id: "title", type: "title", title: richText(item.title) },
          Summary: { id: "sUm%3F", type: "rich_text", rich_text: richText(item.summary ?? "") },
          Status: {
            id: "st%40t",
            type: "select",
            select: item.status ? { id: `opt-${item.status}`, name: item.status, color: "blue" } : null,
          },
        }
      : { title: { id: "title", type: "title", title: richText(item.title) } };
    return {
      object: "page",
      id: item.id,
      created_time: "2026-01-05T09:00:00.000Z",
      last_edited_time: item.lastEdited,
      in_trash: item.inTrash,
      archived: item.inTrash,
      is_archived: item.inTrash,
      is_locked: false,
      url: url(item.title, item.id),
      public_url: null,
      parent,
      properties,
      icon: null,
      cover: null,
      created_by: USER,
      last_edited_by: USER,
    };
  }

  function dataSourceObject(item: FakeDataSource) {
    return {
      object: "data_source",
      id: item.id,
      title: richText(item.title),
      description: richText(item.description),
      parent: { type: "database_id", database_id: item.databaseId },
      database_parent: { type: "workspace", workspace: true },
      is_inline: false,
      in_trash: false,
      archived: false,
      created_time: "2026-01-05T09:00:00.000Z",
      last_edited_time: item.lastEdited,
      created_by: USER,
      last_edited_by: USER,
      properties: {
        Name: { id: "title", name: "Name", description: null, type: "title", title: {} },
        Summary: { id: "sUm%3F", name: "Summary", description: null, type: "rich_text", rich_text: {} },
        Status: { id: "st%40t", name: "Status", description: null, type: "select", select: { options: [] } },
      },
      icon: null,
      cover: null,
      url: url(item.title, item.databaseId),
      public_url: null,
    };
  }

  function blockObject(item: FakeBlock, parent: Record<string, unknown>, lastEdited: string) {
    const content =
      item.kind === "image"
        ? { caption: [], type: "external", external: { url: "https://example.com/lighthouse.png" } }
        : item.kind === "code"
          ? { rich_text: richText(item.text), caption: [], language: "python" }
          : item.kind === "to_do"
            ? { rich_text: richText(item.text), color: "default", checked: item.checked ?? false }
            : item.kind === "callout"
              ? { rich_text: richText(item.text), color: "default", icon: null }
              : { rich_text: richText(item.text), color: "default" };
    return {
      object: "block",
      id: item.id,
      parent,
      created_time: "2026-01-05T09:00:00.000Z",
      created_by: USER,
      last_edited_time: lastEdited,
      last_edited_by: USER,
      has_children: item.children.length > 0,
      in_trash: false,
      archived: false,
      type: item.kind,
      [item.kind]: content,
    };
  }

  /** The text the reader must produce for each kind of item (lib/integrations/providers/notion.ts). */
  function blockLines(blocks: FakeBlock[], indent: string): string[] {
    let numbered = 0;
    return blocks.flatMap((item) => {
      numbered = item.kind === "numbered_list_item" ? numbered + 1 : 0;
      const line = {
        heading_1: `# ${item.text}`,
        heading_2: `## ${item.text}`,
        paragraph: item.text,
        bulleted_list_item: `- ${item.text}`,
        numbered_list_item: `${numbered}. ${item.text}`,
        to_do: `[${item.checked ? "x" : " "}] ${item.text}`,
        quote: `> ${item.text}`,
        code: `\`\`\`python\n${item.text}\n\`\`\``,
        callout: item.text,
        toggle: item.text,
        image: "",
      }[item.kind];
      const own = line ? [line.replace(/^/gm, indent)] : [];
      return [...own, ...blockLines(item.children, `${indent}  `)];
    });
  }
  const rowLines = (item: FakePage) => [
    item.title,
    ...(item.summary ? [`Summary: ${item.summary}`] : []),
    ...(item.status ? [`Status: ${item.status}`] : []),
  ];
  function pageText(item: FakePage): string {
    const head = rowLines(item).join("\n");
    const body = blockLines(item.blocks, "").join("\n");
    return body ? `${head}\n\n${body}` : head;
  }
  function dataSourceText(item: FakeDataSource): string {
    const rows = pages().filter((row) => row.dataSourceId === item.id && !row.inTrash);
    return [`Database: ${item.title}`, item.description, ...rows.map((row) => rowLines(row).join("\n"))].join("\n\n");
  }

  const orchard = items[1] as FakePage;
  const bakery = items[3] as FakePage;
  const content: FakeContent = {
    connectOptions: {},
    documents: () =>
      items
        .filter((item) => !isPage(item) || !item.inTrash)
        .map((item) =>
          isPage(item)
            ? { url: url(item.title, item.id), title: item.title, text: pageText(item) }
            : { url: url(item.title, item.databaseId), title: item.title, text: dataSourceText(item) },
        ),
    changeOne() {
      const phrase = "A second pear tree now shades the beehives by the wall.";
      orchard.blocks.push(block("paragraph", phrase));
      orchard.lastEdited = tick();
      return { url: url(orchard.title, orchard.id), phrase };
    },
    deleteOne() {
      // Deleting in Notion moves the page to the trash, where search still finds it (in_trash: true).
      bakery.inTrash = true;
      bakery.lastEdited = tick();
      return { url: url(bakery.title, bakery.id) };
    },
    addOne() {
      added += 1;
      const phrase =
        added === 1
          ? "The glassblower tempers each bottle slowly."
          : `The glassblower's apprentice made bottle ${added}.`;
      const item = page(`Glassworks ${added}`, [block("heading_2", "Workshop"), block("paragraph", phrase)]);
      items.push(item);
      return { url: url(item.title, item.id), phrase };
    },
  };
  return Object.assign(provider, { content });
}

function richText(text: string) {
  if (!text) return [];
  return [
    {
      type: "text",
      text: { content: text, link: null },
      annotations: {
        bold: false,
        italic: false,
        strikethrough: false,
        underline: false,
        code: false,
        color: "default",
      },
      plain_text: text,
      href: null,
    },
  ];
}

function notionError(status: number, code: string, message: string): FakeApiResponse {
  return { status, json: { object: "error", status, code, message, request_id: randomUUID() } };
}

/**
 * One page of a Notion list: `start_cursor` is the id of the first result to answer (what a previous
 * page's `next_cursor` named), `page_size` at most the server's own.
 */
function listAnswer<T extends { id: string }>(
  type: "block" | "page_or_data_source",
  all: T[],
  startCursor: unknown,
  pageSize: unknown,
  render: (item: T) => unknown,
): FakeApiResponse {
  const start = startCursor ? all.findIndex((item) => item.id === startCursor) : 0;
  if (start < 0) return notionError(400, "validation_error", "start_cursor does not refer to a result of this list.");
  const size = Math.min(SERVER_PAGE_SIZE, Number(pageSize) > 0 ? Number(pageSize) : 100);
  const slice = all.slice(start, start + size);
  const next = all[start + size];
  return {
    json: {
      object: "list",
      results: slice.map(render),
      next_cursor: next ? next.id : null,
      has_more: next !== undefined,
      type,
      [type]: {},
    },
  };
}
