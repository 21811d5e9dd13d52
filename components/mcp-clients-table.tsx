"use client";
// The MCP clients connected with OAuth (app/consent): for a member those they connected, for owners and
// admins every one of the organization's. Revoking one fails its next request with 401.
import { useState } from "react";
import { revokeMcpClient } from "@/lib/console/actions/mcp-clients";
import { ConfirmDialog } from "./confirm-dialog";
import { DateTime } from "./date-time";
import { Button, Card, Notice, Table } from "./ui";

export interface McpClientRow {
  id: string;
  clientName: string;
  namespace: { id: string; name: string } | null;
  access: ("read" | "write")[];
  connectedBy: string | null;
  connectedAt: string;
  lastUsedAt: string | null;
}

export function McpClientsTable(props: { orgSlug: string; clients: McpClientRow[]; wholeOrganization: boolean }) {
  const [revoking, setRevoking] = useState<McpClientRow>();
  const [message, setMessage] = useState<string>();
  return (
    <Card
      title="Connected MCP clients"
      description={
        props.wholeOrganization
          ? "Every MCP client a member of the organization connected with OAuth (Claude, ChatGPT, Cursor, VS Code…)."
          : "The MCP clients you connected with OAuth (Claude, ChatGPT, Cursor, VS Code…)."
      }
    >
      {message && <Notice tone="success">{message}</Notice>}
      {props.clients.length === 0 ? (
        <p className="text-sm text-slate-600" data-testid="no-mcp-clients">
          No client is connected. Paste a namespace&apos;s MCP endpoint URL into your client and approve it when asked.
        </p>
      ) : (
        <Table columns={["Client", "Namespace", "Permissions", "Connected by", "Last used", ""]} stacked>
          {props.clients.map((client) => (
            <tr key={client.id} data-testid="mcp-client-row">
              <td className="px-4 py-2 font-medium">{client.clientName}</td>
              <td className="px-4 py-2" data-label="Namespace">
                {client.namespace?.name ?? "—"}
              </td>
              <td className="px-4 py-2" data-label="Permissions">
                {client.access.includes("write") ? "read and write" : "read"}
              </td>
              <td className="px-4 py-2" data-label="Connected by">
                {client.connectedBy ?? "—"}
              </td>
              <td className="px-4 py-2 whitespace-nowrap" data-label="Last used">
                <DateTime value={client.lastUsedAt} empty="never" relative />
              </td>
              <td className="px-4 py-2 text-right">
                <Button variant="secondary" onClick={() => setRevoking(client)}>
                  Revoke
                </Button>
              </td>
            </tr>
          ))}
        </Table>
      )}
      {revoking && (
        <ConfirmDialog
          title={`Revoke “${revoking.clientName}”?`}
          confirmLabel="Revoke client"
          onCancel={() => setRevoking(undefined)}
          onConfirm={async () => {
            const result = await revokeMcpClient(props.orgSlug, { key_id: revoking.id });
            return result.ok ? undefined : result.error;
          }}
          onDone={() => {
            setMessage(`${revoking.clientName} is disconnected: its next request fails with 401.`);
            setRevoking(undefined);
          }}
        >
          <p>Its access and refresh tokens stop working at once. Connecting again needs a new approval.</p>
        </ConfirmDialog>
      )}
    </Card>
  );
}
