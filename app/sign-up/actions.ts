"use server";
import { headers } from "next/headers";
import { asApiError } from "@/lib/api/envelope";
import type { ActionResult } from "@/lib/console/action";
import { clientAddress } from "@/lib/net/client-address";
import { SignUpForm } from "@/lib/orgs/schemas";
import { signUp, type SignUpResult } from "@/lib/orgs/sign-up";

export async function signUpAction(form: unknown): Promise<ActionResult<SignUpResult>> {
  const parsed = SignUpForm.safeParse(form);
  if (!parsed.success) {
    return { ok: false, error: "Some fields need attention.", fields: Object.fromEntries(parsed.error.issues.map((i) => [i.path.join("."), i.message])) };
  }
  try {
    return { ok: true, data: await signUp(parsed.data, { clientAddress: clientAddress(await headers()) }) };
  } catch (error) {
    return { ok: false, error: asApiError(error).message };
  }
}
