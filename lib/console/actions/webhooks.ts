"use server";
// The webhooks page's mutations: adding an endpoint, enabling or disabling it, rotating its secret, sending it a
// test, deleting it, and sending a delivery again. Each runs the API's own operation (runOperation) as the
// signed-in person, so the permission (WEBHOOK_MANAGE: owners and admins), the validation (the URL's
// destination included), the organization bound and the refusals are the API's. Ids come from the browser and
// are never trusted: the operations look each endpoint and delivery up within the person's organization (404).
import { revalidatePath } from "next/cache";
import { z } from "zod";
import { ROLE_PERMISSIONS, ROLES } from "@/lib/auth/permissions";
import { asFormFields, runConsoleAction, type ConsoleContext } from "@/lib/console/action";
import { CreateWebhookBody } from "@/lib/events/webhooks/schemas";
import { operations } from "@/lib/operations/catalogue";
import { runOperation } from "@/lib/operations/run";
import { identifier } from "@/lib/validation/strings";

/** The roles whose members may manage webhooks: the same table the API's permission check reads. */
const WEBHOOK_ROLES = { roles: ROLES.filter((role) => ROLE_PERMISSIONS[role].includes("WEBHOOK_MANAGE")) };

const Id = identifier({ min: 1, max: 255, lengthMessage: "must be 1 to 255 characters" });

const EndpointForm = z.strictObject({ webhook_id: Id });
const EnabledForm = z.strictObject({ webhook_id: Id, enabled: z.boolean({ error: "must be true or false" }) });
// The hours' range is the operation's to judge (its own message on its own field).
const RotateForm = z.strictObject({ webhook_id: Id, overlap_hours: z.number({ error: "must be a number" }) });
const DeliveryForm = z.strictObject({ webhook_id: Id, delivery_id: Id });

/** Adds an endpoint (POST /webhooks): the form is the operation's own body schema; its secret is returned once. */
export async function createWebhookAction(orgSlug: string, form: unknown) {
  const result = await runConsoleAction(
    orgSlug,
    { ...WEBHOOK_ROLES, input: CreateWebhookBody },
    form,
    async (context, input) => {
      const { data } = await runOperation(operations.createWebhook, context.principal, { body: async () => input });
      refresh(context);
      return data;
    },
  );
  return asFormFields(result);
}

/** Enables (resuming its undelivered events) or disables an endpoint (PATCH /webhooks/{id}). */
export async function setWebhookEnabledAction(orgSlug: string, form: unknown) {
  return runConsoleAction(orgSlug, { ...WEBHOOK_ROLES, input: EnabledForm }, form, async (context, input) => {
    const { data } = await runOperation(operations.updateWebhook, context.principal, {
      params: { id: input.webhook_id },
      body: async () => ({ enabled: input.enabled }),
    });
    refresh(context, data.id);
    return data;
  });
}

/** A new signing secret, returned this once; the old one signs beside it for `overlap_hours`. */
export async function rotateWebhookSecretAction(orgSlug: string, form: unknown) {
  const result = await runConsoleAction(
    orgSlug,
    { ...WEBHOOK_ROLES, input: RotateForm },
    form,
    async (context, input) => {
      const { data } = await runOperation(operations.rotateWebhookSecret, context.principal, {
        params: { id: input.webhook_id },
        body: async () => ({ overlap_hours: input.overlap_hours }),
      });
      refresh(context, data.endpoint.id);
      return data;
    },
  );
  return asFormFields(result);
}

/** Sends a signed `webhook.test` message now and answers how the receiver took it (nothing is logged). */
export async function testWebhookAction(orgSlug: string, form: unknown) {
  return runConsoleAction(orgSlug, { ...WEBHOOK_ROLES, input: EndpointForm }, form, async (context, input) => {
    const { data } = await runOperation(operations.testWebhook, context.principal, {
      params: { id: input.webhook_id },
    });
    return data;
  });
}

/** Deletes an endpoint with its delivery log; what it had not received yet is never sent. */
export async function deleteWebhookAction(orgSlug: string, form: unknown) {
  return runConsoleAction(orgSlug, { ...WEBHOOK_ROLES, input: EndpointForm }, form, async (context, input) => {
    const { data } = await runOperation(operations.deleteWebhook, context.principal, {
      params: { id: input.webhook_id },
    });
    refresh(context, data.id);
    return data;
  });
}

/** Sends a delivery again: pending with a fresh retry schedule, due now, with the same `webhook-id`. */
export async function redeliverWebhookAction(orgSlug: string, form: unknown) {
  return runConsoleAction(orgSlug, { ...WEBHOOK_ROLES, input: DeliveryForm }, form, async (context, input) => {
    const { data } = await runOperation(operations.redeliverWebhookDelivery, context.principal, {
      params: { id: input.webhook_id, deliveryId: input.delivery_id },
    });
    refresh(context, input.webhook_id);
    return data;
  });
}

function refresh(context: ConsoleContext, endpointId?: string) {
  revalidatePath(`/${context.orgSlug}/webhooks`);
  if (endpointId) revalidatePath(`/${context.orgSlug}/webhooks/${endpointId}`);
}
