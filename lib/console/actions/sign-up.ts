"use server";
import { headers } from "next/headers";
import { formFailure, parseForm, type ActionResult } from "@/lib/console/action";
import { clientAddress } from "@/lib/net/client-address";
import { SignUpForm } from "@/lib/orgs/schemas";
import { signUp, type SignUpResult } from "@/lib/orgs/sign-up";

export async function signUpAction(form: unknown): Promise<ActionResult<SignUpResult>> {
  const input = parseForm(SignUpForm, form);
  if (!input.ok) return input;
  try {
    return { ok: true, data: await signUp(input.data, { clientAddress: clientAddress(await headers()) }) };
  } catch (error) {
    return formFailure(error);
  }
}
