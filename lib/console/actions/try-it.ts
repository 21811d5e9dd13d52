"use server";
// The namespace page's try-it panel: remember, recall and ask from the browser. Each runs the API's own
// operation (runOperation) with the signed-in person as principal, and the panel's body as the API's body
// unchanged (the copy-ready curl beside the form shows the same JSON), so permission, validation, the
// namespaces the person may reach and the answers are the API's. The form's schema only checks the shape;
// the operation's own schema says what is wrong with a value, as it would over HTTP.
import { revalidatePath } from "next/cache";
import { z } from "zod";
import { ROLES } from "@/lib/auth/permissions";
import { asFormFields, runConsoleAction } from "@/lib/console/action";
import { operations } from "@/lib/operations/catalogue";
import { runOperation } from "@/lib/operations/run";

const Text = z.string({ error: "must be text" });
const RememberForm = z.strictObject({ namespace_id: Text, content: Text, identity_id: Text.optional() });
const QueryForm = z.strictObject({ namespace_id: Text, query: Text });

/** Milliseconds since `started`, whole: what the panel shows as the operation's time. */
const elapsed = (started: number) => Math.max(0, Math.round(performance.now() - started));

export async function tryRemember(orgSlug: string, form: unknown) {
  const result = await runConsoleAction(orgSlug, { roles: ROLES, input: RememberForm }, form, async (context, body) => {
    const started = performance.now();
    const { data } = await runOperation(operations.remember, context.principal, { body: async () => body }, started);
    const ms = elapsed(started);
    // One content makes one memory (a batch would be an array: the panel never sends one).
    const memory = Array.isArray(data) ? data[0] : data;
    revalidatePath(`/${context.orgSlug}/namespaces/${body.namespace_id}`);
    return { memory: { id: memory.id, content: memory.content, identity_id: memory.identity_id }, ms };
  });
  return asFormFields(result);
}

export async function tryRecall(orgSlug: string, form: unknown) {
  const result = await runConsoleAction(orgSlug, { roles: ROLES, input: QueryForm }, form, async (context, body) => {
    const started = performance.now();
    const { data } = await runOperation(operations.recall, context.principal, { body: async () => body }, started);
    return { matches: data, ms: elapsed(started) };
  });
  return asFormFields(result);
}

export async function tryAsk(orgSlug: string, form: unknown) {
  const result = await runConsoleAction(orgSlug, { roles: ROLES, input: QueryForm }, form, async (context, body) => {
    const started = performance.now();
    const { data } = await runOperation(operations.ask, context.principal, { body: async () => body }, started);
    return { ...data, ms: elapsed(started) };
  });
  return asFormFields(result);
}
