"use server";
// A namespace's event stream, read on from where the page stopped: the API's own feed (GET /events, the
// listEvents operation) as the signed-in person, narrowed to the namespace. The cursor comes from the page
// and is the feed's own (signed, bound to the organization); a namespace the person may not read is the
// operation's 404.
import { z } from "zod";
import { ROLES } from "@/lib/auth/permissions";
import { runConsoleAction } from "@/lib/console/action";
import { operations } from "@/lib/operations/catalogue";
import { runOperation } from "@/lib/operations/run";
import { identifier } from "@/lib/validation/strings";

/** Events read at once when the page asks for what came after its newest. */
const NEWER_LIMIT = 100;

const NewerEventsForm = z.strictObject({
  namespace_id: identifier({ min: 1, max: 255, lengthMessage: "must be 1 to 255 characters" }),
  after: z.string({ error: "must be text" }),
});

/** The namespace's events after `after`, oldest first, with the cursor to read on from. */
export async function newerNamespaceEventsAction(orgSlug: string, form: unknown) {
  return runConsoleAction(orgSlug, { roles: ROLES, input: NewerEventsForm }, form, async (context, input) => {
    const { data } = await runOperation(operations.listEvents, context.principal, {
      query: { namespace_id: input.namespace_id, after: input.after, limit: String(NEWER_LIMIT) },
    });
    return data;
  });
}
