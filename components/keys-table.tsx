"use client";
import { formatScopePairs } from "@/lib/auth/scopes";
import { DateTime } from "./date-time";
import { formatUtc, plural } from "./format";
import { permissionWords } from "./key-access-fields";
import { Button, Table } from "./ui";

export interface KeyRow {
  id: string;
  name: string;
  display: string;
  permissions: string[];
  scopes: Record<string, string>;
  /** The granted namespaces this person may see (a member is not shown the names of the others). */
  namespaces: { id: string; name: string }[];
  /** Granted namespaces this person may not see. */
  hiddenNamespaces: number;
  /** Namespaces (this person may see) the key asked for lately and was refused, not being granted them. */
  refusals: { namespaceId: string; namespaceName: string; count: number }[];
  createdBy: string | null;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

const COLUMNS = ["Key", "Permissions", "Namespaces", "Scopes", "Last used", ""];

function namespaceList(key: KeyRow) {
  const names = key.namespaces.map((ns) => ns.name);
  if (key.hiddenNamespaces) names.push(`${key.hiddenNamespaces} more you cannot see`);
  return names.join(", ");
}

/**
 * The namespaces a key was refused for want of a grant (a 404 to its caller), with the way to grant them: a key
 * made before its namespace is the usual case.
 */
function RefusalHint({ row, onGrant }: { row: KeyRow; onGrant: (() => void) | null }) {
  return (
    <div className="mt-1 max-w-40 rounded bg-amber-50 px-1.5 py-1 text-amber-900" data-testid="key-refusals">
      {row.refusals.map((r) => (
        <p key={r.namespaceId} className="[overflow-wrap:anywhere]">
          Refused {plural(r.count, "time")} on <span className="font-medium">{r.namespaceName}</span>: not granted
        </p>
      ))}
      {onGrant && (
        <button type="button" className="font-medium underline" onClick={onGrant}>
          Grant access
        </button>
      )}
    </div>
  );
}

/**
 * The organization's keys, revoked ones greyed; Edit and Revoke are offered on the keys `mayChange` allows.
 * Six columns with long lists (scopes, namespaces) cut to a width, the whole list on hover: the table fits
 * beside the sidebar at 1280 px with its buttons in view; on a narrow screen each key is a card.
 */
export function KeysTable(props: {
  keys: KeyRow[];
  mayChange: (key: KeyRow) => boolean;
  onEdit: (key: KeyRow) => void;
  onRevoke: (key: KeyRow) => void;
}) {
  const cell = "px-3 py-2 align-top";
  return (
    <Table columns={COLUMNS} stacked>
      {props.keys.map((key) => {
        const created = `Created ${formatUtc(key.createdAt)}${key.createdBy ? ` by ${key.createdBy}` : ""}`;
        return (
          <tr key={key.id} data-testid="key-row" className={key.revokedAt ? "text-slate-500" : ""}>
            <td className={cell}>
              <div className="max-w-48 truncate font-medium" title={key.name}>
                {key.name}
              </div>
              <div className="whitespace-nowrap font-mono text-xs text-slate-500">{key.display}</div>
              <div className="max-w-64 text-xs text-slate-500 [overflow-wrap:anywhere]">{created}</div>
            </td>
            <td className={`${cell} text-xs`} data-label={COLUMNS[1]}>
              <div className="min-w-20 max-w-36">{permissionWords(key.permissions)}</div>
            </td>
            <td className={`${cell} text-xs`} data-label={COLUMNS[2]}>
              <div className="max-w-32 truncate" title={namespaceList(key)}>
                {namespaceList(key) || "none"}
              </div>
              {!key.revokedAt && key.refusals.length > 0 && (
                <RefusalHint row={key} onGrant={props.mayChange(key) ? () => props.onEdit(key) : null} />
              )}
            </td>
            <td className={`${cell} text-xs`} data-label={COLUMNS[3]}>
              <div className="max-w-32 truncate" title={formatScopePairs(key.scopes)}>
                {formatScopePairs(key.scopes) || "—"}
              </div>
            </td>
            <td className={`${cell} whitespace-nowrap text-xs`} data-label={COLUMNS[4]}>
              <DateTime value={key.lastUsedAt} empty="never" relative />
            </td>
            <td className={`${cell} whitespace-nowrap text-right`}>
              {key.revokedAt ? (
                <span className="text-xs">Revoked</span>
              ) : props.mayChange(key) ? (
                <span className="inline-flex gap-2">
                  <Button variant="secondary" onClick={() => props.onEdit(key)}>
                    Edit
                  </Button>
                  <Button variant="secondary" onClick={() => props.onRevoke(key)}>
                    Revoke
                  </Button>
                </span>
              ) : null}
            </td>
          </tr>
        );
      })}
    </Table>
  );
}
