// The SDK's types catch mistakes at compile time: each snippet below is compiled against the SDK's source
// with the TypeScript compiler; the valid one compiles, each mistake fails with the error a developer sees.
import path from "node:path";
import ts from "typescript";
import { expect, test } from "vitest";

const sdk = path.resolve(import.meta.dirname, "../src/index.ts");

/** The compiler's messages for a snippet that uses the SDK as `mg`. */
function diagnostics(snippet: string): string[] {
  const file = path.resolve(import.meta.dirname, "snippet.ts");
  const source = [
    `import { MemoryGateway } from ${JSON.stringify(sdk)};`,
    `const mg = new MemoryGateway({ apiKey: "k" });`,
    snippet,
  ].join("\n");
  const options: ts.CompilerOptions = {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    allowImportingTsExtensions: true,
    lib: ["lib.es2022.d.ts", "lib.dom.d.ts", "lib.dom.iterable.d.ts"],
    types: [],
    skipLibCheck: true,
  };
  const host = ts.createCompilerHost(options);
  const readFile = host.readFile;
  host.readFile = (name) => (path.resolve(name) === file ? source : readFile(name));
  const fileExists = host.fileExists;
  host.fileExists = (name) => path.resolve(name) === file || fileExists(name);
  const program = ts.createProgram([file], options, host);
  return ts
    .getPreEmitDiagnostics(program)
    .map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n"));
}

test("a valid use compiles, and the answers have the API's fields", () => {
  const messages = diagnostics(`
    export async function use() {
      const matches = await mg.recall({ namespace_id: "ns_1", query: "tea", top_k: 3 });
      const first: { memory_id: string; score: number } = matches[0];
      const answer = await mg.ask({ namespace_id: "ns_1", query: "Which tea?" });
      const cited: number = answer.sources[0].index;
      const one = await mg.remember({ namespace_id: "ns_1", content: "Ada likes tea." });
      const version: number = one.version;
      for await (const ns of mg.namespaces.iterate()) ns.mcp_endpoint_url.toUpperCase();
      return [first, cited, version];
    }`);
  expect(messages).toEqual([]);
}, 60_000);

test("recall without a query does not compile", () => {
  const messages = diagnostics(`mg.recall({ namespace_id: "ns_1" });`);
  expect(messages.join("\n")).toMatch(/Property 'query' is missing/);
}, 60_000);

test("reading a field an answer does not have does not compile", () => {
  const messages = diagnostics(`
    export async function use() {
      const matches = await mg.recall({ namespace_id: "ns_1", query: "tea" });
      return matches[0].text;
    }`);
  expect(messages.join("\n")).toMatch(/Property 'text' does not exist/);
}, 60_000);

test("a field of the wrong type, or one the API does not take, does not compile", () => {
  expect(diagnostics(`mg.recall({ namespace_id: "ns_1", query: "tea", top_k: "3" });`).join("\n")).toMatch(
    /Type 'string' is not assignable to type 'number'/,
  );
  expect(diagnostics(`mg.remember({ namespace_id: "ns_1", content: "x", colour: "red" });`).join("\n")).toMatch(
    /'colour' does not exist/,
  );
}, 60_000);
