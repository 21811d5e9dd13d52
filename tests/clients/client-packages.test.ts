// The client packages build as they are published: each on its own (without Node's types, so nothing
// Node-only in them; the adapters against the client's built types), and the built client loads in Node.
import { execFileSync } from "node:child_process";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { expect, test } from "vitest";

const build = (workspace: string) =>
  execFileSync("npm", ["run", "build", "--workspace", workspace], { encoding: "utf8", stdio: "pipe" });

test("the client, then the AI SDK and LangChain adapters build from their sources", async () => {
  // The adapters' types come from the client's dist/ (its package exports), so the client builds first.
  for (const workspace of ["@memory-gateway/client", "@memory-gateway/ai-sdk", "@memory-gateway/langchain"]) {
    expect(() => build(workspace)).not.toThrow();
  }
  // By its path, not a static import: dist/ exists only once built (and the type check runs before).
  const built = await import(pathToFileURL(path.resolve("packages/client/dist/index.js")).href);
  const client = new built.MemoryGateway({ apiKey: "mgw_x", baseUrl: "http://gateway.example/" });
  expect(client.baseUrl).toBe("http://gateway.example/api/v1");
  expect(new built.NotFoundError("gone", { status: 404, code: "NOT_FOUND" })).toBeInstanceOf(built.MemoryGatewayError);
}, 180_000);
