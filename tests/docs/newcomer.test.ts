// What a newcomer reads and installs says one thing everywhere: the key's variable, the permissions, and an
// install without warnings on the Node version the README names.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import semver from "semver";
import { describe, expect, test } from "vitest";
import { PERMISSIONS } from "@/lib/auth/permissions";

/** The files a user reads or copies from: documentation, console sources, SDK readmes, examples. */
function readFiles(): string[] {
  const tracked = execFileSync(
    "git",
    ["ls-files", "README.md", "docs", "app", "components", "lib/console", "packages", "sdks", "examples"],
    {
      encoding: "utf8",
    },
  );
  return tracked.split("\n").filter((file) => /\.(md|tsx?|mjs|py)$/.test(file) && fs.existsSync(file));
}

describe("the key's variable", () => {
  test("is MEMGW_API_KEY in the README, the docs, the console's snippets and both SDKs", () => {
    const files = readFiles();
    const other = files.filter((file) => /\bMEMGW_KEY\b/.test(fs.readFileSync(file, "utf8")));
    expect(other).toEqual([]);
    for (const file of [
      "README.md",
      "lib/console/curl.ts",
      "packages/client/src/transport.ts",
      "sdks/python/README.md",
    ])
      expect(fs.readFileSync(file, "utf8"), file).toContain("MEMGW_API_KEY");
  });
});

test("the README lists every permission a key can have", () => {
  const readme = fs.readFileSync("README.md", "utf8");
  const line = /^Permissions: (.*?)\. /m.exec(readme)![1];
  expect(line.match(/`[A-Z_]+`/g)!.map((name) => name.slice(1, -1))).toEqual([...PERMISSIONS]);
});

test("every installed package supports the running Node (npm install prints no engine warning)", () => {
  const lock = JSON.parse(fs.readFileSync("package-lock.json", "utf8")) as {
    packages: Record<string, { engines?: { node?: string } | string[]; optional?: boolean }>;
  };
  const unsupported = Object.entries(lock.packages)
    .filter(([, entry]) => !Array.isArray(entry.engines) && entry.engines?.node)
    .filter(([, entry]) => !semver.satisfies(process.version, (entry.engines as { node: string }).node))
    .map(([where, entry]) => `${where} wants node ${(entry.engines as { node: string }).node}`);
  expect(unsupported).toEqual([]);
});
