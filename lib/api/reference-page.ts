// The API reference at /docs: Scalar's standalone browser bundle (vendor/scalar, kept in the repository: the npm
// package pulls in some 200 packages that ask for Node 22) rendering /api/v1/openapi.json. Everything it needs
// comes from this server: no fonts, telemetry, request proxy or AI agent from scalar.com, and the page's
// Content-Security-Policy lets the browser fetch nothing from anywhere else.
import fs from "node:fs/promises";
import path from "node:path";
import { projectRoot } from "@/lib/config";

/** The vendored bundle; its version is in the name, so a new one is a new URL (cached for a year). */
export const SCALAR_BUNDLE = "api-reference-1.72.1.standalone.js";
const BUNDLE_PATH = `/docs/${SCALAR_BUNDLE}`;

/**
 * Scalar's configuration: what would reach its servers is off (default fonts from fonts.scalar.com, telemetry,
 * the agent chat, developer tools), and with no `proxyUrl` "Test request" goes straight to this API.
 */
const SCALAR_CONFIGURATION = {
  url: "/api/v1/openapi.json",
  withDefaultFonts: false,
  telemetry: false,
  agent: { disabled: true },
  mcp: { disabled: true },
  showDeveloperTools: "never",
  hideClientButton: true,
  documentDownloadType: "json",
  persistAuth: false,
  customCss: ".scalar-app { --scalar-custom-header-height: 48px; }",
};

/**
 * Styles are allowed inline (Scalar injects its stylesheet and sets style attributes); scripts, requests,
 * images and fonts only from this origin.
 */
const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "worker-src 'self' blob:",
  "manifest-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join("; ");

function escapeAttribute(value: string) {
  return value.replaceAll("&", "&amp;").replaceAll('"', "&quot;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");
}

const PAGE = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>API reference · Memory Gateway</title>
    <link rel="icon" href="/favicon.svg" />
    <style>
      .memgw-bar { position: sticky; top: 0; z-index: 100; height: 48px; box-sizing: border-box; display: flex;
        align-items: center; gap: 16px; padding: 0 16px; background: #0f172a; color: #f8fafc;
        font: 14px/1.4 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
      .memgw-bar strong { font-weight: 600; margin-right: auto; white-space: nowrap; overflow: hidden;
        text-overflow: ellipsis; }
      .memgw-bar a { color: #f8fafc; white-space: nowrap; }
    </style>
  </head>
  <body>
    <header class="memgw-bar">
      <strong>Memory Gateway · API reference</strong>
      <a href="/">Console</a>
      <a href="/api/v1/openapi.json">OpenAPI document</a>
    </header>
    <main>
      <script id="api-reference" data-configuration="${escapeAttribute(JSON.stringify(SCALAR_CONFIGURATION))}"></script>
    </main>
    <script src="${BUNDLE_PATH}"></script>
  </body>
</html>
`;

const COMMON_HEADERS = { "x-content-type-options": "nosniff", "referrer-policy": "no-referrer" };

/** GET /docs: the page (public, as the OpenAPI document it renders is). */
export function apiReferencePage() {
  return new Response(PAGE, {
    headers: {
      ...COMMON_HEADERS,
      "content-type": "text/html; charset=utf-8",
      "cache-control": "no-cache",
      "content-security-policy": CONTENT_SECURITY_POLICY,
    },
  });
}

/** GET /docs/{SCALAR_BUNDLE}: the vendored bundle, read from the repository. */
export async function scalarBundle() {
  const body = await fs.readFile(path.join(projectRoot(), "vendor/scalar", SCALAR_BUNDLE));
  return new Response(new Uint8Array(body), {
    headers: {
      ...COMMON_HEADERS,
      "content-type": "text/javascript; charset=utf-8",
      "cache-control": "public, max-age=31536000, immutable",
    },
  });
}
