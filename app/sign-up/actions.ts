"use server";
import { asApiError } from "@/lib/api/envelope";
import type { ActionResult } from "@/lib/console/action";
import { SignUpForm } from "@/lib/orgs/schemas";
import { signUp } from "@/lib/orgs/sign-up";

export async function signUpAction(form: unknown): Promise<ActionResult<{ slug: string }>> {
  const parsed = SignUpForm.safeParse(form);
  if (!parsed.success) {
    return { ok: false, error: "Some fields need attention.", fields: Object.fromEntries(parsed.error.issues.map((i) => [i.path.join("."), i.message])) };
  }
  try {
    const { org } = await signUp(parsed.data);
    return { ok: true, data: { slug: org.slug } };
  } catch (error) {
    return { ok: false, error: asApiError(error).message };
  }
}
