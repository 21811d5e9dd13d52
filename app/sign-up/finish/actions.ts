"use server";
import { asApiError } from "@/lib/api/envelope";
import type { ActionResult } from "@/lib/console/action";
import { FinishSignUpForm } from "@/lib/orgs/schemas";
import { finishSignUp } from "@/lib/orgs/sign-up";

export async function finishSignUpAction(form: unknown): Promise<ActionResult> {
  const parsed = FinishSignUpForm.safeParse(form);
  if (!parsed.success) {
    const fields = Object.fromEntries(parsed.error.issues.map((issue) => [issue.path.join("."), issue.message]));
    return { ok: false, error: "Some fields need attention.", fields };
  }
  try {
    await finishSignUp(parsed.data);
    return { ok: true, data: null };
  } catch (error) {
    const failure = asApiError(error);
    const fields = Object.fromEntries((failure.details ?? []).map((detail) => [detail.field, detail.message]));
    return { ok: false, error: failure.message, fields };
  }
}
