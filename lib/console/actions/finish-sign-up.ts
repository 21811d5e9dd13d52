"use server";
import { formFailure, parseForm, type ActionResult } from "@/lib/console/action";
import { FinishSignUpForm } from "@/lib/orgs/schemas";
import { finishSignUp } from "@/lib/orgs/sign-up";

export async function finishSignUpAction(form: unknown): Promise<ActionResult> {
  const input = parseForm(FinishSignUpForm, form);
  if (!input.ok) return input;
  try {
    await finishSignUp(input.data);
    return { ok: true, data: null };
  } catch (error) {
    return formFailure(error);
  }
}
