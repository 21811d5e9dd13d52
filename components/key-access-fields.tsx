"use client";
// What a key may do and reach, for the "Generate a key" and "Edit key" dialogs: a preset of permissions
// (or custom ones), the namespaces it is granted (owners and admins can create one here), its scopes.
import { useState } from "react";
import { scopesForbidManage } from "@/lib/auth/api-keys/scoped-key-rule";
import type { Permission } from "@/lib/auth/permissions";
import { PERMISSION_LABELS } from "@/lib/auth/permissions";
import { parseScopeText } from "@/lib/auth/scopes";
import { createNamespaceForKey } from "@/lib/console/actions/keys";
import { useActionForm } from "./action-form";
import { Button, Checkbox, Field, Input, type FieldErrors } from "./ui";

/** The dialog's state: permissions, the chosen namespaces' ids, the scopes as typed ("team=sales, region=eu"). */
export interface KeyAccess {
  permissions: Permission[];
  namespaceIds: string[];
  scopes: string;
}

type PresetId = "read_write" | "read_only" | "full" | "custom";

const PERMISSION_HINTS: Record<Permission, string> = {
  NAMESPACE_READ: "recall, ask, list its namespaces",
  NAMESPACE_WRITE: "remember, forget",
  NAMESPACE_MANAGE: "manage namespaces: create, rename, delete, grant access",
  INTEGRATION_MANAGE: "manage integrations",
  WEBHOOK_MANAGE: "manage webhook endpoints",
};

function presets(
  allowed: readonly Permission[],
): { id: PresetId; label: string; hint: string; permissions?: Permission[] }[] {
  const list: { id: PresetId; label: string; hint: string; permissions?: Permission[] }[] = [
    {
      id: "read_write",
      label: "Read and write",
      hint: "Remember and recall in the namespaces below. What most applications need.",
      permissions: ["NAMESPACE_READ", "NAMESPACE_WRITE"],
    },
    { id: "read_only", label: "Read only", hint: "Recall and ask, never change.", permissions: ["NAMESPACE_READ"] },
  ];
  if (allowed.includes("NAMESPACE_MANAGE")) {
    list.push({
      id: "full",
      label: "Full access",
      hint: "Every permission: also create namespaces and manage who may use them. Not with scopes.",
      permissions: [...allowed],
    });
  }
  list.push({ id: "custom", label: "Custom", hint: "Choose the permissions one by one." });
  return list;
}

const sameSet = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((x) => b.includes(x));

/** The preset a key's permissions match, or "custom". */
export function presetOf(permissions: readonly Permission[], allowed: readonly Permission[]): PresetId {
  const match = presets(allowed).find((preset) => preset.permissions && sameSet(preset.permissions, permissions));
  return match?.id ?? "custom";
}

/**
 * Why the server would refuse this access, checked before anything is sent (the server's own rule), or
 * undefined. Scopes that do not parse are the scopes field's own error, shown on submit.
 */
export function keyAccessConflict(access: KeyAccess): string | undefined {
  const parsed = parseScopeText(access.scopes);
  if ("error" in parsed || !scopesForbidManage(access.permissions, parsed.scopes)) return undefined;
  return (
    "A key with scopes cannot manage namespaces (Full access, or Manage namespaces): managing a namespace " +
    "reaches beyond any scope. Remove the scopes, or choose Read and write or Read only."
  );
}

/** A key's permissions in the console's words: "read, write". */
export function permissionWords(permissions: readonly string[]): string {
  return permissions.map((permission) => PERMISSION_LABELS[permission as Permission] ?? permission).join(", ");
}

export function KeyAccessFields(props: {
  orgSlug: string;
  value: KeyAccess;
  onChange: (value: KeyAccess) => void;
  allowedPermissions: Permission[];
  namespaces: { id: string; name: string }[];
  /** Owners and admins: a namespace can be created here, and comes back selected. */
  canCreateNamespace: boolean;
  errors: FieldErrors;
}) {
  const { value, onChange } = props;
  const conflict = keyAccessConflict(value);
  const [preset, setPreset] = useState<PresetId>(() => presetOf(value.permissions, props.allowedPermissions));
  const [created, setCreated] = useState<{ id: string; name: string }[]>([]);
  const namespaces = [...props.namespaces, ...created.filter((ns) => !props.namespaces.some((p) => p.id === ns.id))];

  function choosePreset(id: PresetId) {
    setPreset(id);
    const chosen = presets(props.allowedPermissions).find((p) => p.id === id);
    if (chosen?.permissions) onChange({ ...value, permissions: chosen.permissions });
  }
  const toggle = <T extends string>(list: T[], item: T, on: boolean) =>
    on ? [...list.filter((x) => x !== item), item] : list.filter((x) => x !== item);

  return (
    <div className="space-y-4">
      <fieldset className="text-sm">
        <legend className="font-medium text-slate-700">
          What it may do <span className="font-normal text-slate-500">(never more than your role allows)</span>
        </legend>
        <div className="mt-2 grid gap-2 sm:grid-cols-2">
          {presets(props.allowedPermissions).map((option) => (
            <label
              key={option.id}
              className={
                "flex cursor-pointer gap-2 rounded-md border px-3 py-2 " +
                (preset === option.id ? "border-indigo-500 bg-indigo-50" : "border-slate-200")
              }
            >
              <input
                type="radio"
                name="preset"
                value={option.id}
                checked={preset === option.id}
                onChange={() => choosePreset(option.id)}
                className="mt-0.5"
              />
              <span>
                <span className="block font-medium">{option.label}</span>
                <span className="block text-xs text-slate-600">{option.hint}</span>
              </span>
            </label>
          ))}
        </div>
        {preset === "custom" && (
          <div className="mt-3 grid gap-2 sm:grid-cols-2" data-testid="custom-permissions">
            {props.allowedPermissions.map((permission) => (
              <label key={permission} className="flex items-start gap-2">
                <Checkbox
                  className="mt-0.5"
                  checked={value.permissions.includes(permission)}
                  onCheckedChange={(checked) =>
                    onChange({ ...value, permissions: toggle(value.permissions, permission, checked === true) })
                  }
                />
                <span>
                  <strong className="font-medium">{PERMISSION_LABELS[permission]}</strong>
                  <span className="text-slate-500"> — {PERMISSION_HINTS[permission]}</span>
                </span>
              </label>
            ))}
          </div>
        )}
        {props.errors.permissions && (
          <p className="mt-1 text-xs text-rose-600" role="alert">
            {props.errors.permissions}
          </p>
        )}
      </fieldset>

      <fieldset className="text-sm">
        <legend className="font-medium text-slate-700">Namespaces it may use</legend>
        {namespaces.length > 0 && (
          <div className="mt-2 grid max-h-24 gap-2 overflow-y-auto sm:grid-cols-3">
            {namespaces.map((ns) => (
              <label key={ns.id} className="flex min-w-0 items-center gap-2">
                <Checkbox
                  checked={value.namespaceIds.includes(ns.id)}
                  onCheckedChange={(checked) =>
                    onChange({ ...value, namespaceIds: toggle(value.namespaceIds, ns.id, checked === true) })
                  }
                />
                <span className="truncate" title={ns.name}>
                  {ns.name}
                </span>
              </label>
            ))}
          </div>
        )}
        {value.namespaceIds.length === 0 && (
          // One compact line: the dialog fits a laptop's height with many namespaces listed above it.
          <p className="mt-2 rounded-md bg-sky-50 px-3 py-1.5 text-xs text-sky-900" role="status">
            {namespaces.length === 0 ? "There are no namespaces yet. " : "No namespace chosen. "}
            <strong>This key will reach no namespace</strong> until one is granted to it
            {value.permissions.includes("NAMESPACE_MANAGE") ? " (or it creates one, which it is granted)" : ""}
            {props.canCreateNamespace
              ? ": choose or create one here, or grant one later."
              : namespaces.length === 0
                ? ": ask an owner or admin to grant you a namespace first."
                : ": choose one above, or grant one later."}
          </p>
        )}
        {props.errors.namespace_ids && (
          <p className="mt-1 text-xs text-rose-600" role="alert">
            {props.errors.namespace_ids}
          </p>
        )}
        {props.canCreateNamespace && (
          <NewNamespace
            orgSlug={props.orgSlug}
            onCreated={(ns) => {
              setCreated((list) => [...list, ns]);
              onChange({ ...value, namespaceIds: [...value.namespaceIds, ns.id] });
            }}
          />
        )}
      </fieldset>

      <Field
        label="Scopes (optional)"
        error={props.errors.scopes ?? conflict}
        hint={
          "key=value pairs, comma-separated: the key sees only memories carrying all of them, " +
          "and tags what it remembers with them."
        }
      >
        <Input
          name="scopes"
          placeholder="team=sales, region=eu"
          value={value.scopes}
          onChange={(event) => onChange({ ...value, scopes: event.target.value })}
        />
      </Field>
    </div>
  );
}

/** "Create a namespace" inside the key dialog (not a nested form: the dialog's own form must not submit). */
function NewNamespace(props: { orgSlug: string; onCreated: (ns: { id: string; name: string }) => void }) {
  const [name, setName] = useState("");
  const form = useActionForm((_: undefined) => createNamespaceForKey(props.orgSlug, { name }), {
    onSuccess: (created) => {
      setName("");
      props.onCreated(created);
    },
  });
  const error = form.fields.name ?? form.error;
  const busy = form.pending;
  const create = () => form.run();
  return (
    <div className="mt-2 flex flex-wrap items-start gap-2">
      <div className="min-w-48 flex-1">
        {/* Named by its label for assistive technology; on screen the placeholder and the button say what it is. */}
        <Field label="New namespace" error={error} srOnlyLabel>
          <Input
            value={name}
            placeholder="New namespace, e.g. support-tickets"
            onChange={(event) => setName(event.target.value)}
            onKeyDown={(event) => {
              if (event.key === "Enter") {
                event.preventDefault();
                if (name.trim()) create();
              }
            }}
          />
        </Field>
      </div>
      <Button type="button" variant="secondary" disabled={busy || !name.trim()} onClick={create}>
        {busy ? "Creating…" : "Create namespace"}
      </Button>
    </div>
  );
}
