// A namespace's connections on its overview page: what feeds its memories, managed on the integrations page.
import Link from "next/link";
import { ConnectionStatusBadge, type ConnectionStatus } from "./integrations-connections";
import { Card, Table } from "./ui";

export interface NamespaceConnectionData {
  id: string;
  providerName: string;
  status: ConnectionStatus;
  account: string | null;
  /** Formatted on the server (UTC), "never" before the first sync. */
  lastSync: string;
  documents: number;
}

export function NamespaceConnectionsCard(props: {
  orgSlug: string;
  connections: NamespaceConnectionData[];
  /** More connections than listed here. */
  more: boolean;
}) {
  const integrations = `/${props.orgSlug}/integrations`;
  return (
    <Card
      title="Connections"
      description="Providers whose documents are synced into this namespace as memories."
      actions={
        <Link
          href={integrations}
          className={
            "rounded-md border border-slate-300 bg-white px-4 py-2 text-sm text-slate-800 shadow-sm " +
            "hover:bg-slate-50"
          }
        >
          Manage integrations
        </Link>
      }
    >
      {props.connections.length === 0 ? (
        <p className="text-sm text-slate-600">
          None yet.{" "}
          <Link href={integrations} className="text-indigo-700 hover:underline">
            Connect GitHub, Notion, Google Drive or Slack
          </Link>{" "}
          to bring their documents in.
        </p>
      ) : (
        <>
          <Table columns={["Provider", "Status", "Account", "Last sync", "Documents"]}>
            {props.connections.map((connection) => (
              <tr key={connection.id} data-testid="namespace-connection-row">
                <td className="whitespace-nowrap px-4 py-2 font-medium">{connection.providerName}</td>
                <td className="px-4 py-2">
                  <ConnectionStatusBadge status={connection.status} />
                </td>
                <td className="px-4 py-2 text-xs">{connection.account ?? "—"}</td>
                <td className="whitespace-nowrap px-4 py-2 text-xs">{connection.lastSync}</td>
                <td className="px-4 py-2 tabular-nums">{connection.documents.toLocaleString("en-US")}</td>
              </tr>
            ))}
          </Table>
          {props.more && (
            <p className="mt-2 text-sm">
              <Link href={integrations} className="text-indigo-700 hover:underline">
                Every connection
              </Link>
            </p>
          )}
        </>
      )}
    </Card>
  );
}
