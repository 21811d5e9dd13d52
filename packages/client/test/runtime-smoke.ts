// Run by client.test.ts under Bun and Deno (neither is Node): the SDK's source as it is, against the test's
// server, named by MEMGW_BASE_URL and MEMGW_API_KEY (read by the client itself) and MEMGW_NAMESPACE_ID.
import { MemoryGateway, NotFoundError } from "../src/index.ts";

const environment = (globalThis as { process?: { env: Record<string, string | undefined> } }).process?.env ?? {};
const namespaceId = environment.MEMGW_NAMESPACE_ID!;
const mg = new MemoryGateway();
const memory = await mg.remember({ namespace_id: namespaceId, content: "Otters hold hands while they sleep." });
const [match] = await mg.recall({ namespace_id: namespaceId, query: "How do otters sleep?" });
const lines = [];
for await (const line of mg.namespaces.export(namespaceId)) lines.push(line.type);
const missing = await mg.memories.get("mem_none").catch((error: unknown) => error instanceof NotFoundError);
console.log(JSON.stringify({ stored: memory.id === match.memory_id, lines, missing }));
