"use client";
import { useState } from "react";
import { changeRole, invite, remove } from "@/app/[org]/actions";
import { InviteForm } from "@/lib/orgs/schemas";
import { Button, Card, Field, fieldErrors, Input, Notice, useHydrated, type FieldErrors } from "./ui";

interface MemberRow { userId: string; email: string; name: string | null; role: "owner" | "admin" | "member"; joinedAt: string; lastSignInAt: string | null }

export function MembersPanel(props: { orgSlug: string; role: MemberRow["role"]; currentUserId: string; members: MemberRow[] }) {
  const [errors, setErrors] = useState<FieldErrors>({});
  const [message, setMessage] = useState<{ tone: "error" | "success"; text: string }>();
  const [removing, setRemoving] = useState<MemberRow>();
  const hydrated = useHydrated();
  const manages = props.role !== "member";
  const roles = props.role === "owner" ? ["owner", "admin", "member"] : ["admin", "member"];

  async function report(result: { ok: boolean; error?: string; fields?: FieldErrors }, success: string) {
    if (result.ok) setMessage({ tone: "success", text: success });
    else {
      setErrors(result.fields ?? {});
      setMessage({ tone: "error", text: result.error ?? "That did not work." });
    }
  }

  async function sendInvite(form: FormData) {
    const input = InviteForm.safeParse({ email: form.get("email"), role: form.get("role") });
    if (!input.success) return setErrors(fieldErrors(input.error.issues));
    setErrors({});
    await report(await invite(props.orgSlug, input.data), `Invitation sent to ${input.data.email}.`);
  }

  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-semibold">Members</h1>
      {message && <Notice tone={message.tone}>{message.text}</Notice>}
      {manages && (
        <Card title="Invite someone" description="They get an email with a sign-in link to this organization.">
          <form action={sendInvite} className="flex flex-wrap items-end gap-3" noValidate>
            <div className="min-w-64 flex-1"><Field label="Email" error={errors.email}><Input name="email" type="email" /></Field></div>
            <Field label="Role" error={errors.role}>
              <select name="role" defaultValue="member" className="rounded-md border border-slate-300 px-3 py-2 text-sm">
                {roles.map((r) => <option key={r} value={r}>{r}</option>)}
              </select>
            </Field>
            <Button type="submit">Send invitation</Button>
          </form>
        </Card>
      )}
      <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white shadow-sm">
        <table className="min-w-full text-left text-sm">
          <thead className="bg-slate-50 text-xs uppercase tracking-wide text-slate-500">
            <tr>{["Member", "Role", "Joined", "Last sign-in", ""].map((h) => <th key={h} className="px-4 py-2 font-medium">{h}</th>)}</tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {props.members.map((m) => (
              <tr key={m.userId} data-testid="member-row">
                <td className="px-4 py-2">{m.email}{m.userId === props.currentUserId && <span className="ml-2 text-xs text-slate-500">(you)</span>}</td>
                <td className="px-4 py-2">
                  {manages && m.userId !== props.currentUserId && (props.role === "owner" || m.role !== "owner") ? (
                    <select aria-label={`Role of ${m.email}`} defaultValue={m.role} disabled={!hydrated} className="rounded-md border border-slate-300 px-2 py-1 text-sm"
                      onChange={async (e) => report(await changeRole(props.orgSlug, { user_id: m.userId, role: e.target.value }), `${m.email} is now ${e.target.value}.`)}>
                      {["owner", "admin", "member"].filter((r) => roles.includes(r) || r === m.role).map((r) => <option key={r} value={r}>{r}</option>)}
                    </select>
                  ) : m.role}
                </td>
                <td className="px-4 py-2 text-xs">{new Date(m.joinedAt).toLocaleDateString()}</td>
                <td className="px-4 py-2 text-xs">{m.lastSignInAt ? new Date(m.lastSignInAt).toLocaleString() : "invited, not signed in yet"}</td>
                <td className="px-4 py-2 text-right">
                  {manages && m.userId !== props.currentUserId && (props.role === "owner" || m.role !== "owner") && (
                    <Button variant="secondary" onClick={() => setRemoving(m)}>Remove</Button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {removing && (
        <div className="fixed inset-0 z-10 flex items-center justify-center bg-slate-900/40 p-4">
          <div role="dialog" aria-modal="true" aria-label={`Remove ${removing.email}?`} className="w-full max-w-md rounded-lg bg-white p-6 shadow-xl">
            <h2 className="text-lg font-semibold">Remove {removing.email}?</h2>
            <p className="mt-2 text-sm text-slate-700">They lose access to this organization on their very next request. Their keys keep working until revoked.</p>
            <div className="mt-5 flex justify-end gap-2">
              <Button variant="secondary" onClick={() => setRemoving(undefined)}>Cancel</Button>
              <Button variant="danger" onClick={async () => { const target = removing; setRemoving(undefined); await report(await remove(props.orgSlug, { user_id: target.userId }), `${target.email} was removed.`); }}>Remove</Button>
            </div>
          </div>
        </div>
      )}
    </div>
  );
}
