"use client";
// The integrations page's providers: what each syncs and asks for, "Connect" (a dialog choosing the
// namespace and what to read, then the provider's consent page) and, for owners, the organization's own
// OAuth client. The client secret is write-only: the page only ever learns whether one is set.
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState, type ReactNode } from "react";
import {
  connectIntegrationAction,
  removeIntegrationClientAction,
  saveIntegrationClientAction,
} from "@/lib/console/actions/integrations";
import type { ProviderId } from "@/lib/integrations/provider";
import { messageAbove, useActionForm } from "./action-form";
import { ConfirmDialog } from "./confirm-dialog";
import { Dialog } from "./dialog";
import { Button, Field, Input, Notice, Select, Textarea, type FieldErrors } from "./ui";

export interface ProviderCardData {
  id: ProviderId;
  name: string;
  syncs: string;
  scopes: string[];
  configured: boolean;
  /** "organization", "deployment", or null when neither has an OAuth client. */
  configuredBy: string | null;
  /** The organization's own client, when an owner set one (the secret is never sent to the page). */
  organizationClientId: string | null;
  /** The deployment's settings that configure this provider, e.g. GITHUB_CLIENT_ID. */
  settingsPrefix: string;
}

export interface NamespaceChoice {
  id: string;
  name: string;
}

export function IntegrationProviders(props: {
  orgSlug: string;
  isOwner: boolean;
  providers: ProviderCardData[];
  namespaces: NamespaceChoice[];
  /** The browser callback the provider sends people back to: what an OAuth client must register. */
  callbackUrl: string;
}) {
  const [connecting, setConnecting] = useState<ProviderCardData>();
  return (
    <>
      <ul className="grid grid-cols-1 gap-4 lg:grid-cols-2" aria-label="Providers">
        {props.providers.map((provider) => (
          <li key={provider.id}>
            <ProviderCard
              orgSlug={props.orgSlug}
              provider={provider}
              isOwner={props.isOwner}
              callbackUrl={props.callbackUrl}
              onConnect={() => setConnecting(provider)}
            />
          </li>
        ))}
      </ul>
      {connecting && (
        <ConnectDialog
          orgSlug={props.orgSlug}
          provider={connecting}
          namespaces={props.namespaces}
          onClose={() => setConnecting(undefined)}
        />
      )}
    </>
  );
}

function ProviderCard(props: {
  orgSlug: string;
  provider: ProviderCardData;
  isOwner: boolean;
  callbackUrl: string;
  onConnect: () => void;
}) {
  const { provider } = props;
  const reason = provider.configured
    ? undefined
    : `No OAuth client: set ${provider.settingsPrefix}_CLIENT_ID and ${provider.settingsPrefix}_CLIENT_SECRET` +
      (props.isOwner ? ", or add your organization's below." : ", or ask an owner to add the organization's.");
  return (
    <section
      aria-labelledby={`provider-${provider.id}`}
      data-testid={`provider-${provider.id}`}
      className="flex h-full flex-col rounded-lg border border-slate-200 bg-white shadow-sm"
    >
      <div className="flex flex-1 flex-col gap-3 px-5 py-4">
        <div className="flex flex-wrap items-start justify-between gap-2">
          <h3 id={`provider-${provider.id}`} className="text-base font-semibold">
            {provider.name}
          </h3>
          <ConfiguredBadge provider={provider} />
        </div>
        <p className="text-sm text-slate-700">{provider.syncs}.</p>
        <div className="text-xs text-slate-600">
          <span className="font-medium">Asks for: </span>
          {provider.scopes.length === 0 ? (
            "the pages you choose on its consent page"
          ) : (
            <span className="inline-flex flex-wrap gap-1 align-middle">
              {provider.scopes.map((scope) => (
                <code key={scope} className="break-all rounded bg-slate-100 px-1.5 py-0.5 font-mono">
                  {scope}
                </code>
              ))}
            </span>
          )}
        </div>
        <div className="mt-auto space-y-2 pt-1">
          <Button
            onClick={props.onConnect}
            disabled={!provider.configured}
            aria-describedby={reason && `${provider.id}-why`}
          >
            Connect {provider.name}
          </Button>
          {reason && (
            <p id={`${provider.id}-why`} className="text-xs text-amber-800">
              {reason}
            </p>
          )}
        </div>
      </div>
      {props.isOwner && (
        <OrganizationClientForm orgSlug={props.orgSlug} provider={provider} callbackUrl={props.callbackUrl} />
      )}
    </section>
  );
}

function ConfiguredBadge({ provider }: { provider: ProviderCardData }) {
  const [text, tone] =
    provider.configuredBy === "organization"
      ? ["Your organization's OAuth client", "bg-emerald-50 text-emerald-800"]
      : provider.configuredBy === "deployment"
        ? ["Configured by this deployment", "bg-emerald-50 text-emerald-800"]
        : ["Not configured", "bg-slate-100 text-slate-600"];
  return <span className={`rounded-full px-2 py-0.5 text-xs font-medium ${tone}`}>{text}</span>;
}

/** Owners only: the organization's own OAuth app for this provider, used instead of the deployment's. */
function OrganizationClientForm(props: { orgSlug: string; provider: ProviderCardData; callbackUrl: string }) {
  const router = useRouter();
  const { provider } = props;
  const secretSet = provider.organizationClientId !== null;
  const [removed, setRemoved] = useState(false);
  const [removing, setRemoving] = useState(false);
  const form = useActionForm(
    (data: FormData) => {
      setRemoved(false);
      return saveIntegrationClientAction(props.orgSlug, {
        provider: provider.id,
        client_id: String(data.get("client_id") ?? "").trim(),
        client_secret: String(data.get("client_secret") ?? ""),
      });
    },
    { onSuccess: () => router.refresh() },
  );
  const errors = form.fields;
  const message = removed
    ? { tone: "success" as const, text: `The organization's ${provider.name} OAuth client is removed.` }
    : form.error
      ? { tone: "error" as const, text: form.error }
      : form.data && { tone: "success" as const, text: `The organization's ${provider.name} OAuth client is saved.` };

  return (
    <details className="border-t border-slate-100 px-5 py-3 text-sm">
      <summary className="cursor-pointer font-medium text-slate-700">
        Organization OAuth client
        {secretSet && (
          <span className="ml-2 rounded-full bg-indigo-50 px-2 py-0.5 text-xs font-medium text-indigo-700">
            secret set
          </span>
        )}
      </summary>
      <form action={form.action} onResetCapture={form.keepAfterRefusal} className="mt-3 space-y-3" noValidate>
        <p className="text-xs text-slate-600">
          Register an OAuth app with {provider.name} whose callback (redirect) URL is{" "}
          <code className="break-words font-mono">{props.callbackUrl}</code>, then enter its credentials. They are used
          instead of the deployment&apos;s for this organization; the secret is stored encrypted and never shown again.
        </p>
        <Field label="Client ID" error={errors.client_id}>
          <Input
            name="client_id"
            defaultValue={form.values.client_id ?? provider.organizationClientId ?? ""}
            autoComplete="off"
          />
        </Field>
        <Field
          label="Client secret"
          error={errors.client_secret}
          hint={secretSet ? "A secret is set. Enter it again to change the client." : undefined}
        >
          {/* The secret leaves the page once saved (the field is write-only); a failed save keeps it to retry. */}
          <Input
            name="client_secret"
            type="password"
            autoComplete="new-password"
            defaultValue={form.error ? form.values.client_secret : ""}
          />
        </Field>
        {message && <Notice tone={message.tone}>{message.text}</Notice>}
        <div className="flex flex-wrap gap-2">
          <Button type="submit" disabled={form.pending}>
            Save {provider.name} client
          </Button>
          {secretSet && (
            <Button type="button" variant="secondary" onClick={() => setRemoving(true)}>
              Remove
            </Button>
          )}
        </div>
      </form>
      {removing && (
        <ConfirmDialog
          title={`Remove the organization's ${provider.name} OAuth client?`}
          confirmLabel="Remove client"
          onCancel={() => setRemoving(false)}
          onConfirm={async () => {
            const result = await removeIntegrationClientAction(props.orgSlug, { provider: provider.id });
            return result.ok ? undefined : result.error;
          }}
          onDone={() => {
            setRemoving(false);
            setRemoved(true);
            router.refresh();
          }}
        >
          <p>
            New connections use the deployment&apos;s client, if it has one. Connections made with this client can no
            longer refresh their access and will ask to be connected again.
          </p>
        </ConfirmDialog>
      )}
    </details>
  );
}

/** One line per value, commas allowed too; blanks dropped. */
function listOf(text: string): string[] {
  return text
    .split(/[\n,]/)
    .map((value) => value.trim())
    .filter(Boolean);
}

/** What narrows a provider's sync, as the API's `options` names it; nothing typed is "everything in reach". */
function providerOptions(provider: ProviderId, form: FormData): Record<string, unknown> {
  const field = (name: string) => String(form.get(name) ?? "");
  if (provider === "github") {
    const repositories = listOf(field("repositories"));
    return repositories.length ? { repositories } : {};
  }
  if (provider === "slack") {
    const channels = listOf(field("channels"));
    return channels.length ? { channels } : {};
  }
  if (provider === "google_drive") {
    const folder = field("folder_id").trim();
    return folder ? { folder_id: folder } : {};
  }
  return {};
}

/** The option fields of each provider, named as the API's options so that its field errors land on them. */
function OptionFields({
  provider,
  errors,
  values,
}: {
  provider: ProviderId;
  errors: FieldErrors;
  values: Record<string, string>;
}) {
  const errorOf = (name: string) =>
    errors[`options.${name}`] ??
    Object.entries(errors).find(([field]) => field.startsWith(`options.${name}.`))?.[1] ??
    // An option the provider does not know is the options object's own error.
    errors.options;
  const textarea = (name: string, label: string, hint: ReactNode, placeholder: string) => (
    <Field label={label} error={errorOf(name)} hint={hint}>
      <Textarea name={name} rows={4} placeholder={placeholder} className="font-mono" defaultValue={values[name]} />
    </Field>
  );
  if (provider === "github") {
    return textarea(
      "repositories",
      "Repositories",
      "One owner/name per line. Leave empty for every repository the account can read.",
      "octo-org/handbook",
    );
  }
  if (provider === "slack") {
    return textarea(
      "channels",
      "Channel ids",
      "One channel id per line (in Slack: the channel's details, at the bottom). Leave empty for every channel.",
      "C0123456789",
    );
  }
  if (provider === "google_drive") {
    return (
      <Field
        label="Folder id"
        error={errorOf("folder_id")}
        hint="The last part of the folder's address in Drive. Leave empty for every file the account can read."
      >
        <Input name="folder_id" autoComplete="off" defaultValue={values.folder_id} />
      </Field>
    );
  }
  return (
    <p className="text-sm text-slate-600">
      Notion syncs the pages and databases you share with the integration on its consent page: choose them there.
    </p>
  );
}

function ConnectDialog(props: {
  orgSlug: string;
  provider: ProviderCardData;
  namespaces: NamespaceChoice[];
  onClose: () => void;
}) {
  const { provider, namespaces } = props;
  const form = useActionForm(
    (data: FormData) =>
      connectIntegrationAction(props.orgSlug, {
        provider: provider.id,
        namespace_id: String(data.get("namespace_id") ?? ""),
        options: providerOptions(provider.id, data),
      }),
    {
      // The provider's consent page: it sends the person back to the gateway's callback, then here.
      onSuccess: (connection) => window.location.assign(connection.authorization_url),
    },
  );
  const errors = form.fields;

  return (
    <Dialog title={`Connect ${provider.name}`} onClose={props.onClose}>
      {namespaces.length === 0 ? (
        <div className="space-y-4 text-sm">
          <p>The documents of a connection become memories of one namespace. This organization has none yet.</p>
          <div className="flex justify-end gap-2">
            <Button variant="secondary" onClick={props.onClose}>
              Cancel
            </Button>
            <Link
              href={`/${props.orgSlug}/namespaces`}
              className="rounded-md bg-indigo-600 px-4 py-2 text-sm font-medium text-white hover:bg-indigo-700"
            >
              Create a namespace
            </Link>
          </div>
        </div>
      ) : (
        <form action={form.action} onResetCapture={form.keepAfterRefusal} className="space-y-4" noValidate>
          <p className="text-sm text-slate-600">
            {provider.syncs}. Each document becomes one memory of the namespace, kept up to date by later syncs.
          </p>
          <Field label="Namespace" error={errors.namespace_id}>
            <Select name="namespace_id" defaultValue={form.values.namespace_id ?? namespaces[0].id}>
              {namespaces.map((namespace) => (
                <option key={namespace.id} value={namespace.id}>
                  {namespace.name}
                </option>
              ))}
            </Select>
          </Field>
          <OptionFields provider={provider.id} errors={errors} values={form.values} />
          {messageAbove(form.error, errors, ["namespace_id"]) && <Notice tone="error">{form.error}</Notice>}
          <div className="flex justify-end gap-2">
            <Button type="button" variant="secondary" onClick={props.onClose}>
              Cancel
            </Button>
            <Button type="submit" disabled={form.pending}>
              Continue to {provider.name}
            </Button>
          </div>
        </form>
      )}
    </Dialog>
  );
}
