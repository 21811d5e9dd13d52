"use client";
// A namespace's MCP endpoint and how to add it to the common clients (the README's snippets, with its URL).
import * as Tabs from "@radix-ui/react-tabs";
import { CodeBlock } from "./code-block";
import { CopyButton } from "./copy-button";

function snippets(url: string) {
  const json = (value: unknown) => JSON.stringify(value, null, 2);
  return [
    {
      client: "Claude Code",
      where: "In a terminal:",
      code: `claude mcp add --transport http memory ${url} \\\n  --header "Authorization: Bearer mgw_..."`,
    },
    {
      client: "Cursor",
      where: "In ~/.cursor/mcp.json, or .cursor/mcp.json in a project:",
      code: json({ mcpServers: { memory: { url, headers: { Authorization: "Bearer mgw_..." } } } }),
    },
    {
      client: "VS Code",
      where: "In .vscode/mcp.json (VS Code asks for the key once and stores it):",
      code: json({
        inputs: [{ type: "promptString", id: "memgw-key", description: "Memory Gateway API key", password: true }],
        servers: {
          memory: { type: "http", url, headers: { Authorization: "Bearer ${input:memgw-key}" } },
        },
      }),
    },
  ];
}

export function McpSnippets({ url }: { url: string }) {
  const all = snippets(url);
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
        {all.map(({ client, where, code }) => (
          <Tabs.Content key={client} value={tabValue(client)} className="mt-3 space-y-2">
            <div className="flex items-center justify-between gap-2">
              <p className="text-sm text-slate-600">{where}</p>
              <CopyButton text={code} label={`Copy the ${client} snippet`} />
            </div>
            <CodeBlock>{code}</CodeBlock>
          </Tabs.Content>
        ))}
      </Tabs.Root>
      <p className="text-xs text-slate-500">
        Replace <code>mgw_...</code> with an API key granted this namespace (see Permissions below).
      </p>
    </div>
  );
}

/** Radix derives the tab's element ids from its value: a client's name with spaces would make invalid ids. */
function tabValue(client: string): string {
  return client.toLowerCase().replace(/[^a-z0-9]+/g, "-");
}
