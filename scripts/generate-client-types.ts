// Writes the TypeScript SDK's types (packages/client/src/generated/openapi.ts) from the OpenAPI document the
// server serves at /api/v1/openapi.json. `--check` writes nothing and fails when the file differs, so that
// the SDK cannot drift from the API (run by tests/api/client-types.test.ts and .ci/run).
import fs from "node:fs";
import path from "node:path";
import { generatedClientTypes } from "./client-types";

const target = path.join(import.meta.dirname, "../packages/client/src/generated/openapi.ts");
const fresh = await generatedClientTypes();
if (process.argv.includes("--check")) {
  const current = fs.existsSync(target) ? fs.readFileSync(target, "utf8") : "";
  if (current !== fresh) {
    console.error(`${path.relative(process.cwd(), target)} is out of date: run npm run generate:client-types`);
    process.exit(1);
  }
  console.log(`${path.relative(process.cwd(), target)} matches the OpenAPI document.`);
} else {
  fs.writeFileSync(target, fresh);
  console.log(`wrote ${path.relative(process.cwd(), target)}`);
}
