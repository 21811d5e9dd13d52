// Invitations from the Members page: an invited member shows as Invited until they open the organization;
// owners and admins copy a link (shown once) or mail it again. The link lasts INVITATION_LINK_LIFETIME_DAYS,
// signs in the invited address only, once; a new link replaces the last; joining and removal end it; a link
// is copied only for an account that is nothing but the invitation, and checked again when used. The
// console actions are called directly, as a crafted request could, with a mocked session; the link is used
// through the sign-in adapter next-auth's email callback calls.
import { afterEach, beforeAll, beforeEach, expect, test, vi } from "vitest";

const getServerSession = vi.hoisted(() => vi.fn());
vi.mock("next-auth", () => ({ getServerSession }));
vi.mock("@/lib/console/auth", () => ({ authOptions: async () => ({}) }));
vi.mock("next/cache", () => ({ revalidatePath: () => {} }));

const { SYSTEM_ACTOR } = await import("@/lib/audit/audit");
const { createMagicLink, emailTokenHash } = await import("@/lib/auth/magic-link");
const { db } = await import("@/lib/db");
const { inviteMember, listMembers, removeMember } = await import("@/lib/orgs/members");
const { createOrganization } = await import("@/lib/orgs/organizations");
const { consoleAccountsAdapter } = await import("@/lib/orgs/sign-in");
const { issueInvitationLink } = await import("@/lib/orgs/invitation-link");
const { sessionAllowedIn } = await import("@/lib/console/session");
const { setPasswordAction } = await import("@/lib/console/actions/account");
const { copyInvitationLink, invite, rememberOrganization, resendInvitation } =
  await import("@/lib/console/actions/org");

const unique = () => Math.random().toString(36).slice(2, 8);
const DAY = 24 * 60 * 60 * 1000;

beforeAll(async () => {
  await db();
});
beforeEach(() => {
  getServerSession.mockReset();
  delete process.env.SMTP_URL;
  // Without a mail server an invitation's mail is printed: not in the test output.
  vi.spyOn(console, "log").mockImplementation(() => {});
});
afterEach(() => {
  vi.restoreAllMocks();
  delete process.env.INVITATION_LINK_LIFETIME_DAYS;
});

function signInAs(userId: string) {
  getServerSession.mockResolvedValue({ userId, sessionId: `ses_${unique()}`, method: "password" });
}

async function organization() {
  const org = await createOrganization(`Invitations ${unique()}`, SYSTEM_ACTOR);
  const person = async (role: "owner" | "admin" | "member") => {
    const user = await inviteMember({ orgId: org.id, email: `${role}-${unique()}@example.com`, role }, SYSTEM_ACTOR);
    await joined(org.id, user.id);
    return user;
  };
  return { org, owner: await person("owner"), admin: await person("admin"), member: await person("member") };
}

/** The member opens the organization (what the console's layout does on their first visit). */
async function joined(orgId: string, userId: string) {
  const prisma = await db();
  const org = await prisma.organization.findUniqueOrThrow({ where: { id: orgId } });
  signInAs(userId);
  expect(await rememberOrganization(org.slug)).toEqual({ ok: true, data: null });
}

/** An invitation made from the Members page by `byId`, without a mail server. */
async function invited(org: { id: string; slug: string }, byId: string, role: "member" | "owner" = "member") {
  const email = `invitee-${unique()}@example.com`;
  signInAs(byId);
  expect(await invite(org.slug, { email, role })).toEqual({ ok: true, data: { mailed: false } });
  const prisma = await db();
  return prisma.user.findUniqueOrThrow({ where: { email } });
}

async function copyLink(orgSlug: string, byId: string, userId: string) {
  signInAs(byId);
  const result = await copyInvitationLink(orgSlug, { user_id: userId });
  if (!result.ok) throw new Error(`copy refused: ${result.error}`);
  return result.data;
}

/** Uses a link as next-auth's email callback does: the token, by its hash, for the address in the link. */
async function useLink(
  url: string,
  email = new URL(url).searchParams.get("email")!,
  onCopiedInvitation?: (orgId: string) => void,
) {
  const token = new URL(url).searchParams.get("token")!;
  const adapter = await consoleAccountsAdapter({ onCopiedInvitation });
  return adapter.useVerificationToken!({ identifier: email, token: emailTokenHash(token) });
}

async function statusOf(orgId: string, email: string) {
  const row = (await listMembers(orgId)).find((m) => m.email === email);
  return row && (row.joinedAt ? "joined" : "invited");
}

test("an invited member is Invited until they open the organization, then Joined", async () => {
  const { org, owner } = await organization();
  const invitee = await invited(org, owner.id);
  expect(await statusOf(org.id, invitee.email)).toBe("invited");
  const row = (await listMembers(org.id)).find((m) => m.email === invitee.email)!;
  expect(Date.now() - row.invitedAt.getTime()).toBeLessThan(60_000);

  const link = await copyLink(org.slug, owner.id, invitee.id);
  expect(await useLink(link.url)).toMatchObject({ identifier: invitee.email });
  await joined(org.id, invitee.id);
  expect(await statusOf(org.id, invitee.email)).toBe("joined");
  // Nothing to copy once they are in: they sign in like everyone else.
  signInAs(owner.id);
  expect(await copyInvitationLink(org.slug, { user_id: invitee.id })).toMatchObject({
    ok: false,
    error: expect.stringContaining("has already joined"),
  });
});

test("a copied link lasts INVITATION_LINK_LIFETIME_DAYS (7 by default), not the sign-in link's 10 min", async () => {
  const { org, owner } = await organization();
  const invitee = await invited(org, owner.id);
  const prisma = await db();
  const expiresOf = async (url: string) => {
    const hash = emailTokenHash(new URL(url).searchParams.get("token")!);
    return (await prisma.verificationToken.findUniqueOrThrow({ where: { token: hash } })).expires.getTime();
  };

  const week = await copyLink(org.slug, owner.id, invitee.id);
  expect(new Date(week.expires_at).getTime()).toBe(await expiresOf(week.url));
  expect(Math.abs((await expiresOf(week.url)) - (Date.now() + 7 * DAY))).toBeLessThan(60_000);
  expect(new URL(week.url).searchParams.get("callbackUrl")).toMatch(new RegExp(`/${org.slug}$`));

  process.env.INVITATION_LINK_LIFETIME_DAYS = "2";
  const two = await copyLink(org.slug, owner.id, invitee.id);
  expect(Math.abs((await expiresOf(two.url)) - (Date.now() + 2 * DAY))).toBeLessThan(60_000);

  const signIn = await createMagicLink(invitee.email, "/");
  expect(Math.abs((await expiresOf(signIn)) - (Date.now() + 10 * 60_000))).toBeLessThan(60_000);
});

test("a link signs in the invited address only, once; a new link replaces the last", async () => {
  const { org, owner } = await organization();
  const invitee = await invited(org, owner.id);
  const first = await copyLink(org.slug, owner.id, invitee.id);
  const second = await copyLink(org.slug, owner.id, invitee.id);
  // The earlier link (and the mailed one before it) no longer works.
  expect(await useLink(first.url)).toBeNull();
  // Someone else's address with the invitee's token is not a link at all.
  expect(await useLink(second.url, `someone-${unique()}@example.com`)).toBeNull();
  expect(await useLink(second.url)).toMatchObject({ identifier: invitee.email });
  expect(await useLink(second.url)).toBeNull();
});

test("removing an invited member ends their link", async () => {
  const { org, owner } = await organization();
  const invitee = await invited(org, owner.id);
  const link = await copyLink(org.slug, owner.id, invitee.id);
  await removeMember({ orgId: org.id, userId: invitee.id, byRole: "owner" }, SYSTEM_ACTOR);
  expect(await useLink(link.url)).toBeNull();
});

test("joining by another way ends the link still out", async () => {
  const { org, owner } = await organization();
  const invitee = await invited(org, owner.id);
  const link = await copyLink(org.slug, owner.id, invitee.id);
  await joined(org.id, invitee.id);
  expect(await useLink(link.url)).toBeNull();
});

test("only the organization's owners and admins copy or resend, an admin never for an invited owner", async () => {
  const { org, owner, admin, member } = await organization();
  const invitee = await invited(org, owner.id);
  const invitedOwner = await invited(org, owner.id, "owner");
  const prisma = await db();
  const tokenOf = async (userId: string) =>
    (await prisma.membership.findUniqueOrThrow({ where: { orgId_userId: { orgId: org.id, userId } } }))
      .invitationTokenHash;
  const before = await tokenOf(invitee.id);

  signInAs(member.id);
  for (const action of [copyInvitationLink, resendInvitation]) {
    expect(await action(org.slug, { user_id: invitee.id })).toEqual({
      ok: false,
      error: "This needs the owner or admin role; you are member.",
    });
  }
  // An owner of another organization, naming this one's invitee through their own organization.
  const other = await organization();
  signInAs(other.owner.id);
  expect(await copyInvitationLink(other.org.slug, { user_id: invitee.id })).toMatchObject({
    ok: false,
    error: expect.stringContaining("not found"),
  });
  // ... or through this one, which they are not a member of.
  expect(await copyInvitationLink(org.slug, { user_id: invitee.id })).toMatchObject({ ok: false });
  expect(await tokenOf(invitee.id)).toBe(before);

  signInAs(admin.id);
  expect(await copyInvitationLink(org.slug, { user_id: invitedOwner.id })).toMatchObject({
    ok: false,
    error: expect.stringContaining("Only owners"),
  });
  expect((await copyLink(org.slug, admin.id, invitee.id)).url).toContain("/api/auth/callback/email?");
  expect(await copyInvitationLink(org.slug, { user_id: "usr_nobody" })).toMatchObject({ ok: false });
});

test("a link is never copied for an account that is more than the invitation, nor used once it is", async () => {
  const { org, owner } = await organization();
  // Someone who already belongs to another organization: only a mailed link may sign in as them.
  const elsewhere = await organization();
  signInAs(owner.id);
  expect(await invite(org.slug, { email: elsewhere.member.email, role: "member" })).toMatchObject({ ok: true });
  expect(await statusOf(org.id, elsewhere.member.email)).toBe("invited");
  expect(await copyInvitationLink(org.slug, { user_id: elsewhere.member.id })).toMatchObject({
    ok: false,
    error: expect.stringContaining("already has an account"),
  });

  // Copied while invitation-only, then invited elsewhere too: the copied link no longer signs in.
  const invitee = await invited(org, owner.id);
  const link = await copyLink(org.slug, owner.id, invitee.id);
  await inviteMember({ orgId: elsewhere.org.id, email: invitee.email, role: "member" }, SYSTEM_ACTOR);
  expect(await useLink(link.url)).toBeNull();
});

test("resending without a mail server sends nothing and says so; the link out keeps working", async () => {
  const { org, owner } = await organization();
  const invitee = await invited(org, owner.id);
  const link = await copyLink(org.slug, owner.id, invitee.id);
  signInAs(owner.id);
  expect(await resendInvitation(org.slug, { user_id: invitee.id })).toEqual({ ok: true, data: { mailed: false } });
  expect(await useLink(link.url)).toMatchObject({ identifier: invitee.email });
});

test("copying a link is audited, without the link", async () => {
  const { org, owner } = await organization();
  const invitee = await invited(org, owner.id);
  const link = await copyLink(org.slug, owner.id, invitee.id);
  const prisma = await db();
  const rows = await prisma.auditLog.findMany({ where: { orgId: org.id, targetId: invitee.id } });
  expect(rows.map((r) => r.action).sort()).toEqual([
    "member.add",
    "member.invitation_link_copy",
    "member.invitation_link_mail",
  ]);
  expect(JSON.stringify(rows)).not.toContain(new URL(link.url).searchParams.get("token")!);
});

test("a copied link's session opens only its organization and cannot give the account a password", async () => {
  const { org, owner } = await organization();
  const elsewhere = await organization();
  const invitee = await invited(org, owner.id);
  const copiedFor: string[] = [];
  const link = await copyLink(org.slug, owner.id, invitee.id);
  expect(await useLink(link.url, undefined, (orgId) => copiedFor.push(orgId))).toMatchObject({
    identifier: invitee.email,
  });
  // The sign-in learns it was a copied link, of this organization (lib/console/auth.ts makes the session an
  // invitation_link one, confined to it).
  expect(copiedFor).toEqual([org.id]);

  const session = { userId: invitee.id, sessionId: `ses_${unique()}`, method: "invitation_link", ssoOrgId: org.id };
  const policy = { allowPassword: true, allowMagicLink: true, allowSso: true };
  expect(sessionAllowedIn(session as never, { id: org.id, ...policy })).toBe(true);
  // Even once the address is invited elsewhere, the copier's session does not reach that organization.
  expect(sessionAllowedIn(session as never, { id: elsewhere.org.id, ...policy })).toBe(false);

  getServerSession.mockResolvedValue(session);
  expect(await setPasswordAction({ new_password: "a long enough password" })).toMatchObject({
    ok: false,
    error: expect.stringContaining("copied invitation link cannot set a password"),
  });
  const prisma = await db();
  expect((await prisma.user.findUniqueOrThrow({ where: { id: invitee.id } })).passwordHash).toBeNull();
});

test("a mailed invitation link signs in as a link to the address does, not as a copied one", async () => {
  const { org, owner } = await organization();
  const invitee = await invited(org, owner.id);
  const mailed = await issueInvitationLink({ orgId: org.id, userId: invitee.id, copied: false }, SYSTEM_ACTOR);
  const copiedFor: string[] = [];
  expect(await useLink(mailed.url, undefined, (orgId) => copiedFor.push(orgId))).toMatchObject({
    identifier: invitee.email,
  });
  expect(copiedFor).toEqual([]);
});
