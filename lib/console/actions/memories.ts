"use server";
// The memory explorer's mutations: deleting one memory, and editing one. The namespace and memory ids come
// from the browser and are never trusted: each is looked up within the person's organization and the
// namespaces they may see (another organization's or an ungranted one's ids are simply not found).
// Deleting a memory is forgetting it: the forget operation's permission is checked, by the runner's check.
// Editing runs the operation of PATCH /memories/{id}: its permission, validation and versioning are the API's.
import { revalidatePath } from "next/cache";
import { z } from "zod";
import { ROLES } from "@/lib/auth/permissions";
import { recordAudit } from "@/lib/audit/audit";
import { asFormFields, runConsoleAction, type ActionResult } from "@/lib/console/action";
import { db } from "@/lib/db";
import { InvalidError } from "@/lib/errors";
import { deleteMemory as deleteMemoryOf } from "@/lib/memory/forget/delete-memory";
import { getMemoryWithChunks } from "@/lib/memory/read/list";
import { operations } from "@/lib/operations/catalogue";
import { assertOperationAllowed, runOperation } from "@/lib/operations/run";
import { identifier } from "@/lib/validation/strings";

const Id = identifier({ min: 1, max: 255, lengthMessage: "must be 1 to 255 characters" });
const DeleteMemoryForm = z.strictObject({ namespace_id: Id, memory_id: Id });

export async function deleteMemory(orgSlug: string, form: unknown) {
  return runConsoleAction(orgSlug, { roles: ROLES, input: DeleteMemoryForm }, form, async (context, input) => {
    assertOperationAllowed(operations.forget, context.principal);
    const result = await deleteMemoryOf(context.principal, input.namespace_id, input.memory_id);
    revalidatePath(`/${context.orgSlug}/namespaces/${input.namespace_id}/memories`);
    return result;
  });
}

/**
 * The edit form's fields as typed (each absent when unchanged): metadata as JSON text, scopes as
 * `key=value` pairs separated by commas (as everywhere in the console), an empty identity or expiry clears
 * it. The values themselves are checked by PATCH /memories/{id}'s schema; the form only turns text into
 * its shape. Lengths are bounded here so a forged call cannot send megabytes of text to parse.
 */
const FormText = (max: number) => z.string({ error: "must be text" }).max(max, `must be at most ${max} characters`);
const EditMemoryForm = z.strictObject({
  namespace_id: Id,
  memory_id: Id,
  content: FormText(100_000).optional(),
  metadata: FormText(16_384).optional(),
  scopes: FormText(8_192).optional(),
  identity_id: FormText(255).optional(),
  occurred_at: FormText(64).optional(),
  expires_at: FormText(64).optional(),
});

function fieldProblem(field: string, message: string): InvalidError {
  return new InvalidError(`Invalid request body. body.${field}: ${message}`, [{ field: `body.${field}`, message }]);
}

function metadataOf(text: string): unknown {
  if (text.trim() === "") return {};
  try {
    return JSON.parse(text);
  } catch {
    throw fieldProblem("metadata", 'must be a JSON object, like {"source": "chat"}');
  }
}

function scopesOf(text: string): Record<string, string> {
  const scopes: Record<string, string> = {};
  for (const pair of text.split(",").map((part) => part.trim())) {
    if (!pair) continue;
    const eq = pair.indexOf("=");
    if (eq <= 0) throw fieldProblem("scopes", `"${pair}" is not of the form key=value`);
    const name = pair.slice(0, eq).trim();
    if (Object.hasOwn(scopes, name)) throw fieldProblem("scopes", `${name} is given twice`);
    scopes[name] = pair.slice(eq + 1).trim();
  }
  return scopes;
}

/** Changes a memory through the update operation of the API, and audits it as `memory.update`. */
export async function updateMemoryAction(orgSlug: string, form: unknown) {
  const result = await runConsoleAction(
    orgSlug,
    { roles: ROLES, input: EditMemoryForm },
    form,
    async (context, input) => {
      const { namespace_id: namespaceId, memory_id: memoryId, ...typed } = input;
      // The memory must be in the namespace the page names (the operation alone would find it in any).
      const before = await getMemoryWithChunks(context.principal, namespaceId, memoryId);
      const body: Record<string, unknown> = {};
      if (typed.content !== undefined) body.content = typed.content;
      if (typed.metadata !== undefined) body.metadata = metadataOf(typed.metadata);
      if (typed.scopes !== undefined) body.scopes = scopesOf(typed.scopes);
      if (typed.identity_id !== undefined) body.identity_id = typed.identity_id.trim() || null;
      if (typed.occurred_at !== undefined) body.occurred_at = typed.occurred_at.trim();
      if (typed.expires_at !== undefined) body.expires_at = typed.expires_at.trim() || null;
      const { data: memory } = await runOperation(operations.updateMemory, context.principal, {
        params: { id: memoryId },
        body: async () => body,
      });
      if (memory.version !== before.memory.version) {
        await recordAudit(await db(), {
          orgId: context.orgId,
          actor: context.actor,
          action: "memory.update",
          targetType: "memory",
          targetId: memoryId,
          details: { namespace_id: namespaceId, version: memory.version },
        });
      }
      revalidatePath(`/${context.orgSlug}/namespaces/${namespaceId}/memories`, "layout");
      return { id: memory.id, version: memory.version };
    },
  );
  return onFormFields(asFormFields(result));
}

/** A problem inside a field (`metadata.nested`) said on the form's field: `metadata`: "nested: …". */
function onFormFields<T>(result: ActionResult<T>): ActionResult<T> {
  if (result.ok || !result.fields) return result;
  const fields: Record<string, string> = {};
  for (const [path, message] of Object.entries(result.fields)) {
    const [field, ...inner] = path.split(".");
    fields[field] ??= inner.length ? `${inner.join(".")}: ${message}` : message;
  }
  return { ...result, fields };
}
