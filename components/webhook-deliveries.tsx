"use client";
// An endpoint's delivery log: each event sent (or to be), how its last attempt went, when the next one is,
// its payload as sent, and "Redeliver". While deliveries are pending the page reads itself again every few
// seconds, so a person watches them go out.
import { useRouter } from "next/navigation";
import { useEffect, useState } from "react";
import { redeliverWebhookAction } from "@/lib/console/actions/webhooks";
import type { DeliveryJson } from "@/lib/events/webhooks/schemas";
import { useActionForm } from "./action-form";
import { DateTime } from "./date-time";
import { Button, Notice, Table } from "./ui";
import { DeliveryStatusBadge, TOKEN } from "./webhook-parts";

const REFRESH_MS = 2_000;
const COLUMNS = ["Event", "Status", "Response", "Last error", "Created", "Progress", ""];
const cell = "px-3 py-2 align-top";
const PAYLOAD =
  "mt-2 max-h-80 overflow-auto whitespace-pre-wrap rounded-md bg-slate-900 p-3 font-mono text-xs leading-relaxed " +
  "text-slate-100 [overflow-wrap:anywhere]";

export function WebhookDeliveries({
  orgSlug,
  endpointId,
  deliveries,
  watch,
}: {
  orgSlug: string;
  endpointId: string;
  deliveries: DeliveryJson[];
  /** Whether some delivery may still change on its own (pending, the endpoint enabled): the page reads again. */
  watch: boolean;
}) {
  const router = useRouter();
  const [workingOn, setWorkingOn] = useState<string>();
  useEffect(() => {
    if (!watch) return;
    const timer = setInterval(() => router.refresh(), REFRESH_MS);
    return () => clearInterval(timer);
  }, [watch, router]);

  const form = useActionForm(async (delivery: DeliveryJson) => {
    const result = await redeliverWebhookAction(orgSlug, { webhook_id: endpointId, delivery_id: delivery.id });
    router.refresh();
    return result.ok
      ? { ok: true as const, data: `The ${delivery.event_type} event is queued to be sent again.` }
      : result;
  });

  return (
    <div className="space-y-3">
      {form.error && <Notice tone="error">{form.error}</Notice>}
      {!form.error && form.data && <Notice tone="success">{form.data}</Notice>}
      <Table columns={COLUMNS} stacked>
        {deliveries.flatMap((delivery) => [
          <tr key={delivery.id} data-testid="delivery-row" data-delivery-id={delivery.id} className="!border-b-0">
            <td className={`${cell} min-w-40`}>
              <code className="font-mono text-xs font-medium text-slate-800">{delivery.event_type}</code>
              <div className={`${TOKEN} text-slate-500`}>{delivery.event_id}</div>
            </td>
            <td className={cell} data-label={COLUMNS[1]}>
              <DeliveryStatusBadge status={delivery.status} />
              <div className="mt-1 whitespace-nowrap text-xs text-slate-600" data-testid="delivery-attempts">
                {delivery.attempts} attempt{delivery.attempts === 1 ? "" : "s"}
              </div>
            </td>
            <td className={`${cell} whitespace-nowrap`} data-label={COLUMNS[2]}>
              <span data-testid="delivery-response" className="tabular-nums">
                {delivery.response_status ?? "—"}
              </span>
              {delivery.latency_ms !== null && (
                <div className="text-xs tabular-nums text-slate-600">
                  {delivery.latency_ms.toLocaleString("en-US")} ms
                </div>
              )}
            </td>
            <td
              className={`${cell} min-w-32 max-w-xs text-xs text-rose-800 [overflow-wrap:anywhere]`}
              data-label={COLUMNS[3]}
              data-testid="delivery-error"
            >
              {delivery.last_error ?? <span className="text-slate-500">—</span>}
            </td>
            <td className={`${cell} min-w-24 text-xs text-slate-600`} data-label={COLUMNS[4]}>
              <DateTime value={delivery.created_at} seconds />
            </td>
            <td className={`${cell} min-w-24 text-xs text-slate-600`} data-label={COLUMNS[5]}>
              <Progress delivery={delivery} />
            </td>
            <td className={cell}>
              <Button
                variant="secondary"
                className="whitespace-nowrap !px-3 !py-1.5"
                disabled={form.pending && workingOn === delivery.id}
                onClick={() => {
                  setWorkingOn(delivery.id);
                  form.run(delivery);
                }}
                aria-label={`Redeliver ${delivery.event_type} ${delivery.event_id}`}
              >
                Redeliver
              </Button>
            </td>
          </tr>,
          <tr key={`${delivery.id}-payload`} data-testid="delivery-payload-row" data-delivery-id={delivery.id}>
            <td colSpan={COLUMNS.length} className="px-3 pb-3 pt-0">
              <details className="text-xs">
                <summary className="cursor-pointer text-indigo-700 hover:underline">Payload</summary>
                <pre tabIndex={0} data-testid="delivery-payload" className={PAYLOAD}>
                  {JSON.stringify(delivery.payload, null, 2)}
                </pre>
              </details>
            </td>
          </tr>,
        ])}
      </Table>
    </div>
  );
}

function Progress({ delivery }: { delivery: DeliveryJson }) {
  // A delivery sent again is pending with its earlier delivery time still set: its status says which applies.
  if (delivery.status === "pending") {
    return delivery.next_attempt_at ? (
      <>
        <span className="block font-medium text-slate-700">Next attempt</span>
        <DateTime value={delivery.next_attempt_at} seconds />
      </>
    ) : (
      <>Waiting</>
    );
  }
  if (delivery.status === "delivered" && delivery.delivered_at) {
    return (
      <>
        <span className="block font-medium text-slate-700">Delivered</span>
        <DateTime value={delivery.delivered_at} seconds />
      </>
    );
  }
  return <>Given up: redeliver to try again</>;
}
