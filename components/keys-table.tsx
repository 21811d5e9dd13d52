"use client";
import { Button, Table } from "./ui";

export interface KeyRow {
  id: string;
  name: string;
  display: string;
  permissions: string[];
  scopes: Record<string, string>;
  namespaces: { id: string; name: string }[];
  createdBy: string | null;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

const COLUMNS = ["Name", "Key", "Permissions", "Scopes", "Namespaces", "Created by", "Created", "Last used", ""];

const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString() : "never");
const scopePairs = (scopes: Record<string, string>) =>
  Object.entries(scopes)
    .map(([name, value]) => `${name}=${value}`)
    .join(", ");

/** The organization's keys, revoked ones greyed; `onRevoke` is offered on the keys `mayRevoke` allows. */
export function KeysTable(props: {
  keys: KeyRow[];
  mayRevoke: (key: KeyRow) => boolean;
  onRevoke: (key: KeyRow) => void;
}) {
  return (
    <Table columns={COLUMNS}>
      {props.keys.map((key) => (
        <tr key={key.id} data-testid="key-row" className={key.revokedAt ? "text-slate-400" : ""}>
          <td className="px-4 py-2 font-medium">{key.name}</td>
          <td className="px-4 py-2 font-mono text-xs">{key.display}</td>
          <td className="px-4 py-2 text-xs">{key.permissions.join(", ")}</td>
          <td className="px-4 py-2 text-xs">{scopePairs(key.scopes) || "—"}</td>
          <td className="px-4 py-2 text-xs">{key.namespaces.map((ns) => ns.name).join(", ") || "—"}</td>
          <td className="px-4 py-2 text-xs">{key.createdBy ?? "—"}</td>
          <td className="px-4 py-2 text-xs">{when(key.createdAt)}</td>
          <td className="px-4 py-2 text-xs">{when(key.lastUsedAt)}</td>
          <td className="px-4 py-2 text-right">
            {key.revokedAt ? (
              <span className="text-xs">Revoked</span>
            ) : props.mayRevoke(key) ? (
              <Button variant="secondary" onClick={() => props.onRevoke(key)}>
                Revoke
              </Button>
            ) : null}
          </td>
        </tr>
      ))}
    </Table>
  );
}
