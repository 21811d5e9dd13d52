// The import-boundary rule: which folder may import which (docs/architecture.md draws the same layers).
// Arrows point down only: adapters → domain → platform. An import is classified by the path it names
// (the `@/` alias or a relative path), so the rule needs no resolver and works on text that is not on disk.
import fs from "node:fs";
import path from "node:path";

/** Highest first: a layer may import its own and lower layers. */
const LAYERS = {
  adapter: 3,
  domain: 2,
  platform: 1,
};

/** Each element is a folder or a file (named without its extension) of the repository. */
const ELEMENTS = [
  ["app", "adapter"],
  ["components", "adapter"],
  ["proxy", "adapter"],
  ["instrumentation", "adapter"],
  ["bin", "adapter"],
  ["lib/api", "adapter"],
  ["lib/mcp", "adapter"],
  ["lib/admin", "adapter"],
  ["lib/console", "adapter"],
  ["lib/startup", "adapter"],

  // The memory's rooms are elements of their own, so that no two of them import each other either (see
  // docs/architecture.md for what each holds and which imports which).
  ["lib/memory/common", "domain"],
  ["lib/memory/validity", "domain"],
  ["lib/memory/store", "domain"],
  ["lib/memory/write", "domain"],
  ["lib/memory/forget", "domain"],
  ["lib/memory/read", "domain"],
  ["lib/memory/search", "domain"],
  ["lib/memory/answer", "domain"],
  ["lib/memory/embeddings", "domain"],
  ["lib/memory/entities", "domain"],
  ["lib/memory/inference", "domain"],
  ["lib/memory", "domain"],
  // Export and import carry a namespace's memories and documents: above both.
  ["lib/portability", "domain"],
  ["lib/namespaces", "domain"],
  ["lib/orgs", "domain"],
  ["lib/auth", "domain"],
  ["lib/activity", "domain"],
  ["lib/audit", "domain"],
  ["lib/operations", "domain"],
  ["lib/integrations", "domain"],
  ["lib/oauth", "domain"],
  // Documents: reading a file's text knows nothing of the gateway (a platform below everything); what is made
  // of it (documents, their passages as memories) is domain. The inner folder first: the first match wins.
  ["lib/documents/extract", "platform"],
  ["lib/documents", "domain"],
  // What a change leaves behind in its own transaction, below every folder whose changes write it: an erasure's
  // receipt (written by lib/memory, lib/namespaces and lib/integrations; listed by GET /erasures) and an event
  // (the feed and the webhooks of lib/events read them).
  ["lib/erasure-receipts", "domain"],
  ["lib/event-recording", "domain"],
  ["lib/events", "domain"],
  // Deletion requests built on lib/memory (forget with its receipt).
  ["lib/erasures", "domain"],

  ["lib/http", "platform"],
  ["lib/errors", "platform"],
  ["lib/db", "platform"],
  ["lib/crypto", "platform"],
  ["lib/config", "platform"],
  ["lib/net", "platform"],
  ["lib/validation", "platform"],
  ["lib/rate-limit", "platform"],
  ["lib/ids", "platform"],
  ["lib/secrets", "platform"],
  ["lib/generated", "platform"],
  ["lib/jobs", "platform"],
].map(([name, layer]) => ({ name, layer }));

/** Adapters of the same rank that must not lean on each other: what both need lives in the domain. */
const FORBIDDEN_PAIRS = [
  ["lib/api", "lib/mcp"],
  ["lib/mcp", "lib/api"],
];

/** The element a repository path (forward slashes, relative to the root) belongs to, if any. */
export function elementOf(repoPath) {
  return ELEMENTS.find(
    ({ name }) => repoPath === name || repoPath.startsWith(`${name}/`) || repoPath.startsWith(`${name}.`),
  );
}

/** The repository path an import names, or undefined for a package (or anything outside the repository). */
function importedPath(specifier, importerRepoPath) {
  if (specifier.startsWith("@/")) return path.posix.normalize(specifier.slice(2));
  if (specifier.startsWith("./") || specifier.startsWith("../")) {
    const resolved = path.posix.normalize(path.posix.join(path.posix.dirname(importerRepoPath), specifier));
    return resolved.startsWith("../") ? undefined : resolved;
  }
  return undefined;
}

/** Why `from` may not import `to`, or undefined when it may. */
export function boundaryProblem(from, to) {
  if (from.name === to.name) return undefined;
  if (to.name === "app") return "app/ is the top of the stack: nothing outside it imports it";
  if (FORBIDDEN_PAIRS.some(([a, b]) => a === from.name && b === to.name)) {
    return "the HTTP and MCP adapters do not import each other: what both need belongs in the domain";
  }
  if (LAYERS[to.layer] > LAYERS[from.layer]) return `a ${from.layer} module may not import the ${to.layer} layer`;
  return undefined;
}

const SPECIFIERS = /\b(?:from|import)\s*\(?\s*["']([^"']+)["']/g;
const SCANNED_DIRS = ["app", "components", "bin", "lib"];
const SKIPPED_DIRS = new Set(["node_modules", "generated"]);
/** Per repository root: which element imports which, read from the files on disk once per process. */
const folderGraphs = new Map();

function folderGraph(root) {
  if (folderGraphs.has(root)) return folderGraphs.get(root);
  const graph = new Map();
  const scan = (repoPath) => {
    const from = elementOf(repoPath);
    if (!from) return;
    for (const [, specifier] of fs.readFileSync(path.join(root, repoPath), "utf8").matchAll(SPECIFIERS)) {
      const target = importedPath(specifier, repoPath);
      const to = target && elementOf(target);
      if (!to || to.name === from.name) continue;
      if (!graph.has(from.name)) graph.set(from.name, new Set());
      graph.get(from.name).add(to.name);
    }
  };
  const walk = (dir) => {
    if (!fs.existsSync(path.join(root, dir))) return;
    for (const entry of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
      const repoPath = `${dir}/${entry.name}`;
      if (entry.isDirectory() && !SKIPPED_DIRS.has(entry.name)) walk(repoPath);
      else if (entry.isFile() && /\.(ts|tsx|mts|mjs|js)$/.test(entry.name)) scan(repoPath);
    }
  };
  SCANNED_DIRS.forEach(walk);
  for (const file of ["proxy.ts", "instrumentation.ts"]) if (fs.existsSync(path.join(root, file))) scan(file);
  folderGraphs.set(root, graph);
  return graph;
}

/** The elements an import of `to` by `from` leads back through (`to` … `from`), if it closes a cycle. */
function cycleThrough(graph, from, to) {
  const cameFrom = new Map([[to, undefined]]);
  const queue = [to];
  while (queue.length) {
    const current = queue.shift();
    for (const next of graph.get(current) ?? []) {
      if (cameFrom.has(next)) continue;
      cameFrom.set(next, current);
      if (next === from) {
        const path = [];
        for (let step = next; step !== undefined; step = cameFrom.get(step)) path.unshift(step);
        return path;
      }
      queue.push(next);
    }
  }
  return undefined;
}

/** Source nodes of every import, export-from and literal dynamic import of a file. */
function importVisitors(check) {
  return {
    ImportDeclaration: (node) => check(node.source),
    ExportNamedDeclaration: (node) => check(node.source),
    ExportAllDeclaration: (node) => check(node.source),
    ImportExpression: (node) => check(node.source),
    TSImportEqualsDeclaration: (node) => check(node.moduleReference?.expression),
  };
}

/** @type {import("eslint").Rule.RuleModule} */
const folderCycleRule = {
  meta: {
    type: "problem",
    docs: { description: "No two folders import each other, directly or through others" },
    schema: [],
    messages: {
      cycle: "{{from}} imports {{to}}, which leads back to it ({{path}}): move what both need below them.",
    },
  },
  create(context) {
    const repoPath = path.relative(context.cwd, context.filename).split(path.sep).join("/");
    const from = elementOf(repoPath);
    if (!from) return {};
    return importVisitors((sourceNode) => {
      if (!sourceNode || sourceNode.type !== "Literal" || typeof sourceNode.value !== "string") return;
      const target = importedPath(sourceNode.value, repoPath);
      const to = target && elementOf(target);
      if (!to || to.name === from.name) return;
      const back = cycleThrough(folderGraph(context.cwd), from.name, to.name);
      if (back) {
        const data = { from: from.name, to: to.name, path: [from.name, ...back].join(" → ") };
        context.report({ node: sourceNode, messageId: "cycle", data });
      }
    });
  },
};

/** @type {import("eslint").Rule.RuleModule} */
const layersRule = {
  meta: {
    type: "problem",
    docs: { description: "Imports follow the layers: adapters → domain → platform, never upward" },
    schema: [],
    messages: {
      upward: "{{from}} may not import {{to}}: {{why}}.",
      unclassified: "{{file}} is in no layer: add its folder to tools/eslint-layers.mjs (and docs/architecture.md).",
    },
  },
  create(context) {
    const repoPath = path.relative(context.cwd, context.filename).split(path.sep).join("/");
    const from = elementOf(repoPath);
    if (!from) {
      return repoPath.startsWith("lib/")
        ? { Program: (node) => context.report({ node, messageId: "unclassified", data: { file: repoPath } }) }
        : {};
    }
    function check(sourceNode) {
      if (!sourceNode || sourceNode.type !== "Literal" || typeof sourceNode.value !== "string") return;
      const target = importedPath(sourceNode.value, repoPath);
      const to = target && elementOf(target);
      const why = to && boundaryProblem(from, to);
      if (why) context.report({ node: sourceNode, messageId: "upward", data: { from: from.name, to: to.name, why } });
    }
    return importVisitors(check);
  },
};

export default { rules: { imports: layersRule, "no-folder-cycle": folderCycleRule } };
