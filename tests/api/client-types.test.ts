// The TypeScript SDK's types are those of the document the server serves: regenerating them changes nothing
// (`npm run generate:client-types` after a change to the API; .ci/run regenerates them and checks the diff).
import fs from "node:fs";
import { expect, test } from "vitest";
import { generatedClientTypes } from "../../scripts/client-types";

test("packages/client/src/generated/openapi.ts is what the served OpenAPI document generates", async () => {
  const checkedIn = fs.readFileSync("packages/client/src/generated/openapi.ts", "utf8");
  expect(checkedIn === (await generatedClientTypes()), "run npm run generate:client-types").toBe(true);
}, 120_000);
