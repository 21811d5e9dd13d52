import { WEBHOOK_GATHER_MS } from "@/lib/event-recording/webhook-delivery-job";
import { webhookJobRunners } from "@/lib/events/webhooks/deliver";
import { runDueJobs } from "@/lib/jobs/queue";
import { settled } from "./settled";

/**
 * Runs the webhook delivery jobs of what was written so far, once they are due (after the gathering window) and
 * their events settled.
 */
export async function deliverWebhooks(): Promise<number> {
  await new Promise((resolve) => setTimeout(resolve, WEBHOOK_GATHER_MS));
  await settled();
  return runDueJobs(webhookJobRunners);
}
