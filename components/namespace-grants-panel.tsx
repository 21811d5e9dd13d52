"use client";
// The permissions panel of a namespace: every grant, keys and members in one table, each saying what that
// grantee can do here; those who manage grants add and remove them (the API's operations underneath).
import { useRouter } from "next/navigation";
import { useState } from "react";
import { formatScopePairs } from "@/lib/auth/scopes";
import { formatUtc } from "./format";
import { addGrantAction, removeGrantAction } from "@/lib/console/actions/namespaces";
import { refuse, useActionForm } from "./action-form";
import { ConfirmDialog } from "./confirm-dialog";
import { Dialog } from "./dialog";
import { Button, Card, Field, Notice, Select, Table } from "./ui";

export type GrantRow = {
  grantId: string;
  can: string[];
  inactive: string | null;
  note: string | null;
} & (
  | {
      kind: "api_key";
      key: {
        id: string;
        name: string;
        display: string;
        permissions: string[];
        scopes: Record<string, string>;
        lastUsedAt: string;
        /** Set for a connected MCP client (an OAuth connection): shown as such, never as an API key. */
        connection: { connectedBy: string | null; connectedAt: Date | string } | null;
      };
    }
  | { kind: "user"; user: { id: string; name: string | null; email: string; role: string | null } }
);

export interface GrantCandidates {
  keys: { id: string; name: string; display: string }[];
  members: { id: string; name: string | null; email: string; role: string }[];
}

const granteeName = (row: GrantRow) => {
  if (row.kind === "user") return row.user.email;
  return row.key.connection ? `MCP connection ${row.key.name}` : `API key ${row.key.name}`;
};

export function NamespaceGrantsPanel(props: {
  orgSlug: string;
  namespaceId: string;
  rows: GrantRow[];
  /** Present only for those who manage grants. */
  candidates: GrantCandidates | null;
}) {
  const router = useRouter();
  const [adding, setAdding] = useState(false);
  const [removing, setRemoving] = useState<GrantRow>();
  const [done, setDone] = useState<string>();
  const manages = props.candidates !== null;

  return (
    <Card
      title="Permissions"
      description={
        manages
          ? "Who may use this namespace. A change applies to an API key's very next request."
          : "Who may use this namespace. Owners and admins change it."
      }
      actions={
        manages && (
          <Button
            onClick={() => {
              setDone(undefined);
              setAdding(true);
            }}
          >
            Add access
          </Button>
        )
      }
    >
      <div className="space-y-3">
        {done && <Notice tone="success">{done}</Notice>}
        {props.rows.length === 0 ? (
          <p className="text-sm text-slate-600">
            No API key or member is granted this namespace yet.{" "}
            {manages ? "Owners and admins see it through their role." : ""}
          </p>
        ) : (
          <Table columns={["Grantee", "Details", "Can do here", "Last used", ""]}>
            {props.rows.map((row) => (
              <tr key={row.grantId} data-testid="grant-row" className={row.inactive ? "text-slate-500" : ""}>
                <td className="px-4 py-2 align-top">
                  {row.kind === "api_key" && row.key.connection ? (
                    <>
                      <div className="font-medium">{row.key.name}</div>
                      <div data-testid="grant-kind" className="text-xs text-slate-500">
                        MCP connection
                        {row.key.connection.connectedBy && <> · by {row.key.connection.connectedBy}</>}
                        <div>connected {formatUtc(row.key.connection.connectedAt)}</div>
                      </div>
                    </>
                  ) : row.kind === "api_key" ? (
                    <>
                      <div className="font-medium">{row.key.name}</div>
                      <div data-testid="grant-kind" className="whitespace-nowrap text-xs text-slate-500">
                        API key · <span className="font-mono">{row.key.display}</span>
                      </div>
                    </>
                  ) : (
                    <>
                      <div className="font-medium">{row.user.name || row.user.email}</div>
                      <div className="text-xs text-slate-500">Member{row.user.name ? ` · ${row.user.email}` : ""}</div>
                    </>
                  )}
                </td>
                <td className="px-4 py-2 align-top text-xs">
                  {row.kind === "api_key" && row.key.connection ? (
                    <div>Approved: {row.key.permissions.join(", ") || "nothing"}</div>
                  ) : row.kind === "api_key" ? (
                    <>
                      <div>Permissions: {row.key.permissions.join(", ") || "none"}</div>
                      <div>Scopes: {formatScopePairs(row.key.scopes) || "none"}</div>
                    </>
                  ) : (
                    <div>Role: {row.user.role ?? "not a member"}</div>
                  )}
                </td>
                <td className="min-w-48 px-4 py-2 align-top text-xs">
                  <div data-testid="grant-can" className="font-medium text-slate-800">
                    {row.can.length ? row.can.join(", ") : "nothing"}
                  </div>
                  {row.inactive && <div className="text-amber-700">Inactive: {row.inactive}</div>}
                  {row.note && <div className="text-slate-500">{row.note}</div>}
                </td>
                <td className="whitespace-nowrap px-4 py-2 align-top text-xs">
                  {row.kind === "api_key" ? row.key.lastUsedAt : "—"}
                </td>
                <td className="px-4 py-2 text-right align-top">
                  {manages && (
                    <Button
                      variant="secondary"
                      onClick={() => setRemoving(row)}
                      aria-label={`Remove ${granteeName(row)}`}
                    >
                      Remove
                    </Button>
                  )}
                </td>
              </tr>
            ))}
          </Table>
        )}
      </div>
      {adding && props.candidates && (
        <AddGrantDialog
          orgSlug={props.orgSlug}
          namespaceId={props.namespaceId}
          candidates={props.candidates}
          onClose={() => setAdding(false)}
          onAdded={(who) => {
            setAdding(false);
            setDone(`${who} now has access.`);
            router.refresh();
          }}
        />
      )}
      {removing && (
        <ConfirmDialog
          title={`Remove access of ${granteeName(removing)}?`}
          confirmLabel="Remove access"
          onCancel={() => setRemoving(undefined)}
          onConfirm={async () => {
            const result = await removeGrantAction(props.orgSlug, {
              namespace_id: props.namespaceId,
              grant_id: removing.grantId,
            });
            return result.ok ? undefined : result.error;
          }}
          onDone={() => {
            setDone(`${granteeName(removing)} no longer has access.`);
            setRemoving(undefined);
            router.refresh();
          }}
        >
          <p>
            {removing.kind === "api_key" && removing.key.connection
              ? "The client's very next request to this namespace is answered 404; reconnecting it gives access again."
              : removing.kind === "api_key"
                ? "Its very next request to this namespace is answered 404."
                : "They no longer see this namespace unless their role is owner or admin."}
          </p>
        </ConfirmDialog>
      )}
    </Card>
  );
}

function AddGrantDialog(props: {
  orgSlug: string;
  namespaceId: string;
  candidates: GrantCandidates;
  onClose: () => void;
  onAdded: (who: string) => void;
}) {
  const { keys, members } = props.candidates;
  const label = (grantee: string) =>
    grantee.startsWith("key:")
      ? `API key ${keys.find((key) => `key:${key.id}` === grantee)?.name}`
      : (members.find((member) => `user:${member.id}` === grantee)?.email ?? "It");
  const form = useActionForm(
    async (data: FormData) => {
      const [kind, id] = String(data.get("grantee") ?? "").split(":", 2);
      if (!id) return refuse({}, "Choose an API key or a member.");
      return addGrantAction(props.orgSlug, {
        namespace_id: props.namespaceId,
        ...(kind === "key" ? { api_key_id: id } : { user_id: id }),
      });
    },
    { onSuccess: (_grant, data) => props.onAdded(label(String(data.get("grantee")))) },
  );

  return (
    <Dialog title="Add access" onClose={props.onClose}>
      {keys.length === 0 && members.length === 0 ? (
        <p className="text-sm text-slate-600">
          Every active API key and every member of this organization already has access.
        </p>
      ) : (
        <form action={form.action} onResetCapture={form.keepAfterRefusal} className="space-y-4">
          <Field label="API key or member" hint="API keys that are revoked or already granted are not listed.">
            <Select name="grantee" defaultValue={form.values.grantee ?? ""}>
              <option value="" disabled>
                Choose…
              </option>
              {keys.length > 0 && (
                <optgroup label="API keys">
                  {keys.map((key) => (
                    <option key={key.id} value={`key:${key.id}`}>
                      {key.name} ({key.display})
                    </option>
                  ))}
                </optgroup>
              )}
              {members.length > 0 && (
                <optgroup label="Members">
                  {members.map((member) => (
                    <option key={member.id} value={`user:${member.id}`}>
                      {member.name ? `${member.name} <${member.email}>` : member.email} ({member.role})
                    </option>
                  ))}
                </optgroup>
              )}
            </Select>
          </Field>
          {form.error && <Notice tone="error">{form.error}</Notice>}
          <div className="flex justify-end gap-2">
            <Button type="button" variant="secondary" onClick={props.onClose}>
              Cancel
            </Button>
            <Button type="submit" disabled={form.pending}>
              Grant access
            </Button>
          </div>
        </form>
      )}
    </Dialog>
  );
}
