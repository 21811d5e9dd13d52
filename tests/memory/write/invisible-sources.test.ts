// Text from outside of only invisible characters (U+200B, U+2060, U+00AD, U+200D, U+180E…) counts as empty on
// every path that turns it into memories, as it does in remember's API: a provider's document is synced as an
// empty one is (remembered by its title, or as "(untitled)"), and a document's title of nothing visible, its
// file's own or one carried by an import, gives way to the next title (a later heading, the file's name).
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { api, routeRequest } from "../../helpers/api";
import { addDocument, processDocuments } from "../../helpers/documents";
import { createNamespace, createTenant } from "../../helpers/fixtures";
import { connect, forgetFake, memoriesOf, runSyncs, useFake } from "../../helpers/integrations";
import { startGoogleDriveFake, type GoogleDriveFake } from "../../helpers/providers/google-drive";

const INVISIBLE = "\u200B\u2060\u00AD\u200D\u180E\uFEFF";

describe("a synced document of only invisible characters", () => {
  let fake: GoogleDriveFake;
  beforeAll(async () => {
    fake = await startGoogleDriveFake();
    useFake(fake);
  });
  afterAll(async () => {
    forgetFake("google_drive");
    await fake?.stop();
  });

  test("is remembered by its title, or as (untitled) when the title is invisible too", async () => {
    const { key } = await createTenant("Invisible sync");
    const namespace = await createNamespace(key);
    const unnamed = fake.addTextFile(INVISIBLE, `${INVISIBLE}\n${INVISIBLE}`);
    const named = fake.addTextFile("blank-notes.txt", `${INVISIBLE} \n ${INVISIBLE}`);
    await connect(key, fake, { namespace_id: namespace.id, options: fake.content.connectOptions });
    await runSyncs();

    const memories = await memoriesOf(key, namespace.id);
    const byUrl = new Map(memories.map((memory) => [memory.metadata.source_url, memory]));
    expect(byUrl.get(unnamed.url)?.content).toBe("(untitled)");
    expect(byUrl.get(named.url)?.content).toBe("blank-notes.txt");
    // Every other document is stored too, and nothing stored is invisible.
    expect(memories).toHaveLength(fake.content.documents().length);
    for (const memory of memories) expect(memory.content).toMatch(/[a-z]/i);
  });
});

async function documentTitle(key: string, id: string) {
  const response = await api("GET", `/documents/${id}`, { key });
  expect(response.status).toBe(200);
  expect(response.body.data.status).toBe("ready");
  return response.body.data.title as string | null;
}

async function passageTitles(key: string, namespaceId: string) {
  const recalled = await api("POST", "/recall", { key, body: { namespace_id: namespaceId, query: "harbour tide" } });
  expect(recalled.status).toBe(200);
  return (recalled.body.data as { metadata: Record<string, unknown> }[]).map((match) => match.metadata.document_title);
}

describe("a document's title of only invisible characters", () => {
  test("gives way to the next heading, or the file's name", async () => {
    const { key } = await createTenant("Invisible titles");
    const namespace = await createNamespace(key);
    const markdown = await addDocument(key, {
      namespace_id: namespace.id,
      content: `# ${INVISIBLE}\n\nThe harbour wind bites in March.\n\n# Harbour rules\n\nMoor on the east wall.\n`,
      content_type: "text/markdown",
      filename: "rules.md",
    });
    const html = await addDocument(key, {
      namespace_id: namespace.id,
      content:
        `<html><head><title>${INVISIBLE}</title></head>` +
        `<body><h1>${INVISIBLE}</h1><p>The harbour tide turns at noon.</p></body></html>`,
      content_type: "text/html",
      filename: "tide.html",
    });
    await processDocuments();
    expect(await documentTitle(key, markdown.id)).toBe("Harbour rules");
    expect(await documentTitle(key, html.id)).toBe("tide.html");
    expect((await passageTitles(key, namespace.id)).sort()).toEqual(["Harbour rules", "Harbour rules", "tide.html"]);
  });

  test("carried by an import is no title: the file's own is used", async () => {
    const { key } = await createTenant("Invisible imported title");
    const namespace = await createNamespace(key);
    // An export of a document whose title (from before invisible text counted as blank) is invisible.
    const source = await createNamespace(key);
    await addDocument(key, {
      namespace_id: source.id,
      content: "# Tide tables\n\nThe harbour tide is high at noon.\n",
      content_type: "text/markdown",
      filename: "tides.md",
    });
    await processDocuments();
    const exported = await routeRequest(
      new Request(`http://gateway.test/api/v1/namespaces/${source.id}/export`, {
        headers: { authorization: `Bearer ${key}` },
      }),
    );
    expect(exported.status).toBe(200);
    const lines = (await exported.text())
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((line) => line.type !== "memory")
      .map((line) => (line.type === "document" ? { ...line, title: INVISIBLE } : line));
    expect(lines.map((line) => line.type)).toEqual(["header", "document"]);
    const imported = await api("POST", `/namespaces/${namespace.id}/import`, {
      key,
      rawBody: lines.map((line) => JSON.stringify(line)).join("\n") + "\n",
      headers: { "content-type": "application/x-ndjson" },
    });
    expect(imported.status, JSON.stringify(imported.body)).toBe(201);
    await processDocuments();
    const listed = await api("GET", `/documents?namespace_id=${namespace.id}`, { key });
    expect(listed.body.data).toHaveLength(1);
    expect(await documentTitle(key, listed.body.data[0].id)).toBe("Tide tables");
    expect(await passageTitles(key, namespace.id)).toEqual(["Tide tables"]);
  });
});
