import type { Tx } from "@/lib/db";
import { enqueueJob, wakeJobWorkers } from "@/lib/jobs/queue";
import { WEBHOOK_DELIVERY_JOB, webhookJobKey } from "@/lib/event-recording/webhook-delivery-job";

/** Queues the endpoint's delivery job (or makes its job due now, or run again), to run once `tx` commits. */
export async function queueDeliveryJob(tx: Tx, endpoint: { id: string; orgId: string }) {
  await enqueueJob(
    {
      kind: WEBHOOK_DELIVERY_JOB,
      orgId: endpoint.orgId,
      key: webhookJobKey(endpoint.id),
      payload: { endpoint_id: endpoint.id },
      runAgain: true,
    },
    tx,
  );
  setTimeout(() => wakeJobWorkers(WEBHOOK_DELIVERY_JOB, 1), 20).unref();
}
