import { afterAll, beforeAll, expect, test } from "vitest";
import { serveAdminCommands } from "@/lib/admin/socket";
import { db, getDatabase } from "@/lib/db";
import { closeEmbedder, embedder } from "@/lib/memory/embeddings";
import { reembedNamespace } from "@/lib/memory/embeddings/reembed";
import { memgw } from "../../helpers/cli";
import { createNamespace, createTenant } from "../../helpers/fixtures";
import { recallContents, rememberAll } from "../../helpers/memory";
import { startOpenAIServer } from "../../helpers/openai-server";
import { Prisma } from "@/lib/generated/prisma/client";

let openai: Awaited<ReturnType<typeof startOpenAIServer>>;
beforeAll(async () => (openai = await startOpenAIServer()));
afterAll(async () => {
  await openai.close();
  delete process.env.EMBEDDING_PROVIDER;
});

async function modelsOf(namespaceId: string) {
  const prisma = await db();
  return prisma.$queryRaw<{ embedding_model: string; n: number }[]>(
    Prisma.sql`SELECT embedding_model, count(*)::int AS n FROM memory_chunks WHERE namespace_id = ${namespaceId}
        GROUP BY 1 ORDER BY 1`,
  );
}

test("after a model change, reembed moves every chunk to the new model; until then words find the chunks", async () => {
  const { key } = await createTenant();
  const ns = await createNamespace(key);
  const notes = [
    "Kiwi the parrot eats sunflower seeds.",
    "The boiler was serviced in October.",
    "Invoices are due on the first business day.",
  ];
  await rememberAll(
    key,
    ns.id,
    notes.map((content) => ({ content })),
  );
  expect(await modelsOf(ns.id)).toEqual([{ embedding_model: "use-lite-512", n: 3 }]);

  await closeEmbedder();
  Object.assign(process.env, {
    EMBEDDING_PROVIDER: "openai",
    OPENAI_BASE_URL: openai.baseURL,
    OPENAI_API_KEY: "sk-test",
    EMBEDDING_MODEL: "test-embed-1",
  });
  expect(embedder().model).toBe("test-embed-1");
  // Old vectors are never compared with the new model's: the lexical leg still finds the memory.
  expect((await recallContents(key, { namespace_id: ns.id, query: "boiler serviced" }))[0]).toBe(notes[1]);

  const result = await reembedNamespace(ns.id);
  expect(result).toEqual({ namespace_id: ns.id, model: "test-embed-1", reembedded_chunks: 3 });
  expect(await modelsOf(ns.id)).toEqual([{ embedding_model: "test-embed-1", n: 3 }]);
  const embedCall = openai.requests.find((r) => r.path.endsWith("/embeddings") && r.body.input.length === 3)!;
  expect(embedCall.body).toMatchObject({ model: "test-embed-1", dimensions: 512, encoding_format: "float" });
  expect([...embedCall.body.input].sort()).toEqual([...notes].sort());
  expect(embedCall.headers.authorization).toBe("Bearer sk-test");
  expect((await recallContents(key, { namespace_id: ns.id, query: "what does the parrot eat" }))[0]).toBe(notes[0]);

  // The command line runs the same re-embedding in the owning process (this one, serving admin commands as
  // the server's start-up does); a second run finds nothing to do.
  await serveAdminCommands(await getDatabase());
  const cli = await memgw(["reembed", "--namespace", ns.id]);
  expect(cli.code).toBe(0);
  expect(cli.json).toEqual({ namespace_id: ns.id, model: "test-embed-1", reembedded_chunks: 0 });
  const missing = await memgw(["reembed", "--namespace", "ns_nope"]);
  expect(missing.code).toBe(1);
  expect(missing.stderr).toContain("Namespace ns_nope not found");
});

test("an embedding provider that fails → 502 UPSTREAM_ERROR with a clear message, nothing stored", async () => {
  const { key } = await createTenant();
  const ns = await createNamespace(key);
  await closeEmbedder();
  Object.assign(process.env, {
    EMBEDDING_PROVIDER: "openai",
    OPENAI_BASE_URL: "http://127.0.0.1:9/v1",
    EMBEDDING_MODEL: "unreachable",
    OPENAI_TIMEOUT_MS: "2000",
  });
  const { api } = await import("../../helpers/api");
  const response = await api("POST", "/remember", { key, body: { namespace_id: ns.id, content: "never stored" } });
  expect(response.status).toBe(502);
  expect(response.body.error.code).toBe("UPSTREAM_ERROR");
  expect(response.body.error.message).toContain("embedding provider (unreachable) failed");
  expect(await (await db()).memory.count({ where: { namespaceId: ns.id } })).toBe(0);
  await closeEmbedder();
});
