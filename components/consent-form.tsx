"use client";
import { useState } from "react";
import { answerConsent } from "@/lib/console/actions/mcp-clients";
import { useActionForm } from "./action-form";
import type { ConnectionAccess } from "@/lib/oauth/connections";
import { Button, Notice } from "./ui";

const CHOICES: { value: ConnectionAccess[]; label: string; hint: string }[] = [
  { value: ["read"], label: "Read", hint: "recall and ask" },
  { value: ["read", "write"], label: "Read and write", hint: "also remember and forget" },
];

/** The permissions to give (only those the person may) and the answer; the browser then returns to the client. */
export function ConsentForm(props: { uid: string; allowed: ConnectionAccess[] }) {
  const choices = CHOICES.filter((choice) => choice.value.every((access) => props.allowed.includes(access)));
  const [choice, setChoice] = useState(choices.length - 1);
  const form = useActionForm(
    (decision: "approve" | "deny") => answerConsent({ uid: props.uid, decision, access: choices[choice]?.value ?? [] }),
    { onSuccess: (answered) => window.location.assign(answered.redirectTo) },
  );
  return (
    <form className="mt-6 space-y-4">
      <fieldset className="space-y-2">
        <legend className="text-sm font-medium text-slate-800">Permissions</legend>
        {choices.map((option, index) => (
          <label key={option.label} className="flex items-center gap-2 text-sm">
            <input type="radio" name="access" checked={choice === index} onChange={() => setChoice(index)} />
            <span className="font-medium">{option.label}</span>
            <span className="text-slate-500">({option.hint})</span>
          </label>
        ))}
      </fieldset>
      {form.error && <Notice tone="error">{form.error}</Notice>}
      <div className="flex gap-2">
        <Button type="button" disabled={form.pending} onClick={() => form.run("approve")}>
          Approve
        </Button>
        <Button type="button" variant="secondary" disabled={form.pending} onClick={() => form.run("deny")}>
          Deny
        </Button>
      </div>
    </form>
  );
}
