// The pieces of the webhooks pages shown on the server: an endpoint's state, what it receives, its secret's
// hint, why it was disabled or is paused (its circuit); a delivery's status.
import type { ReactNode } from "react";
import type { KeyName } from "@/lib/auth/api-keys/key-names";
import type { DeliveryJson, WebhookEndpointJson } from "@/lib/events/webhooks/schemas";
import { DateTime } from "./date-time";

/** Ids and URLs have no word boundaries: they alone may break anywhere to fit. */
export const TOKEN = "font-mono text-xs [overflow-wrap:anywhere]";

export function webhooksPath(orgSlug: string, endpointId?: string): string {
  return endpointId ? `/${orgSlug}/webhooks/${endpointId}` : `/${orgSlug}/webhooks`;
}

export function EndpointStatusBadge({ enabled }: { enabled: boolean }) {
  return (
    <span
      data-testid="webhook-status"
      className={
        "shrink-0 rounded-full px-2 py-0.5 text-xs font-medium " +
        (enabled ? "bg-emerald-50 text-emerald-800" : "bg-rose-50 text-rose-800")
      }
    >
      {enabled ? "enabled" : "disabled"}
    </span>
  );
}

const DELIVERY_STYLES: Record<DeliveryJson["status"], string> = {
  pending: "bg-amber-50 text-amber-800",
  delivered: "bg-emerald-50 text-emerald-800",
  failed: "bg-rose-50 text-rose-800",
};

export function DeliveryStatusBadge({ status }: { status: DeliveryJson["status"] }) {
  return (
    <span
      data-testid="delivery-status"
      className={`rounded-full px-2 py-0.5 text-xs font-medium ${DELIVERY_STYLES[status]}`}
    >
      {status}
    </span>
  );
}

/** Why a disabled endpoint receives nothing, and when it stopped: the first thing its card says. */
export function DisabledReason({ endpoint }: { endpoint: WebhookEndpointJson }) {
  if (endpoint.enabled) return null;
  return (
    <div
      data-testid="webhook-disabled-reason"
      className="rounded-md border border-rose-200 bg-rose-50 px-3 py-2 text-sm text-rose-900"
    >
      <p>
        <span className="font-medium">Disabled</span>
        {endpoint.disabled_at && (
          <>
            {" "}
            on <DateTime value={endpoint.disabled_at} seconds />
          </>
        )}
        : <span className="[overflow-wrap:anywhere]">{endpoint.disabled_reason ?? "no reason was recorded."}</span>
      </p>
      <p className="mt-1 text-xs text-rose-800">
        Changes made while it is disabled are not sent to it; deliveries still waiting when it stopped go out once it is
        enabled again. If its receiver failed, fix it first (send a test to check).
      </p>
    </div>
  );
}

/**
 * An enabled endpoint whose circuit is open or waits for its trial (lib/events/webhooks/endpoint-circuit.ts):
 * its recent attempts got no answer, so its deliveries wait instead of being sent.
 */
export function CircuitNotice({ endpoint }: { endpoint: WebhookEndpointJson }) {
  if (!endpoint.enabled || endpoint.circuit_state === "closed") return null;
  return (
    <div
      data-testid="webhook-circuit"
      className="rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900"
    >
      <p>
        <span className="font-medium">Paused</span>:{" "}
        {endpoint.consecutive_failures === 1
          ? "its last attempt"
          : `its last ${endpoint.consecutive_failures} attempts`}{" "}
        got no answer (timed out, or no connection).{" "}
        {endpoint.circuit_state === "open" && endpoint.circuit_open_until ? (
          <>
            Deliveries wait until <DateTime value={endpoint.circuit_open_until} seconds />; then one is sent alone.
          </>
        ) : (
          <>The next delivery is sent alone, as a trial.</>
        )}
      </p>
      <p className="mt-1 text-xs text-amber-800">
        Once the receiver answers, the waiting deliveries go out in order. If it keeps failing, the endpoint is disabled
        when its oldest delivery has used every retry. A test that is answered, a new URL or enabling it again closes
        the circuit at once.
      </p>
    </div>
  );
}

/**
 * What the endpoint receives and how it signs, as labelled lines. `namespaceNames` names the namespaces of its
 * filter (one deleted since is shown by its id).
 */
/** `keyNames`: the key an endpoint was made with, by id (`apiKeyNames`), shown by its name. */
export function EndpointSummary({
  endpoint,
  namespaceNames,
  keyNames,
}: {
  endpoint: WebhookEndpointJson;
  namespaceNames: Record<string, string>;
  keyNames: Record<string, KeyName>;
}) {
  const madeWith = endpoint.created_by_api_key_id ? keyNames[endpoint.created_by_api_key_id] : undefined;
  return (
    <dl className="grid grid-cols-1 gap-x-4 gap-y-2 text-sm sm:grid-cols-[9rem_minmax(0,1fr)]">
      <Line label="Events">
        {endpoint.event_types.length === 0 ? (
          "All types"
        ) : (
          <TokenList testId="webhook-event-types" items={endpoint.event_types} />
        )}
      </Line>
      <Line label="Namespaces">
        {endpoint.namespace_ids.length === 0 ? (
          "All namespaces, and the organization's own events"
        ) : (
          <ul className="flex flex-wrap gap-x-3 gap-y-0.5" data-testid="webhook-namespaces">
            {endpoint.namespace_ids.map((id) => (
              <li key={id} className="min-w-0 [overflow-wrap:anywhere]">
                {namespaceNames[id] ?? <span className={`${TOKEN} text-slate-500`}>{id} (deleted)</span>}
              </li>
            ))}
          </ul>
        )}
      </Line>
      <Line label="Content">
        {endpoint.include_content ? "Memory events carry the memory's content" : "Ids only, never content"}
      </Line>
      <Line label="Signing secret">
        <code data-testid="webhook-secret-hint" className={TOKEN}>
          {endpoint.secret_hint}
        </code>
        {endpoint.previous_secret_expires_at && (
          <span className="block text-xs text-slate-600">
            The previous secret also signs until <DateTime value={endpoint.previous_secret_expires_at} />.
          </span>
        )}
      </Line>
      {endpoint.created_by_api_key_id && (
        <Line label="Made with">
          API key{" "}
          {madeWith ? (
            <span data-testid="webhook-made-with">
              <span className="font-medium [overflow-wrap:anywhere]">{madeWith.name}</span>{" "}
              <code className={`${TOKEN} text-slate-500`}>{madeWith.display}</code>
              {madeWith.revoked && " (revoked)"}
            </span>
          ) : (
            <code className={TOKEN}>{endpoint.created_by_api_key_id}</code>
          )}
          <span className="block text-xs text-slate-600">It receives only what that key may read.</span>
        </Line>
      )}
      <Line label="Created">
        <DateTime value={endpoint.created_at} />
      </Line>
    </dl>
  );
}

function Line({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="contents">
      <dt className="font-medium text-slate-600">{label}</dt>
      <dd className="min-w-0 text-slate-800">{children}</dd>
    </div>
  );
}

function TokenList({ items, testId }: { items: readonly string[]; testId: string }) {
  return (
    <ul className="flex flex-wrap gap-1" data-testid={testId}>
      {items.map((item) => (
        <li key={item}>
          <code className="rounded bg-slate-100 px-1.5 py-0.5 font-mono text-xs">{item}</code>
        </li>
      ))}
    </ul>
  );
}
