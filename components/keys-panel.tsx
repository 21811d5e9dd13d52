"use client";
// The API keys page: the create form, the table, and the two dialogs (the new secret, revoking), each
// holding its own state; the panel holds only which of them is open.
import { useState } from "react";
import { CreateKeyForm } from "./create-key-form";
import { KeysTable, type KeyRow } from "./keys-table";
import { NewKeyDialog } from "./new-key-dialog";
import { RevokeKeyDialog } from "./revoke-key-dialog";
import { Button, Card, Notice } from "./ui";

export function KeysPanel(props: {
  orgSlug: string;
  keys: KeyRow[];
  namespaces: { id: string; name: string }[];
  allowedPermissions: string[];
  canRevokeAll: boolean;
  currentUserEmail: string;
}) {
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<{ name: string; secret: string }>();
  const [revoking, setRevoking] = useState<KeyRow>();
  const [revokeError, setRevokeError] = useState<string>();

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
            setRevokeError(undefined);
          }}
        >
          Generate key
        </Button>
      </div>
      {revokeError && !creating && <Notice tone="error">{revokeError}</Notice>}

      {creating && (
        <CreateKeyForm
          orgSlug={props.orgSlug}
          namespaces={props.namespaces}
          allowedPermissions={props.allowedPermissions}
          onCreated={(key) => {
            setCreating(false);
            setCreated(key);
          }}
          onCancel={() => setCreating(false)}
        />
      )}

      {props.keys.length === 0 ? (
        <Card title="No keys yet">
          <p className="text-sm text-slate-600">Generate a key to let an application remember and recall.</p>
        </Card>
      ) : (
        <KeysTable
          keys={props.keys}
          mayRevoke={(key) => props.canRevokeAll || key.createdBy === props.currentUserEmail}
          onRevoke={setRevoking}
        />
      )}

      {created && <NewKeyDialog name={created.name} secret={created.secret} onClose={() => setCreated(undefined)} />}
      {revoking && (
        <RevokeKeyDialog
          orgSlug={props.orgSlug}
          apiKey={revoking}
          onCancel={() => setRevoking(undefined)}
          onDone={(error) => {
            setRevoking(undefined);
            setRevokeError(error);
          }}
        />
      )}
    </div>
  );
}
