import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, expect, test } from "vitest";
import { serverSecret } from "@/lib/secrets";

const saved = { DATA_DIR: process.env.DATA_DIR, KEY_PEPPER: process.env.KEY_PEPPER };
afterEach(() => Object.assign(process.env, saved));

test("without KEY_PEPPER a pepper is generated once into DATA_DIR/secrets.json (mode 0600) and reused", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "memgw-secrets-"));
  process.env.DATA_DIR = dir;
  delete process.env.KEY_PEPPER;
  const first = serverSecret("KEY_PEPPER");
  expect(first).toMatch(/^[\w-]{43}$/);
  expect(serverSecret("KEY_PEPPER")).toBe(first);
  const file = path.join(dir, "secrets.json");
  expect(JSON.parse(fs.readFileSync(file, "utf8"))).toEqual({ KEY_PEPPER: first });
  expect(fs.statSync(file).mode & 0o777).toBe(0o600);
});

test("KEY_PEPPER from the environment wins and nothing is written", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "memgw-secrets-"));
  process.env.DATA_DIR = dir;
  process.env.KEY_PEPPER = "from-env";
  expect(serverSecret("KEY_PEPPER")).toBe("from-env");
  expect(fs.existsSync(path.join(dir, "secrets.json"))).toBe(false);
});
