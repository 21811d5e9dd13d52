"use client";
// "Add endpoint" on the webhooks page: where to send (the URL), what (every event type or some, every
// namespace or some, with or without memories' content), then its signing secret, shown once.
import { useRouter } from "next/navigation";
import { useState, type ReactNode } from "react";
import { createWebhookAction } from "@/lib/console/actions/webhooks";
import { EVENT_TYPES, type EventType } from "@/lib/event-recording/event-types";
import { messageAbove, refuse, useActionForm } from "./action-form";
import { Dialog } from "./dialog";
import { Button, Checkbox, Field, Input, Notice, type FieldErrors } from "./ui";
import { WebhookSecretDialog } from "./webhook-secret-dialog";

export interface NamespaceChoice {
  id: string;
  name: string;
}

/** The button in the page's header, its dialog, and the secret of the endpoint it added. */
export function AddWebhookButton({ orgSlug, namespaces }: { orgSlug: string; namespaces: NamespaceChoice[] }) {
  const router = useRouter();
  const [adding, setAdding] = useState(false);
  const [created, setCreated] = useState<{ url: string; secret: string }>();
  return (
    <>
      <Button onClick={() => setAdding(true)}>Add endpoint</Button>
      {adding && (
        <AddWebhookDialog
          orgSlug={orgSlug}
          namespaces={namespaces}
          onCancel={() => setAdding(false)}
          onCreated={(endpoint) => {
            setAdding(false);
            setCreated(endpoint);
            router.refresh();
          }}
        />
      )}
      {created && (
        <WebhookSecretDialog
          title="Endpoint added"
          url={created.url}
          secret={created.secret}
          onClose={() => setCreated(undefined)}
        />
      )}
    </>
  );
}

const toggle = <T extends string>(list: T[], item: T, on: boolean) =>
  on ? [...list.filter((x) => x !== item), item] : list.filter((x) => x !== item);

/** The first message of a list field's errors (`event_types` or `event_types.3`). */
const listError = (errors: FieldErrors, name: string) =>
  errors[name] ?? Object.entries(errors).find(([field]) => field.startsWith(`${name}.`))?.[1];

function AddWebhookDialog(props: {
  orgSlug: string;
  namespaces: NamespaceChoice[];
  onCancel: () => void;
  onCreated: (endpoint: { url: string; secret: string }) => void;
}) {
  const [someTypes, setSomeTypes] = useState(false);
  const [eventTypes, setEventTypes] = useState<EventType[]>([]);
  const [someNamespaces, setSomeNamespaces] = useState(false);
  const [namespaceIds, setNamespaceIds] = useState<string[]>([]);
  const [includeContent, setIncludeContent] = useState(false);
  const form = useActionForm(
    async (data: FormData) => {
      if (someTypes && eventTypes.length === 0) return refuse({ event_types: "choose at least one type" });
      if (someNamespaces && namespaceIds.length === 0)
        return refuse({ namespace_ids: "choose at least one namespace" });
      const description = String(data.get("description") ?? "").trim();
      return createWebhookAction(props.orgSlug, {
        url: String(data.get("url") ?? "").trim(),
        ...(description && { description }),
        // In the order of the list, whatever the order they were ticked in.
        event_types: someTypes ? EVENT_TYPES.filter((type) => eventTypes.includes(type)) : [],
        namespace_ids: someNamespaces ? namespaceIds : [],
        include_content: includeContent,
      });
    },
    { onSuccess: (created) => props.onCreated({ url: created.endpoint.url, secret: created.secret }) },
  );
  const errors = form.fields;
  const typesError = listError(errors, "event_types");
  const namespacesError = listError(errors, "namespace_ids");
  const notice = messageAbove(form.error, errors, ["url", "description", "event_types", "namespace_ids"]);

  return (
    <Dialog title="Add endpoint" onClose={props.onCancel}>
      <form action={form.action} onResetCapture={form.keepAfterRefusal} className="space-y-4" noValidate>
        <p className="text-sm text-slate-600">
          Each change you choose is POSTed to the URL as it happens, signed with the endpoint&apos;s secret, and retried
          while the receiver fails.
        </p>
        <Field
          label="URL"
          error={errors.url}
          hint={
            "https, on a public address. A receiver on this machine or a private network needs the server " +
            "started with ALLOW_PRIVATE_OUTBOUND=true."
          }
        >
          <Input
            name="url"
            type="url"
            placeholder="https://example.com/hooks/memory"
            autoComplete="off"
            defaultValue={form.values.url}
          />
        </Field>
        <Field label="Description (optional)" error={errors.description} hint="What it is for, for people.">
          <Input name="description" maxLength={500} autoComplete="off" defaultValue={form.values.description} />
        </Field>

        <Choice
          legend="Event types"
          name="event-types-mode"
          every="Every type"
          some={someTypes}
          onSome={setSomeTypes}
          error={typesError}
        >
          <div className="grid gap-x-4 gap-y-1.5 sm:grid-cols-2" data-testid="webhook-type-choices">
            {EVENT_TYPES.map((type) => (
              <label key={type} className="flex min-w-0 items-center gap-2">
                <Checkbox
                  checked={eventTypes.includes(type)}
                  onCheckedChange={(checked) => setEventTypes(toggle(eventTypes, type, checked === true))}
                />
                <code className="font-mono text-xs">{type}</code>
              </label>
            ))}
          </div>
        </Choice>

        <Choice
          legend="Namespaces"
          name="namespaces-mode"
          every="Every namespace, and the organization's own events (keys, connections)"
          some={someNamespaces}
          onSome={setSomeNamespaces}
          error={namespacesError}
        >
          {props.namespaces.length === 0 ? (
            <p className="text-xs text-slate-600">This organization has no namespace yet.</p>
          ) : (
            <div className="grid max-h-48 gap-x-4 gap-y-1.5 overflow-y-auto sm:grid-cols-2">
              {props.namespaces.map((namespace) => (
                <label key={namespace.id} className="flex min-w-0 items-center gap-2">
                  <Checkbox
                    checked={namespaceIds.includes(namespace.id)}
                    onCheckedChange={(checked) => setNamespaceIds(toggle(namespaceIds, namespace.id, checked === true))}
                  />
                  <span className="truncate" title={namespace.name}>
                    {namespace.name}
                  </span>
                </label>
              ))}
            </div>
          )}
        </Choice>

        <label className="flex items-start gap-2 text-sm">
          <Checkbox
            className="mt-0.5"
            checked={includeContent}
            onCheckedChange={(checked) => setIncludeContent(checked === true)}
          />
          <span>
            <span className="font-medium text-slate-700">Include content</span>
            <span className="block text-xs text-slate-600">
              A memory&apos;s events carry its content. Without it they carry ids only: fetch what you need.
            </span>
          </span>
        </label>

        {notice && <Notice tone="error">{notice}</Notice>}
        <div className="flex justify-end gap-2">
          <Button type="button" variant="secondary" onClick={props.onCancel}>
            Cancel
          </Button>
          <Button type="submit" disabled={form.pending}>
            Add endpoint
          </Button>
        </div>
      </form>
    </Dialog>
  );
}

/** "Every …" or "Only these:" with the choices under the second. */
function Choice(props: {
  legend: string;
  name: string;
  every: string;
  some: boolean;
  onSome: (some: boolean) => void;
  error?: string;
  children: ReactNode;
}) {
  return (
    <fieldset className="text-sm">
      <legend className="font-medium text-slate-700">{props.legend}</legend>
      <div className="mt-2 space-y-1.5">
        <label className="flex items-start gap-2">
          <input
            type="radio"
            name={props.name}
            className="mt-1"
            checked={!props.some}
            onChange={() => props.onSome(false)}
          />
          <span>{props.every}</span>
        </label>
        <label className="flex items-start gap-2">
          <input
            type="radio"
            name={props.name}
            className="mt-1"
            checked={props.some}
            onChange={() => props.onSome(true)}
          />
          <span>Only these:</span>
        </label>
      </div>
      {props.some && <div className="mt-2 rounded-md border border-slate-200 p-3">{props.children}</div>}
      {props.error && (
        <p className="mt-1 text-xs text-rose-700" role="alert">
          {props.error}
        </p>
      )}
    </fieldset>
  );
}
