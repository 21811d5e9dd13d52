/**
 * Notion: the pages and databases the person shared with the integration at consent, read through
 * `@notionhq/client`. The SDK speaks Notion-Version 2025-09-03, where a database's rows live in "data
 * sources": search lists pages and data sources, a page becomes its title, properties and blocks as text,
 * a data source its title, description and one "name: value" block per row.
 */
import { createHash } from "node:crypto";
import { APIResponseError, Client, LogLevel } from "@notionhq/client";
import type {
  BlockObjectResponse,
  DataSourceObjectResponse,
  PageObjectResponse,
  RichTextItemResponse,
} from "@notionhq/client";
import { z } from "zod";
import { hasVisibleText } from "@/lib/validation/strings";
import {
  ProviderRateLimitedError,
  ProviderUnauthorizedError,
  type DocumentRef,
  type ProviderModule,
  type ReaderContext,
  type RevokeContext,
  headerValue,
  retryAfterSeconds,
} from "@/lib/integrations/provider";

const PAGE_SIZE = 100;
/** Nested blocks deeper than this are not read: Notion allows deep nesting, a memory needs the gist. */
const MAX_BLOCK_DEPTH = 8;

/** The SDK appends `/v1/` to its base URL itself, so an API URL configured with `/v1` loses it. */
function notionBaseUrl(apiUrl: string): string {
  return apiUrl.replace(/\/+$/, "").replace(/\/v1$/, "");
}

function notionClient(apiUrl: string, auth?: string): Client {
  // No SDK retries: the sync engine waits out a 429's Retry-After itself (ProviderRateLimitedError). The
  // SDK's own console warnings stay off: each failure reaches the engine, which records it on the connection.
  return new Client({ auth, baseUrl: notionBaseUrl(apiUrl), retry: false, logLevel: LogLevel.ERROR });
}

/** Turns the SDK's errors the sync engine acts on into the provider-neutral ones. */
async function mapNotionErrors<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (APIResponseError.isAPIResponseError(error)) {
      if (error.code === "rate_limited" || error.status === 429) {
        throw new ProviderRateLimitedError(retryAfterSeconds(headerValue(error.headers, "retry-after")));
      }
      if (error.code === "unauthorized" || error.status === 401) {
        throw new ProviderUnauthorizedError(`Notion refused the access token: ${error.message}`);
      }
    }
    throw error;
  }
}

function plainText(richText: RichTextItemResponse[] | undefined): string {
  return (richText ?? []).map((item) => item.plain_text).join("");
}

/** `text`, or `fallback` when a person would see nothing of it (only white space and invisible characters). */
function visibleOr(text: string, fallback: string): string {
  return hasVisibleText(text) ? text : fallback;
}

function pageTitle(page: PageObjectResponse): string {
  for (const property of Object.values(page.properties)) {
    if (property.type === "title") return visibleOr(plainText(property.title).trim(), "Untitled");
  }
  return "Untitled";
}

type PropertyValue = PageObjectResponse["properties"][string];

/** A property's value as a person reads it; null when empty or not worth remembering (ids, edit times). */
function propertyText(property: PropertyValue): string | null {
  const value = ((): string | null => {
    switch (property.type) {
      case "title":
        return plainText(property.title);
      case "rich_text":
        return plainText(property.rich_text);
      case "number":
        return property.number === null ? null : String(property.number);
      case "select":
        return property.select?.name ?? null;
      case "status":
        return property.status?.name ?? null;
      case "multi_select":
        return property.multi_select.map((option) => option.name).join(", ");
      case "date":
        if (!property.date) return null;
        return property.date.end ? `${property.date.start} → ${property.date.end}` : property.date.start;
      case "checkbox":
        return property.checkbox ? "yes" : "no";
      case "url":
        return property.url;
      case "email":
        return property.email;
      case "phone_number":
        return property.phone_number;
      case "people":
        return property.people
          .map((person) => ("name" in person && person.name ? person.name : null))
          .filter((name): name is string => name !== null)
          .join(", ");
      case "files":
        return property.files.map((file) => file.name).join(", ");
      case "unique_id":
        return property.unique_id.number === null
          ? null
          : `${property.unique_id.prefix ? `${property.unique_id.prefix}-` : ""}${property.unique_id.number}`;
      case "formula": {
        const formula = property.formula;
        if (formula.type === "string") return formula.string;
        if (formula.type === "number") return formula.number === null ? null : String(formula.number);
        if (formula.type === "boolean") return formula.boolean === null ? null : formula.boolean ? "yes" : "no";
        if (formula.type === "date") return formula.date?.start ?? null;
        return null;
      }
      default:
        return null;
    }
  })();
  return value && value.trim() ? value.trim() : null;
}

/** "name: value" for every non-empty property but the title (which heads the text already). */
function propertyLines(page: PageObjectResponse): string[] {
  const lines: string[] = [];
  for (const [name, property] of Object.entries(page.properties)) {
    if (property.type === "title") continue;
    const value = propertyText(property);
    if (value !== null) lines.push(`${name}: ${value}`);
  }
  return lines;
}

/** One block as a line of text (without its children), or null for blocks that carry no text. */
function blockLine(block: BlockObjectResponse, numberInList: number): string | null {
  switch (block.type) {
    case "paragraph":
      return plainText(block.paragraph.rich_text);
    case "heading_1":
      return `# ${plainText(block.heading_1.rich_text)}`;
    case "heading_2":
      return `## ${plainText(block.heading_2.rich_text)}`;
    case "heading_3":
      return `### ${plainText(block.heading_3.rich_text)}`;
    case "bulleted_list_item":
      return `- ${plainText(block.bulleted_list_item.rich_text)}`;
    case "numbered_list_item":
      return `${numberInList}. ${plainText(block.numbered_list_item.rich_text)}`;
    case "to_do":
      return `[${block.to_do.checked ? "x" : " "}] ${plainText(block.to_do.rich_text)}`;
    case "toggle":
      return plainText(block.toggle.rich_text);
    case "quote":
      return `> ${plainText(block.quote.rich_text)}`;
    case "callout":
      return plainText(block.callout.rich_text);
    case "code":
      return `\`\`\`${block.code.language}\n${plainText(block.code.rich_text)}\n\`\`\``;
    case "equation":
      return block.equation.expression;
    case "table_row":
      return block.table_row.cells.map((cell) => plainText(cell)).join(" | ");
    case "child_page":
      return `Page: ${block.child_page.title}`;
    case "child_database":
      return `Database: ${block.child_database.title}`;
    case "bookmark":
      return block.bookmark.url;
    default:
      return null;
  }
}

/** Blocks whose children are documents of their own (pages, databases): their content is listed separately. */
const OWN_DOCUMENT_BLOCKS = new Set(["child_page", "child_database"]);

class NotionReader {
  constructor(private readonly client: Client) {}

  async *listDocuments(): AsyncIterable<DocumentRef> {
    let cursor: string | undefined;
    do {
      const page = await mapNotionErrors(() => this.client.search({ start_cursor: cursor, page_size: PAGE_SIZE }));
      for (const result of page.results) {
        if (result.object === "page" && "url" in result) {
          if (result.in_trash || result.archived) continue;
          yield this.pageRef(result);
        } else if (result.object === "data_source" && "url" in result) {
          if (result.in_trash || result.archived) continue;
          yield await this.dataSourceRef(result);
        }
      }
      cursor = page.has_more && page.next_cursor ? page.next_cursor : undefined;
    } while (cursor);
  }

  async documentText(ref: DocumentRef): Promise<string | null> {
    const data = ref.data as { kind: "page"; page: PageObjectResponse } | { kind: "data_source"; text: string };
    // A data source's text was rendered while listing (its version is that text's hash).
    if (data.kind === "data_source") return data.text;
    try {
      const body = await this.blockText(data.page.id, 0);
      const head = [pageTitle(data.page), ...propertyLines(data.page)].join("\n");
      return body ? `${head}\n\n${body}` : head;
    } catch (error) {
      if (APIResponseError.isAPIResponseError(error) && error.code === "object_not_found") return null;
      throw error;
    }
  }

  private pageRef(page: PageObjectResponse): DocumentRef {
    return {
      sourceId: `page:${page.id}`,
      title: pageTitle(page),
      url: page.url,
      updatedAt: page.last_edited_time,
      version: page.last_edited_time,
      data: { kind: "page", page },
    };
  }

  /**
   * A data source's rows are part of its text, and its own `last_edited_time` does not move when a row is
   * edited: the rows are read now and the version is the hash of the rendered text.
   */
  private async dataSourceRef(dataSource: DataSourceObjectResponse): Promise<DocumentRef> {
    const title = visibleOr(plainText(dataSource.title).trim(), "Untitled database");
    const sections = [`Database: ${title}`];
    const description = plainText(dataSource.description).trim();
    if (hasVisibleText(description)) sections.push(description);
    let updatedAt = dataSource.last_edited_time;
    let cursor: string | undefined;
    do {
      const rows = await mapNotionErrors(() =>
        this.client.dataSources.query({
          data_source_id: dataSource.id,
          start_cursor: cursor,
          page_size: PAGE_SIZE,
          result_type: "page",
        }),
      );
      for (const row of rows.results) {
        if (row.object !== "page" || !("url" in row) || row.in_trash || row.archived) continue;
        if (row.last_edited_time > updatedAt) updatedAt = row.last_edited_time;
        sections.push([pageTitle(row), ...propertyLines(row)].join("\n"));
      }
      cursor = rows.has_more && rows.next_cursor ? rows.next_cursor : undefined;
    } while (cursor);
    const text = sections.join("\n\n");
    return {
      sourceId: `data_source:${dataSource.id}`,
      title,
      url: dataSource.url,
      updatedAt,
      version: createHash("sha256").update(text).digest("hex").slice(0, 32),
      data: { kind: "data_source", text },
    };
  }

  /** The text of a block's children, nested children indented under their parent. */
  private async blockText(blockId: string, depth: number): Promise<string> {
    const lines: string[] = [];
    let numberInList = 0;
    let cursor: string | undefined;
    do {
      const page = await mapNotionErrors(() =>
        this.client.blocks.children.list({ block_id: blockId, start_cursor: cursor, page_size: PAGE_SIZE }),
      );
      for (const block of page.results) {
        if (!("type" in block) || block.in_trash) continue;
        numberInList = block.type === "numbered_list_item" ? numberInList + 1 : 0;
        const line = blockLine(block, numberInList);
        if (line !== null && hasVisibleText(line)) lines.push(line);
        if (block.has_children && !OWN_DOCUMENT_BLOCKS.has(block.type) && depth < MAX_BLOCK_DEPTH) {
          const children = await this.blockText(block.id, depth + 1);
          if (children) lines.push(children.replace(/^/gm, "  "));
        }
      }
      cursor = page.has_more && page.next_cursor ? page.next_cursor : undefined;
    } while (cursor);
    return lines.join("\n");
  }
}

export const notion: ProviderModule = {
  // Notion's consent screen is where the person picks the pages and databases: nothing to narrow here.
  options: z.strictObject({}),
  reader: (context: ReaderContext) => new NotionReader(notionClient(context.endpoints.apiUrl, context.accessToken)),
  async revoke(context: RevokeContext) {
    try {
      await notionClient(context.endpoints.apiUrl).oauth.revoke({
        client_id: context.clientId,
        client_secret: context.clientSecret,
        token: context.accessToken,
      });
    } catch (error) {
      // A token Notion no longer knows is as revoked as it gets.
      if (APIResponseError.isAPIResponseError(error) && (error.status === 400 || error.status === 404)) return;
      throw error;
    }
  },
};
