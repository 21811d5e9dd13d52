// Console server actions (CSRF protection) against the production build: another site's Origin, or none,
// gets 403 instead of the 500 Next answers by itself; the console's own requests and the API are untouched.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import { buildIfNeeded, distDir } from "../../scripts/build-if-needed.mjs";
import { freePort, startServer, type RunningServer } from "../helpers/server";
import { newDataDir } from "../helpers/embedded-template";

// The same build directory as tests/startup/server.test.ts (builds take turns), never a developer's .next.
process.env.MEMGW_DIST_DIR = ".next-test-server";

const dir = newDataDir("memgw-origin-");
let server: RunningServer;
let startSso: string;

beforeAll(async () => {
  buildIfNeeded({ quiet: true });
  const manifest = JSON.parse(fs.readFileSync(path.join(distDir(), "server/server-reference-manifest.json"), "utf8"));
  const actions = Object.entries(manifest.node as Record<string, { exportedName: string }>);
  startSso = actions.find(([, action]) => action.exportedName === "startSso")![0];
  server = await startServer({ DATA_DIR: dir, PORT: process.env.PORT ?? String(await freePort()) });
});

afterAll(async () => {
  await server?.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** The "Continue with SSO" action of the sign-in page, as the browser's fetch sends it. */
function postAction(headers: Record<string, string>, body = JSON.stringify([{ email_or_slug: "nobody.example" }])) {
  return fetch(`${server.base}/sign-in`, {
    method: "POST",
    headers: {
      "next-action": startSso,
      "content-type": "text/plain;charset=UTF-8",
      accept: "text/x-component",
      ...headers,
    },
    body,
  });
}

test("a server action from another site, a null or malformed Origin, or none at all gets 403", async () => {
  for (const origin of ["https://evil.example", "null", "not a url", `${server.base}.evil.example`, undefined]) {
    const response = await postAction(origin === undefined ? {} : { origin });
    expect({ origin, status: response.status }).toEqual({ origin, status: 403 });
    expect(await response.json()).toMatchObject({ success: false, error: { code: "FORBIDDEN" } });
  }
  expect(server.output()).not.toContain("Invalid Server Actions request");
});

test("a multipart form post from another site (an action sent before the page's script loaded) gets 403", async () => {
  const form = new FormData();
  form.set(`$ACTION_ID_${startSso}`, "");
  const headers = { origin: "https://evil.example" };
  const response = await fetch(`${server.base}/sign-in`, { method: "POST", headers, body: form });
  expect(response.status).toBe(403);
});

test("the console's own action (same Origin) still runs and answers", async () => {
  const response = await postAction({ origin: server.base });
  expect(response.status).toBe(200);
  expect(await response.text()).toContain("No organization uses single sign-on");
});

test("pages and the API do not pass through the check: a foreign Origin there is not refused by it", async () => {
  expect((await fetch(`${server.base}/sign-in`, { headers: { origin: "https://evil.example" } })).status).toBe(200);
  const api = await fetch(`${server.base}/api/v1/namespaces`, {
    method: "POST",
    headers: { origin: "https://evil.example", "next-action": startSso, "content-type": "application/json" },
    body: "{}",
  });
  expect(api.status).toBe(401);
});
