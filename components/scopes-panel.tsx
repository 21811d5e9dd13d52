"use client";
// The scopes page: the scope pairs in use (memories per namespace, keys bound), and each key's scopes,
// which can be edited here (the same editApiKey as the keys page).
import Link from "next/link";
import { useState } from "react";
import { formatScopePairs, parseScopeText } from "@/lib/auth/scopes";
import { editApiKey } from "@/lib/console/actions/keys";
import { useActionForm } from "./action-form";
import { Dialog } from "./dialog";
import { permissionWords } from "./key-access-fields";
import { Button, EmptyState, Field, Input, Notice, PageHeader, Table } from "./ui";

interface PairRow {
  name: string;
  value: string;
  memories: number;
  namespaces: { id: string; name: string; memories: number }[];
  keys: { id: string; name: string; display: string }[];
}
interface ScopedKey {
  id: string;
  name: string;
  display: string;
  permissions: string[];
  scopes: Record<string, string>;
  editable: boolean;
}

const linkStyle = "font-medium text-indigo-600 hover:underline";

export function ScopesPanel(props: { orgSlug: string; pairs: PairRow[]; keys: ScopedKey[] }) {
  const [editing, setEditing] = useState<ScopedKey>();
  const [message, setMessage] = useState<string>();
  const newKeyHref = (scopes = "") => `/${props.orgSlug}/keys?scopes=${encodeURIComponent(scopes)}`;

  return (
    <div className="space-y-6">
      <PageHeader
        title="Scopes"
        description={
          <>
            A scope is a <code>key=value</code> pair on a memory, like <code>team=sales</code>. A key bound to scopes
            sees only the memories carrying all of its pairs, and tags what it remembers with them: one namespace can
            then serve several teams, customers or apps, each seeing only its own.
          </>
        }
        actions={
          <Link href={newKeyHref()} className="rounded-md bg-indigo-600 px-4 py-2 text-sm font-medium text-white">
            Create a key with scopes
          </Link>
        }
      />
      {message && <Notice tone="success">{message}</Notice>}

      {props.pairs.length === 0 ? (
        <EmptyState title="No scopes in use yet">
          <p>
            Memories get scopes when they are remembered with <code>{'"scopes": {"team": "sales"}'}</code>, or through a
            key bound to scopes. Bind a key to scopes when you create it, or add them to an existing key below.
          </p>
        </EmptyState>
      ) : (
        <section aria-labelledby="pairs-heading" className="space-y-2">
          <h2 id="pairs-heading" className="text-base font-semibold">
            Scope pairs in use
          </h2>
          <Table columns={["Scope", "Memories", "Per namespace", "Keys bound to it", ""]} stacked>
            {props.pairs.map((pair) => (
              <tr key={`${pair.name}=${pair.value}`} data-testid="scope-row">
                <td className="whitespace-nowrap px-4 py-2 font-mono text-xs">
                  {pair.name}={pair.value}
                </td>
                <td className="px-4 py-2 tabular-nums" data-label="Memories">
                  {pair.memories}
                </td>
                <td className="px-4 py-2 text-xs" data-label="Per namespace">
                  {pair.namespaces.length === 0 ? (
                    "—"
                  ) : (
                    <ul>
                      {pair.namespaces.map((ns) => (
                        <li key={ns.id} className="whitespace-nowrap">
                          <Link className={linkStyle} href={`/${props.orgSlug}/namespaces/${ns.id}`}>
                            {ns.name}
                          </Link>
                          : {ns.memories}
                        </li>
                      ))}
                    </ul>
                  )}
                </td>
                <td className="px-4 py-2 text-xs" data-label="Keys bound to it">
                  {pair.keys.map((key) => key.name).join(", ") || "—"}
                </td>
                <td className="whitespace-nowrap px-4 py-2 text-right text-xs">
                  <Link className={linkStyle} href={newKeyHref(`${pair.name}=${pair.value}`)}>
                    New key with this scope
                  </Link>
                </td>
              </tr>
            ))}
          </Table>
        </section>
      )}

      <section aria-labelledby="keys-heading" className="space-y-2">
        <h2 id="keys-heading" className="text-base font-semibold">
          Scopes of each key
        </h2>
        {props.keys.length === 0 ? (
          <p className="text-sm text-slate-600">
            No active keys.{" "}
            <Link className={linkStyle} href={newKeyHref()}>
              Create a key with scopes
            </Link>
            .
          </p>
        ) : (
          <Table columns={["Key", "Permissions", "Scopes", ""]} stacked>
            {props.keys.map((key) => (
              <tr key={key.id} data-testid="scoped-key-row">
                <td className="px-4 py-2">
                  <div className="max-w-56 truncate font-medium" title={key.name}>
                    {key.name}
                  </div>
                  <div className="whitespace-nowrap font-mono text-xs text-slate-500">{key.display}</div>
                </td>
                <td className="whitespace-nowrap px-4 py-2 text-xs" data-label="Permissions">
                  {permissionWords(key.permissions)}
                </td>
                <td className="px-4 py-2 font-mono text-xs" data-label="Scopes">
                  {formatScopePairs(key.scopes) || "none: sees every memory"}
                </td>
                <td className="whitespace-nowrap px-4 py-2 text-right">
                  {key.editable && (
                    <Button
                      variant="secondary"
                      onClick={() => {
                        setMessage(undefined);
                        setEditing(key);
                      }}
                    >
                      Edit scopes
                    </Button>
                  )}
                </td>
              </tr>
            ))}
          </Table>
        )}
      </section>

      {editing && (
        <EditScopesDialog
          orgSlug={props.orgSlug}
          apiKey={editing}
          onCancel={() => setEditing(undefined)}
          onDone={(text) => {
            setEditing(undefined);
            setMessage(text);
          }}
        />
      )}
    </div>
  );
}

/** Adds and removes a key's scope pairs; saved with editApiKey (scopes only), effective on its next request. */
function EditScopesDialog(props: {
  orgSlug: string;
  apiKey: ScopedKey;
  onCancel: () => void;
  onDone: (message: string) => void;
}) {
  const [pairs, setPairs] = useState<[string, string][]>(Object.entries(props.apiKey.scopes));
  const [adding, setAdding] = useState("");
  /** A pair typed that does not parse (checked here, before anything is saved). */
  const [addError, setAddError] = useState<string>();
  const form = useActionForm(
    (_: undefined) => editApiKey(props.orgSlug, { key_id: props.apiKey.id, scopes: Object.fromEntries(pairs) }),
    {
      onSuccess: () => props.onDone(`Scopes of “${props.apiKey.name}” saved: its next request already runs with them.`),
    },
  );
  const error = addError ?? Object.values(form.fields)[0] ?? form.error;

  function add() {
    const parsed = parseScopeText(adding);
    if ("error" in parsed) return setAddError(parsed.error);
    const added = Object.entries(parsed.scopes);
    setPairs((list) => [...list.filter(([name]) => !(name in parsed.scopes)), ...added]);
    setAdding("");
    setAddError(undefined);
  }

  function save() {
    setAddError(undefined);
    form.run();
  }

  return (
    <Dialog title={`Scopes of “${props.apiKey.name}”`} onClose={props.onCancel}>
      <div className="space-y-4 text-sm">
        {pairs.length === 0 ? (
          <p className="text-slate-600">No scopes: this key sees every memory of its namespaces.</p>
        ) : (
          <ul className="flex flex-wrap gap-2" aria-label="Scopes">
            {pairs.map(([name, value]) => (
              <li
                key={name}
                className="inline-flex items-center gap-1 rounded-full bg-slate-100 py-1 pl-3 pr-1 font-mono text-xs"
              >
                {name}={value}
                <button
                  type="button"
                  aria-label={`Remove ${name}=${value}`}
                  className="rounded-full px-2 text-slate-500 hover:bg-slate-200 hover:text-slate-900"
                  onClick={() => setPairs((list) => list.filter(([n]) => n !== name))}
                >
                  ×
                </button>
              </li>
            ))}
          </ul>
        )}
        <div className="flex flex-wrap items-end gap-2">
          <div className="min-w-48 flex-1">
            <Field label="Add a scope">
              <Input
                value={adding}
                placeholder="team=sales"
                onChange={(event) => setAdding(event.target.value)}
                onKeyDown={(event) => {
                  if (event.key === "Enter") {
                    event.preventDefault();
                    add();
                  }
                }}
              />
            </Field>
          </div>
          <Button type="button" variant="secondary" disabled={!adding.trim()} onClick={add}>
            Add
          </Button>
        </div>
        <p className="-mt-2 text-xs text-slate-500">key=value; a pair with the same key replaces it.</p>
        {error && <Notice tone="error">{error}</Notice>}
      </div>
      <div className="mt-5 flex justify-end gap-2">
        <Button variant="secondary" onClick={props.onCancel}>
          Cancel
        </Button>
        <Button disabled={form.pending} onClick={save}>
          {form.pending ? "Saving…" : "Save scopes"}
        </Button>
      </div>
    </Dialog>
  );
}
