"use client";
import { plural } from "./format";
import { useState } from "react";
import { changeRole, copyInvitationLink, invite, remove, resendInvitation } from "@/lib/console/actions/org";
import { invitationMessage } from "@/lib/console/messages";
import { assignableRoles, ROLES } from "@/lib/auth/permissions";
import type { Role } from "@/lib/generated/prisma/enums";
import { InviteForm } from "@/lib/orgs/schemas";
import { CopyButton } from "./copy-button";
import { DateTime } from "./date-time";
import { messageAbove, refuse, useActionForm } from "./action-form";
import { Dialog } from "./dialog";
import { Button, Card, Field, fieldErrors, Input, Notice, Select, Table, useHydrated } from "./ui";

interface MemberKey {
  id: string;
  name: string;
  display: string;
}
interface MemberRow {
  userId: string;
  email: string;
  name: string | null;
  role: Role;
  invitedAt: string;
  /** Null while invited: they have not opened the organization yet. */
  joinedAt: string | null;
  lastSignInAt: string | null;
  /** The active API keys they created: removing them revokes these, or hands them to the remover. */
  keys: MemberKey[];
}

export function MembersPanel(props: {
  orgSlug: string;
  role: MemberRow["role"];
  currentUserId: string;
  members: MemberRow[];
  /** Without a mail server (no SMTP_URL), invitation links go to the server log: the form says so. */
  mailConfigured: boolean;
}) {
  const [removing, setRemoving] = useState<MemberRow>();
  const hydrated = useHydrated();
  const manages = props.role !== "member";
  const roles = assignableRoles(props.role);
  // Inviting, changing a role and removing share the page's one message: the data is what succeeded.
  const form = useActionForm(async (change: MemberChange) => {
    if (change instanceof FormData) {
      const input = InviteForm.safeParse({ email: change.get("email"), role: change.get("role") });
      if (!input.success) return refuse(fieldErrors(input.error.issues));
      const result = await invite(props.orgSlug, input.data);
      return result.ok ? done(invitationMessage(input.data.email, result.data.mailed)) : result;
    }
    if (change.kind === "role") {
      const result = await changeRole(props.orgSlug, { user_id: change.member.userId, role: change.role });
      return result.ok ? done(`${change.member.email} is now ${change.role}.`) : result;
    }
    const result = await remove(props.orgSlug, { user_id: change.member.userId, keys: change.keys });
    return result.ok ? done(removedMessage(change.member, change.keys)) : result;
  });
  const errors = form.fields;
  // Copying an invitation's link or mailing it again: the link is shown once, in a dialog.
  const invitation = useActionForm(async ({ kind, member }: { kind: "copy" | "resend"; member: MemberRow }) => {
    const form = { user_id: member.userId };
    const result =
      kind === "copy" ? await copyInvitationLink(props.orgSlug, form) : await resendInvitation(props.orgSlug, form);
    return result.ok ? { ok: true as const, data: { kind, member, ...result.data } } : result;
  });
  const [closedLink, setClosedLink] = useState<object>();
  const link =
    invitation.data && "url" in invitation.data && invitation.state !== closedLink ? invitation.data : undefined;
  const resent = invitation.data && "mailed" in invitation.data ? invitation.data : undefined;
  const notice = messageAbove(form.error, form.fields, ["email", "role"]);
  const message = form.error
    ? notice && { tone: "error" as const, text: notice }
    : form.data && { tone: "success" as const, text: form.data };

  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-semibold">Members</h1>
      {message && <Notice tone={message.tone}>{message.text}</Notice>}
      {invitation.error && <Notice tone="error">{invitation.error}</Notice>}
      {resent && (
        <Notice tone={resent.mailed ? "success" : "info"}>
          {resent.mailed ? (
            <>Invitation sent again to {resent.member.email}; the earlier link no longer works.</>
          ) : (
            <span className="flex flex-wrap items-center gap-x-3 gap-y-2">
              <span>
                Nothing was sent: no mail server is set (SMTP_URL). Copy a link for {resent.member.email} and send it to
                them yourself.
              </span>
              <Button
                variant="secondary"
                disabled={invitation.pending}
                onClick={() => invitation.run({ kind: "copy", member: resent.member })}
              >
                Copy link
              </Button>
            </span>
          )}
        </Notice>
      )}
      {manages && (
        <Card title="Invite someone" description="They get an email with a sign-in link to this organization.">
          <form
            action={form.action}
            onResetCapture={form.keepAfterRefusal}
            className="flex flex-wrap items-end gap-3"
            noValidate
          >
            <div className="min-w-64 flex-1">
              <Field label="Email" error={errors.email}>
                <Input name="email" type="email" />
              </Field>
            </div>
            <Field label="Role" error={errors.role}>
              <Select name="role" defaultValue="member" layout="fit">
                {roles.map((r) => (
                  <option key={r} value={r}>
                    {r}
                  </option>
                ))}
              </Select>
            </Field>
            <Button type="submit">Send invitation</Button>
          </form>
          {!props.mailConfigured && (
            <div className="mt-3">
              <Notice>
                Development mode: no SMTP_URL is set, so the invitation link is printed in the server log instead of
                being emailed.
              </Notice>
            </div>
          )}
        </Card>
      )}
      <Table columns={["Member", "Role", "Joined", "Last sign-in", ""]} stacked>
        {props.members.map((m) => (
          <tr key={m.userId} data-testid="member-row">
            <td className="px-4 py-2">
              {m.email}
              {m.userId === props.currentUserId && <span className="ml-2 text-xs text-slate-500">(you)</span>}
            </td>
            <td className="px-4 py-2" data-label="Role">
              {manages && m.userId !== props.currentUserId && (props.role === "owner" || m.role !== "owner") ? (
                <Select
                  layout="compact"
                  aria-label={`Role of ${m.email}`}
                  defaultValue={m.role}
                  disabled={!hydrated}
                  onChange={(e) => form.run({ kind: "role", member: m, role: e.target.value })}
                >
                  {ROLES.filter((r) => roles.includes(r) || r === m.role).map((r) => (
                    <option key={r} value={r}>
                      {r}
                    </option>
                  ))}
                </Select>
              ) : (
                m.role
              )}
            </td>
            <td className="px-4 py-2 text-xs" data-label="Joined" data-testid="member-status">
              {m.joinedAt ? (
                <DateTime value={m.joinedAt} />
              ) : (
                <span className="inline-flex flex-wrap items-center gap-1.5">
                  <span className="rounded bg-amber-50 px-1.5 py-0.5 font-medium text-amber-800 ring-1 ring-amber-200">
                    Invited
                  </span>
                  <DateTime value={m.invitedAt} relative />
                </span>
              )}
            </td>
            <td className="px-4 py-2 text-xs" data-label="Last sign-in">
              <DateTime value={m.lastSignInAt} empty="never" relative />
            </td>
            <td className="px-4 py-2 text-right">
              {manages && m.userId !== props.currentUserId && (props.role === "owner" || m.role !== "owner") && (
                <span className="inline-flex flex-wrap justify-end gap-2">
                  {!m.joinedAt && (
                    <>
                      <Button
                        variant="secondary"
                        disabled={!hydrated || invitation.pending}
                        onClick={() => invitation.run({ kind: "copy", member: m })}
                      >
                        Copy link
                      </Button>
                      <Button
                        variant="secondary"
                        disabled={!hydrated || invitation.pending}
                        onClick={() => invitation.run({ kind: "resend", member: m })}
                      >
                        Resend
                      </Button>
                    </>
                  )}
                  <Button variant="secondary" onClick={() => setRemoving(m)}>
                    Remove
                  </Button>
                </span>
              )}
            </td>
          </tr>
        ))}
      </Table>
      {link && (
        <Dialog title={`Invitation link for ${link.member.email}`} onClose={() => setClosedLink(invitation.state)}>
          <p className="text-sm text-slate-700">
            Send it to {link.member.email} yourself. It signs in that address only, once, until{" "}
            <DateTime value={link.expires_at} />. <strong>It is shown only now</strong>; any earlier link for this
            invitation no longer works, and removing them stops this one too.
          </p>
          <div className="mt-3 flex items-start gap-2">
            <code
              data-testid="invitation-link"
              className="flex-1 break-all rounded-md bg-slate-100 px-3 py-2 font-mono text-xs"
            >
              {link.url}
            </code>
            <CopyButton text={link.url} label="Copy the invitation link" />
          </div>
          <div className="mt-5 text-right">
            <Button onClick={() => setClosedLink(invitation.state)}>Done</Button>
          </div>
        </Dialog>
      )}
      {removing && (
        <RemoveDialog
          member={removing}
          onCancel={() => setRemoving(undefined)}
          onRemove={(keys) => {
            setRemoving(undefined);
            form.run({ kind: "remove", member: removing, keys });
          }}
        />
      )}
    </div>
  );
}

/** The invitation form's data, or a change made from a member's row. */
type MemberChange =
  | FormData
  | { kind: "role"; member: MemberRow; role: string }
  | { kind: "remove"; member: MemberRow; keys: "revoke" | "take_over" };

const done = (message: string) => ({ ok: true as const, data: message });

function removedMessage(member: MemberRow, keys: "revoke" | "take_over") {
  if (member.keys.length === 0) return `${member.email} was removed.`;
  const count = plural(member.keys.length, "key");
  return keys === "take_over"
    ? `${member.email} was removed; you now own their ${count}.`
    : `${member.email} was removed and their ${count} revoked.`;
}

/**
 * Removing someone decides the fate of the API keys they created: a key never outlives its creator's
 * membership, so it is revoked, or the person removing them takes it over (bounded by their own role).
 */
function RemoveDialog(props: {
  member: MemberRow;
  onCancel: () => void;
  onRemove: (keys: "revoke" | "take_over") => void;
}) {
  const { member } = props;
  const count = member.keys.length;
  const buttons = "mt-5 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end";
  return (
    <Dialog title={`Remove ${member.email}?`} onClose={props.onCancel}>
      <p className="text-sm text-slate-700">They lose access to this organization on their very next request.</p>
      {count > 0 ? (
        <>
          <p className="mt-3 text-sm text-slate-700">
            They created {plural(count, "active API key")}. Revoke them, or take them over: they keep working as yours,
            within your role&apos;s permissions.
          </p>
          <ul
            aria-label={`API keys of ${member.email}`}
            className="mt-3 divide-y divide-slate-100 rounded-md border border-slate-200 text-sm"
          >
            {member.keys.map((key) => (
              <li key={key.id} className="flex flex-wrap items-baseline justify-between gap-x-4 px-3 py-2">
                <span className="wrap-anywhere font-medium text-slate-800">{key.name}</span>
                <code className="text-xs text-slate-500">{key.display}</code>
              </li>
            ))}
          </ul>
          <div className={buttons}>
            <Button variant="secondary" onClick={props.onCancel}>
              Cancel
            </Button>
            <Button variant="secondary" onClick={() => props.onRemove("take_over")}>
              Take them over
            </Button>
            <Button variant="danger" onClick={() => props.onRemove("revoke")}>
              Revoke their {plural(count, "key")}
            </Button>
          </div>
        </>
      ) : (
        <div className={buttons}>
          <Button variant="secondary" onClick={props.onCancel}>
            Cancel
          </Button>
          <Button variant="danger" onClick={() => props.onRemove("revoke")}>
            Remove
          </Button>
        </div>
      )}
    </Dialog>
  );
}
