// The import-boundary rule (tools/eslint-layers.mjs, run by `npm run lint`) is proven on deliberate
// violations: a rule that never fires would let the layers decay unnoticed.
import path from "node:path";
import { ESLint } from "eslint";
import { describe, expect, test } from "vitest";

const root = path.resolve(import.meta.dirname, "../..");
const eslint = new ESLint({ cwd: root });

/** The messages of `rule` for `code` as if it were the file at `repoPath`. */
async function problems(rule: string, repoPath: string, code: string) {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, repoPath) });
  return result.messages.filter((message) => message.ruleId === rule).map((message) => message.message);
}
const layerProblems = (repoPath: string, code: string) => problems("layers/imports", repoPath, code);

describe("import boundaries", () => {
  test("the domain may not import the HTTP adapter", async () => {
    const problems = await layerProblems(
      "lib/memory/lint-probe.ts",
      'import { withApiKey } from "@/lib/api/with-api-key";\nexport const probe = withApiKey;\n',
    );
    expect(problems).toEqual(["lib/memory may not import lib/api: a domain module may not import the adapter layer."]);
  });

  test("the platform may not import the domain, by alias or by relative path", async () => {
    const problems = await layerProblems(
      "lib/db/lint-probe.ts",
      [
        'import { search } from "@/lib/memory/search/search";',
        'export { remember } from "../memory/write/remember";',
        'export const later = () => import("../memory/search/recall");',
        "export const probe = search;",
        "",
      ].join("\n"),
    );
    expect(problems).toEqual([
      "lib/db may not import lib/memory/search: a platform module may not import the domain layer.",
      "lib/db may not import lib/memory/write: a platform module may not import the domain layer.",
      "lib/db may not import lib/memory/search: a platform module may not import the domain layer.",
    ]);
  });

  test("the HTTP and MCP adapters do not import each other", async () => {
    const problems = await layerProblems(
      "lib/mcp/lint-probe.ts",
      'import { openApiDocument } from "@/lib/api/openapi";\nexport const probe = openApiDocument;\n',
    );
    expect(problems).toEqual([
      "lib/mcp may not import lib/api: the HTTP and MCP adapters do not import each other: " +
        "what both need belongs in the domain.",
    ]);
  });

  test("nothing outside app/ imports from app/", async () => {
    const problems = await layerProblems(
      "components/lint-probe.tsx",
      'import { createKey } from "@/app/[org]/keys/actions";\nexport const probe = createKey;\n',
    );
    expect(problems).toEqual([
      "components may not import app: app/ is the top of the stack: nothing outside it imports it.",
    ]);
  });

  test("a new folder under lib/ must be placed in a layer", async () => {
    const problems = await layerProblems("lib/unplaced/lint-probe.ts", "export const probe = 1;\n");
    expect(problems).toEqual([
      "lib/unplaced/lint-probe.ts is in no layer: " +
        "add its folder to tools/eslint-layers.mjs (and docs/architecture.md).",
    ]);
  });

  test("two domain folders may not import each other", async () => {
    // lib/memory imports lib/namespaces (a memory lives in a namespace): the way back is closed.
    const cycles = await problems(
      "layers/no-folder-cycle",
      "lib/namespaces/lint-probe.ts",
      'import { recall } from "@/lib/memory/search/recall";\nexport const probe = recall;\n',
    );
    expect(cycles).toEqual([
      "lib/namespaces imports lib/memory/search, which leads back to it " +
        "(lib/namespaces → lib/memory/search → lib/namespaces): move what both need below them.",
    ]);
  });

  test("two rooms of lib/memory may not import each other", async () => {
    // The store is below writing (remember writes through it): the way back is closed.
    const cycles = await problems(
      "layers/no-folder-cycle",
      "lib/memory/store/lint-probe.ts",
      'import { remember } from "../write/remember";\nexport const probe = remember;\n',
    );
    expect(cycles).toEqual([
      "lib/memory/store imports lib/memory/write, which leads back to it " +
        "(lib/memory/store → lib/memory/write → lib/memory/store): " +
        "move what both need below them.",
    ]);
  });

  test("two files of lib/ may not import each other", async () => {
    // lib/db/index.ts imports ./lock: the lock importing the database back closes a cycle.
    const code = 'import { db } from "@/lib/db";\nexport const probe = db;\n';
    expect(await problems("import-x/no-cycle", "lib/db/lock.ts", code)).toEqual(["Dependency cycle detected"]);
  });

  test("imports that point down, or stay in their folder, pass", async () => {
    const allowed: [string, string][] = [
      [
        "lib/memory/write/lint-probe.ts",
        'import { prisma } from "@/lib/db";\nimport { chunkText } from "../store/chunking";',
      ],
      ["lib/api/lint-probe.ts", 'import { search } from "@/lib/memory/search/search";\nimport { z } from "zod";'],
      ["app/api/v1/lint-probe.ts", 'import { errorResponse } from "@/lib/http/envelope";'],
      ["lib/http/lint-probe.ts", 'import { NotFoundError } from "@/lib/errors";'],
    ];
    for (const [repoPath, code] of allowed) {
      const source = `${code}\nexport const probe = 1;\n`;
      expect(await layerProblems(repoPath, source), repoPath).toEqual([]);
      expect(await problems("layers/no-folder-cycle", repoPath, source), repoPath).toEqual([]);
    }
  });
});
