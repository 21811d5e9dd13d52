import { forgetResultJson } from "@/lib/erasures/forget-result";
import { forgetWithReceipt } from "@/lib/erasures/forget-with-receipt";
import { ForgetBody } from "@/lib/memory/forget/forget-body";
import { ForgetResultSchema } from "@/lib/memory/common/schemas";
import { operation } from "../operation";

export const forgetOperation = operation({
  http: {
    method: "POST",
    path: "/forget",
    tag: "Memory",
    summary:
      "Delete the memories matching every selector given (memory_ids, identity_id, scopes, metadata) " +
      "or all: true; or an identity's memories in every namespace the key may write (all_namespaces: true). " +
      "Irreversible; records an erasure receipt (erasure_id)",
    errors: [404],
    idempotent: true,
  },
  permission: "NAMESPACE_WRITE",
  body: ForgetBody,
  response: ForgetResultSchema,
  activity: "forget",
  async run({ principal, body, activity }) {
    activity.identityId = body.identity_id;
    const forgotten = await forgetWithReceipt(principal, body, activity);
    activity.details = { deleted: forgotten.deleted };
    return forgetResultJson(forgotten);
  },
});
