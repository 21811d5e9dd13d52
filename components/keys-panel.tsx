"use client";
// The API keys page: the table and the dialogs (generate, the new secret, edit, revoke), each holding its
// own state; the panel holds only which of them is open.
import { useState } from "react";
import type { Permission } from "@/lib/auth/permissions";
import { CreateKeyForm } from "./create-key-form";
import { EditKeyDialog } from "./edit-key-dialog";
import { KeysTable, type KeyRow } from "./keys-table";
import { NewKeyDialog } from "./new-key-dialog";
import { RevokeKeyDialog } from "./revoke-key-dialog";
import { Button, Card, Notice } from "./ui";

export function KeysPanel(props: {
  orgSlug: string;
  keys: KeyRow[];
  namespaces: { id: string; name: string }[];
  allowedPermissions: Permission[];
  canRevokeAll: boolean;
  canCreateNamespace: boolean;
  currentUserEmail: string;
  /** From `?scopes=`: the generate dialog opens with these scopes filled in. */
  initialScopes?: string;
  /** From `?generate`: the page opens with the generate dialog (the getting-started checklist's link). */
  openGenerate?: boolean;
}) {
  const [creating, setCreating] = useState(props.initialScopes !== undefined || props.openGenerate === true);
  const [created, setCreated] = useState<{ name: string; secret: string }>();
  const [editing, setEditing] = useState<KeyRow>();
  const [revoking, setRevoking] = useState<KeyRow>();
  const [message, setMessage] = useState<{ tone: "error" | "success"; text: string }>();

  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="text-2xl font-semibold">API keys</h1>
          <p className="mt-1 max-w-2xl text-sm text-slate-600">
            Applications call the API with a key. <strong>To rotate a key</strong>: generate a new one, switch your
            application to it, then revoke the old one.
          </p>
        </div>
        <Button
          onClick={() => {
            setCreating(true);
            setMessage(undefined);
          }}
        >
          Generate key
        </Button>
      </div>
      {message && <Notice tone={message.tone}>{message.text}</Notice>}

      {props.keys.length === 0 ? (
        <Card title="No keys yet">
          <p className="text-sm text-slate-600">Generate a key to let an application remember and recall.</p>
        </Card>
      ) : (
        <KeysTable
          keys={props.keys}
          mayChange={(key) => props.canRevokeAll || key.createdBy === props.currentUserEmail}
          onEdit={(key) => {
            setMessage(undefined);
            setEditing(key);
          }}
          onRevoke={setRevoking}
        />
      )}

      {creating && (
        <CreateKeyForm
          orgSlug={props.orgSlug}
          namespaces={props.namespaces}
          allowedPermissions={props.allowedPermissions}
          canCreateNamespace={props.canCreateNamespace}
          initialScopes={props.initialScopes}
          onCreated={(key) => {
            setCreating(false);
            setCreated(key);
          }}
          onCancel={() => setCreating(false)}
        />
      )}
      {created && <NewKeyDialog name={created.name} secret={created.secret} onClose={() => setCreated(undefined)} />}
      {editing && (
        <EditKeyDialog
          orgSlug={props.orgSlug}
          apiKey={editing}
          namespaces={props.namespaces}
          allowedPermissions={props.allowedPermissions}
          canCreateNamespace={props.canCreateNamespace}
          onCancel={() => setEditing(undefined)}
          onDone={(text) => {
            setEditing(undefined);
            setMessage({ tone: "success", text });
          }}
        />
      )}
      {revoking && (
        <RevokeKeyDialog
          orgSlug={props.orgSlug}
          apiKey={revoking}
          onCancel={() => setRevoking(undefined)}
          onDone={(error) => {
            setRevoking(undefined);
            if (error) setMessage({ tone: "error", text: error });
          }}
        />
      )}
    </div>
  );
}
