"use client";
// A namespace's MCP endpoint and how to add it to the common clients, with its URL. The URL alone is the
// recommended way: the client finds the authorization server from the endpoint (OAuth protected resource
// metadata), opens the browser, the person signs in to this console and approves; an API key in a header is
// the second way, for clients or scripts that cannot sign in.
//
// Each snippet follows its client's own documentation (as of 2026):
// - Claude Desktop and claude.ai: Settings → Connectors → "Add custom connector", the server URL
//   (support.claude.com/en/articles/11175166, "Getting started with custom connectors using remote MCP").
// - ChatGPT: Settings → Apps → Advanced settings, developer mode on; then "Create app" with the MCP server
//   URL and OAuth as its authentication (developers.openai.com/api/docs/guides/developer-mode).
// - Claude Code: `claude mcp add --transport http <name> <url>`, options before the name, `--header` for a
//   key; `/mcp` in a session signs in (code.claude.com/docs/en/mcp).
// - Cursor: `mcpServers.<name>.url` in ~/.cursor/mcp.json or .cursor/mcp.json, `headers` optional; a
//   Streamable HTTP server's auth is OAuth (cursor.com/docs/mcp).
// - VS Code: `servers.<name>` with `type: "http"` and `url` in .vscode/mcp.json, `headers` and `inputs`
//   optional; VS Code runs the OAuth flow itself and opens the browser (code.visualstudio.com/docs/copilot/
//   reference/mcp-configuration).
import * as Tabs from "@radix-ui/react-tabs";
import { CodeBlock } from "./code-block";
import { CopyButton } from "./copy-button";

interface Way {
  where: string;
  code: string;
}

interface ClientSnippets {
  client: string;
  /** The URL only: the client signs the person in (OAuth). */
  signIn: Way;
  /** The same with an API key in a header, for a client that should not sign in; null when it has none. */
  withKey: Way | null;
  /** A hosted client reaches the gateway from the internet: it needs a public HTTPS address. */
  hosted?: boolean;
}

const json = (value: unknown) => JSON.stringify(value, null, 2);

function snippets(url: string): ClientSnippets[] {
  return [
    {
      client: "Claude Code",
      signIn: {
        where: "In a terminal, then run /mcp in Claude Code and choose the server to sign in:",
        code: `claude mcp add --transport http memory ${url}`,
      },
      withKey: {
        where: "In a terminal:",
        code: `claude mcp add --transport http memory ${url} \\\n  --header "Authorization: Bearer mgw_..."`,
      },
    },
    {
      client: "Cursor",
      signIn: {
        where: "In ~/.cursor/mcp.json, or .cursor/mcp.json in a project; Cursor asks you to sign in:",
        code: json({ mcpServers: { memory: { url } } }),
      },
      withKey: {
        where: "In ~/.cursor/mcp.json, or .cursor/mcp.json in a project:",
        code: json({ mcpServers: { memory: { url, headers: { Authorization: "Bearer mgw_..." } } } }),
      },
    },
    {
      client: "VS Code",
      signIn: {
        where: "In .vscode/mcp.json; VS Code opens the browser to sign in when the server starts:",
        code: json({ servers: { memory: { type: "http", url } } }),
      },
      withKey: {
        where: "In .vscode/mcp.json (VS Code asks for the key once and stores it):",
        code: json({
          inputs: [{ type: "promptString", id: "memgw-key", description: "Memory Gateway API key", password: true }],
          servers: {
            memory: { type: "http", url, headers: { Authorization: "Bearer ${input:memgw-key}" } },
          },
        }),
      },
    },
    {
      client: "Claude Desktop",
      hosted: true,
      signIn: {
        where:
          "In Claude Desktop or claude.ai: Settings → Connectors → Add custom connector, paste this URL, then " +
          "Connect and approve in the browser:",
        code: url,
      },
      withKey: null,
    },
    {
      client: "ChatGPT",
      hosted: true,
      signIn: {
        where:
          "In ChatGPT: Settings → Apps → Advanced settings, turn on developer mode; then Create app, paste " +
          "this URL, choose OAuth as the authentication, and sign in and approve:",
        code: url,
      },
      withKey: null,
    },
  ];
}

export function McpSnippets({ url }: { url: string }) {
  const all = snippets(url);
  const publicHttps = url.startsWith("https://") && !/^https:\/\/(localhost|127\.|\[::1\])/.test(url);
  return (
    <div className="space-y-4">
      <div className="flex min-w-0 items-center gap-2">
        <code
          data-testid="mcp-endpoint"
          className={
            "min-w-0 flex-1 overflow-x-auto whitespace-nowrap rounded-md bg-slate-100 px-3 py-2 font-mono text-xs"
          }
        >
          {url}
        </code>
        <CopyButton text={url} label="Copy the MCP endpoint URL" />
      </div>
      <Tabs.Root defaultValue={tabValue(all[0].client)}>
        <Tabs.List aria-label="MCP clients" className="flex flex-wrap gap-1 border-b border-slate-200">
          {all.map(({ client }) => (
            <Tabs.Trigger
              key={client}
              value={tabValue(client)}
              className={
                "-mb-px border-b-2 border-transparent px-3 py-1.5 text-sm text-slate-600 " +
                "data-[state=active]:border-indigo-600 data-[state=active]:font-medium " +
                "data-[state=active]:text-indigo-700"
              }
            >
              {client}
            </Tabs.Trigger>
          ))}
        </Tabs.List>
        {all.map(({ client, signIn, withKey, hosted }) => (
          <Tabs.Content key={client} value={tabValue(client)} className="mt-3 space-y-4">
            <section aria-label={`${client}: sign in with the URL`} className="space-y-2" data-testid="mcp-sign-in">
              <h3 className="text-sm font-semibold text-slate-800">
                Sign in with the URL <span className="font-normal text-emerald-700">(recommended)</span>
              </h3>
              <SnippetWay client={client} what="sign-in" way={signIn} />
              <p className="text-xs text-slate-600">
                No key to copy: the client opens this console in your browser, where you sign in and approve its access
                to this namespace.
                {hosted &&
                  !publicHttps &&
                  ` ${client} connects from its own servers: this gateway must be reachable from the internet over ` +
                    "HTTPS (set PUBLIC_URL to that address)."}
              </p>
            </section>
            {withKey && (
              <section aria-label={`${client}: with an API key`} className="space-y-2" data-testid="mcp-with-key">
                <h3 className="text-sm font-semibold text-slate-800">Or with an API key</h3>
                <SnippetWay client={client} what="API key" way={withKey} />
                <p className="text-xs text-slate-600">
                  Replace <code>mgw_...</code> with an API key granted this namespace (see Permissions below).
                </p>
              </section>
            )}
          </Tabs.Content>
        ))}
      </Tabs.Root>
    </div>
  );
}

function SnippetWay({ client, what, way }: { client: string; what: string; way: Way }) {
  return (
    <>
      <div className="flex items-center justify-between gap-2">
        <p className="text-sm text-slate-600">{way.where}</p>
        <CopyButton text={way.code} label={`Copy the ${client} ${what} snippet`} />
      </div>
      <CodeBlock>{way.code}</CodeBlock>
    </>
  );
}

/** Radix derives the tab's element ids from its value: a client's name with spaces would make invalid ids. */
function tabValue(client: string): string {
  return client.toLowerCase().replace(/[^a-z0-9]+/g, "-");
}
