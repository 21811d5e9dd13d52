"use client";
// The organization's connections: where each syncs to, how it is doing, "Sync now" and "Disconnect". While
// one is being set up or synced the page reloads its data every few seconds, so the person watches it finish.
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useEffect, useState, type ReactNode } from "react";
import {
  connectionMemoriesAction,
  disconnectIntegrationAction,
  reconnectIntegrationAction,
  syncIntegrationAction,
} from "@/lib/console/actions/integrations";
import { useActionForm } from "./action-form";
import { ConfirmDialog } from "./confirm-dialog";
import { Button, Checkbox, Notice, Table } from "./ui";

export type ConnectionStatus = "pending" | "active" | "syncing" | "error" | "revoked";

export interface ConnectionRowData {
  id: string;
  providerName: string;
  namespace: { id: string; name: string };
  status: ConnectionStatus;
  account: string | null;
  /** Formatted on the server (UTC), "never" before the first sync. */
  lastSync: string;
  documents: number;
  lastError: string | null;
  /** Still changing on its own: set up in progress, a sync queued or running. */
  settling: boolean;
}

const REFRESH_MS = 3_000;
const COLUMNS = ["Provider", "Namespace", "Status", "Last sync", "Documents", "Last error", ""];

const STATUS_STYLES: Record<ConnectionStatus, string> = {
  pending: "bg-amber-50 text-amber-800",
  active: "bg-emerald-50 text-emerald-800",
  syncing: "bg-sky-50 text-sky-800",
  error: "bg-rose-50 text-rose-800",
  revoked: "bg-slate-100 text-slate-600",
};

export function ConnectionStatusBadge({ status }: { status: ConnectionStatus }) {
  return (
    <span
      data-testid="connection-status"
      className={`rounded-full px-2 py-0.5 text-xs font-medium ${STATUS_STYLES[status]}`}
    >
      {status}
    </span>
  );
}

const memoriesOf = (count: number) => `${count.toLocaleString("en-US")} ${count === 1 ? "memory" : "memories"}`;

export function IntegrationConnections({
  orgSlug,
  rows,
  empty,
}: {
  orgSlug: string;
  rows: ConnectionRowData[];
  /** What shows instead of the table when there is no connection (on this page). */
  empty: ReactNode;
}) {
  const router = useRouter();
  /** The row whose sync or reconnect was asked for last (the one whose buttons wait for it). */
  const [workingOn, setWorkingOn] = useState<string>();
  /** The last disconnection's message, until the next action replaces it. */
  const [disconnected, setDisconnected] = useState<string>();
  const [disconnecting, setDisconnecting] = useState<ConnectionRowData>();
  const [keepMemories, setKeepMemories] = useState(false);
  /** What the confirmation says goes: counted when it opens (undefined while counting). */
  const [memoryCount, setMemoryCount] = useState<number | null>();
  /** Syncs asked for here, by connection, with the last sync shown then: the page waits for it to change. */
  const [requested, setRequested] = useState<Record<string, string>>({});

  const busy = (row: ConnectionRowData) =>
    row.settling || (requested[row.id] === row.lastSync && row.status !== "error");
  // Reading again is cheap and the rows say when to stop: once nothing is pending or syncing.
  const settling = rows.some(busy);
  useEffect(() => {
    if (!settling) return;
    const timer = setInterval(() => router.refresh(), REFRESH_MS);
    return () => clearInterval(timer);
  }, [settling, router]);

  const form = useActionForm(async ([asked, row]: ["sync" | "reconnect", ConnectionRowData]) => {
    if (asked === "reconnect") {
      const result = await reconnectIntegrationAction(orgSlug, { connection_id: row.id });
      if (!result.ok) return result;
      window.location.assign(result.data.authorization_url);
      return { ok: true as const, data: undefined };
    }
    const result = await syncIntegrationAction(orgSlug, { connection_id: row.id });
    if (result.ok) setRequested((current) => ({ ...current, [row.id]: row.lastSync }));
    router.refresh();
    return result.ok ? { ok: true as const, data: `A sync of ${row.providerName} is queued.` } : result;
  });
  const ask = (asked: "sync" | "reconnect", row: ConnectionRowData) => {
    setDisconnected(undefined);
    setWorkingOn(row.id);
    form.run([asked, row]);
  };
  const message = disconnected
    ? { tone: "success" as const, text: disconnected }
    : form.error
      ? { tone: "error" as const, text: form.error }
      : form.data && { tone: "success" as const, text: form.data };
  const working = (row: ConnectionRowData) => form.pending && workingOn === row.id;

  async function openDisconnect(row: ConnectionRowData) {
    setKeepMemories(false);
    setMemoryCount(undefined);
    setDisconnecting(row);
    const result = await connectionMemoriesAction(orgSlug, { connection_id: row.id });
    setMemoryCount(result.ok ? result.data.memories : null);
  }

  return (
    <div className="space-y-3">
      {message && <Notice tone={message.tone}>{message.text}</Notice>}
      {rows.length === 0 ? (
        empty
      ) : (
        <Table columns={COLUMNS} stacked>
          {rows.map((row) => (
            <tr key={row.id} data-testid="connection-row" data-connection-id={row.id}>
              <td className="whitespace-nowrap px-4 py-2">
                <div className="font-medium">{row.providerName}</div>
                {row.account && <div className="text-xs text-slate-500">{row.account}</div>}
              </td>
              <td className="px-4 py-2" data-label={COLUMNS[1]}>
                <Link href={`/${orgSlug}/namespaces/${row.namespace.id}`} className="text-indigo-700 hover:underline">
                  {row.namespace.name}
                </Link>
              </td>
              <td className="px-4 py-2" data-label={COLUMNS[2]}>
                <ConnectionStatusBadge status={row.status} />
              </td>
              <td className="whitespace-nowrap px-4 py-2 text-xs" data-label={COLUMNS[3]}>
                {row.lastSync}
              </td>
              <td data-testid="connection-documents" className="px-4 py-2 tabular-nums" data-label={COLUMNS[4]}>
                {row.documents.toLocaleString("en-US")}
              </td>
              <td className="min-w-40 max-w-xs break-words px-4 py-2 text-xs text-rose-800" data-label={COLUMNS[5]}>
                {row.lastError ?? ""}
              </td>
              <td className="px-4 py-2">
                <div className="flex justify-end gap-2">
                  <Button
                    variant="secondary"
                    className="whitespace-nowrap"
                    disabled={busy(row) || working(row)}
                    onClick={() => ask("sync", row)}
                    aria-label={`Sync ${row.providerName} to ${row.namespace.name} now`}
                  >
                    Sync now
                  </Button>
                  {(row.status === "error" || row.status === "revoked") && (
                    <Button
                      className="whitespace-nowrap"
                      disabled={working(row)}
                      onClick={() => ask("reconnect", row)}
                      aria-label={`Reconnect ${row.providerName} to ${row.namespace.name}`}
                    >
                      Reconnect
                    </Button>
                  )}
                  <Button
                    variant="secondary"
                    onClick={() => openDisconnect(row)}
                    aria-label={`Disconnect ${row.providerName} from ${row.namespace.name}`}
                  >
                    Disconnect
                  </Button>
                </div>
              </td>
            </tr>
          ))}
        </Table>
      )}
      {disconnecting && (
        <ConfirmDialog
          key={disconnecting.id}
          title={`Disconnect ${disconnecting.providerName}?`}
          confirmLabel="Disconnect"
          onCancel={() => setDisconnecting(undefined)}
          onConfirm={async () => {
            const result = await disconnectIntegrationAction(orgSlug, {
              connection_id: disconnecting.id,
              keep_memories: keepMemories,
            });
            if (!result.ok) return result.error;
            const { memories_deleted: deleted } = result.data;
            setDisconnected(
              `${disconnecting.providerName} is disconnected; ` +
                (keepMemories ? "its memories are kept." : `${memoriesOf(deleted)} deleted.`),
            );
            return undefined;
          }}
          onDone={() => {
            setDisconnecting(undefined);
            router.refresh();
          }}
        >
          <p>
            The access {disconnecting.providerName} gave is revoked and the connection deleted.{" "}
            <MemoriesGoing count={memoryCount} keep={keepMemories} namespace={disconnecting.namespace.name} />
          </p>
          <label className="flex items-center gap-2">
            <Checkbox checked={keepMemories} onCheckedChange={(checked) => setKeepMemories(checked === true)} />
            Keep the memories
          </label>
        </ConfirmDialog>
      )}
    </div>
  );
}

/** The confirmation's sentence about the connection's memories: how many go, or that they stay. */
function MemoriesGoing({
  count,
  keep,
  namespace,
}: {
  count: number | null | undefined;
  keep: boolean;
  namespace: string;
}) {
  if (count === undefined) return <span>Counting its memories…</span>;
  const memories = count === null ? "memories" : memoriesOf(count);
  if (keep) {
    return (
      <span>
        Its <strong>{memories}</strong> stay in {namespace}, no longer kept up to date.
      </span>
    );
  }
  return (
    <span data-testid="memories-going">
      Its <strong>{memories}</strong> will be deleted from {namespace}. This cannot be undone.
    </span>
  );
}
