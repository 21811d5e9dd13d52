// The Documents tab's server actions called directly, as a browser could (any arguments): another
// organization's namespace or document, another namespace's document and a namespace not granted to a member
// are "not found" and nothing changes; an allowed upload (what the upload route runs), URL and deletion do
// what the API does.
import { beforeAll, beforeEach, describe, expect, test, vi } from "vitest";
import { api } from "../helpers/api";
import { addDocument, processDocuments } from "../helpers/documents";
import { createNamespace, createTenant } from "../helpers/fixtures";

const getServerSession = vi.hoisted(() => vi.fn());
vi.mock("next-auth", () => ({ getServerSession }));
vi.mock("@/lib/console/auth", () => ({ authOptions: async () => ({}) }));
vi.mock("next/cache", () => ({ revalidatePath: vi.fn() }));

const { addDocumentUrl, deleteDocument, refreshDocument } = await import("@/lib/console/actions/documents");
const { uploadDocumentFile } = await import("@/lib/console/upload-document");
const { UploadedFile } = await import("@/lib/http/uploaded-file");
const { db } = await import("@/lib/db");
const { SYSTEM_ACTOR } = await import("@/lib/audit/audit");
const { createUser } = await import("@/lib/orgs/users");
const { addMember } = await import("@/lib/orgs/members");

async function person(orgId: string, role: "owner" | "admin" | "member") {
  const user = await createUser({ email: `${role}-${Math.random().toString(36).slice(2)}@x.test` });
  await addMember({ orgId, userId: user.id, role }, SYSTEM_ACTOR);
  return user;
}

function signedInAs(userId: string) {
  getServerSession.mockResolvedValue({ userId, sessionId: "ses_test", method: "password" });
}

/** What the Documents tab's upload route does with the file the browser sends. */
function uploadDocument(
  orgSlug: string,
  namespaceId: string,
  content: string,
  name = "notes.md",
  type = "text/markdown",
) {
  return uploadDocumentFile(orgSlug, namespaceId, new UploadedFile(Buffer.from(content), name, type));
}

async function documentCount(namespaceId: string) {
  return (await db()).document.count({ where: { namespaceId } });
}

let a: Awaited<ReturnType<typeof createTenant>>;
let b: Awaited<ReturnType<typeof createTenant>>;
let nsA: { id: string };
let otherNsA: { id: string };
let nsB: { id: string };
let adminA: { id: string };
let memberA: { id: string };
let adminB: { id: string };

beforeAll(async () => {
  a = await createTenant("Acme Documents");
  b = await createTenant("Beta Documents");
  nsA = await createNamespace(a.key);
  otherNsA = await createNamespace(a.key);
  nsB = await createNamespace(b.key);
  adminA = await person(a.org.id, "admin");
  memberA = await person(a.org.id, "member");
  adminB = await person(b.org.id, "admin");
});
beforeEach(() => getServerSession.mockReset());

describe("the Documents tab's actions", () => {
  test("an admin uploads a file and adds a URL; the refusals are the API's", async () => {
    signedInAs(adminA.id);
    const uploaded = await uploadDocument(a.org.slug, nsA.id, "# Rota\n\nThe kitchen is cleaned on Fridays.\n");
    expect(uploaded).toMatchObject({ ok: true, data: { status: "queued" } });
    await processDocuments();
    const recall = await api("POST", "/recall", {
      key: a.key,
      body: { namespace_id: nsA.id, query: "kitchen cleaned" },
    });
    expect(recall.body.data[0].document).toMatchObject({ section: "Rota" });

    const zip = await uploadDocument(a.org.slug, nsA.id, "PK\u0003\u0004zip", "a.zip", "application/zip");
    expect(zip).toMatchObject({ ok: false, error: expect.stringMatching(/not of a type we read.*application\/pdf/) });
    const metadata = await addDocumentUrl(a.org.slug, { namespace_id: nsA.id, url: "https://169.254.169.254/x" });
    expect(metadata).toMatchObject({ ok: false });
    expect(await documentCount(nsA.id)).toBe(1);
  });

  test("forged ids: another organization's namespace or document, another namespace's: not found", async () => {
    const documentA = await addDocument(a.key, { namespace_id: nsA.id, content_type: "text/plain", content: "Acme." });
    const documentB = await addDocument(b.key, { namespace_id: nsB.id, content_type: "text/plain", content: "Beta." });
    const attempts: [{ id: string }, string, Record<string, unknown>][] = [
      [adminA, a.org.slug, { namespace_id: nsB.id, document_id: documentB.id }],
      [adminA, a.org.slug, { namespace_id: nsA.id, document_id: documentB.id }],
      [adminA, a.org.slug, { namespace_id: otherNsA.id, document_id: documentA.id }],
      [adminB, b.org.slug, { namespace_id: nsA.id, document_id: documentA.id }],
      [adminB, b.org.slug, { namespace_id: nsB.id, document_id: documentA.id }],
      // A member without a grant on the namespace.
      [memberA, a.org.slug, { namespace_id: nsA.id, document_id: documentA.id }],
    ];
    for (const [user, slug, form] of attempts) {
      signedInAs(user.id);
      for (const action of [deleteDocument, refreshDocument]) {
        const result = await action(slug, form);
        expect(result, JSON.stringify(form)).toEqual({ ok: false, error: expect.stringMatching(/not found/) });
      }
    }
    // Uploads into another organization's namespace, or by a member without a grant: not found either.
    signedInAs(adminA.id);
    expect(await uploadDocument(a.org.slug, nsB.id, "x")).toMatchObject({ ok: false });
    expect(await uploadDocument(b.org.slug, nsB.id, "x")).toMatchObject({ ok: false });
    signedInAs(memberA.id);
    expect(await addDocumentUrl(a.org.slug, { namespace_id: nsA.id, url: "https://198.51.101.7/" })).toMatchObject({
      ok: false,
    });
    expect(await (await db()).document.count({ where: { id: { in: [documentA.id, documentB.id] } } })).toBe(2);
    expect(await documentCount(nsB.id)).toBe(1);

    signedInAs(adminA.id);
    const deleted = await deleteDocument(a.org.slug, { namespace_id: nsA.id, document_id: documentA.id });
    expect(deleted).toMatchObject({ ok: true });
    expect((await api("GET", `/documents/${documentA.id}`, { key: a.key })).status).toBe(404);
  });
});

describe("the upload route (the Documents tab's file upload)", () => {
  const route = () => import("@/app/[org]/namespaces/[namespaceId]/documents/upload/route");

  /** A POST of `content` to the route, whose body records whether anything read it. */
  function uploadRequest(orgSlug: string, namespaceId: string, content: string) {
    const body = { read: false };
    // No queue: pulled only when something reads it.
    const stream = new ReadableStream<Uint8Array>(
      {
        pull(controller) {
          body.read = true;
          controller.enqueue(new TextEncoder().encode(content));
          controller.close();
        },
      },
      { highWaterMark: 0 },
    );
    const request = new Request(`http://console.test/${orgSlug}/namespaces/${namespaceId}/documents/upload`, {
      method: "POST",
      headers: { origin: "http://console.test", host: "console.test", "x-file-name": "notes.md" },
      body: stream,
      duplex: "half",
    } as RequestInit);
    return { request, body, params: { params: Promise.resolve({ org: orgSlug, namespaceId }) } };
  }

  test("a non-member is not found before a byte of the body is read; a member's file is added", async () => {
    const { POST } = await route();
    signedInAs(adminB.id);
    const stranger = uploadRequest(a.org.slug, nsA.id, "# Notes\n\nFrom outside.");
    const before = await documentCount(nsA.id);
    const refused = await POST(stranger.request, stranger.params);
    expect(refused.status).toBe(404);
    expect(await refused.json()).toMatchObject({ ok: false });
    expect(stranger.body.read).toBe(false);
    expect(await documentCount(nsA.id)).toBe(before);

    signedInAs(adminA.id);
    const member = uploadRequest(a.org.slug, nsA.id, "# Notes\n\nFrom a member.");
    const added = await POST(member.request, member.params);
    expect(added.status).toBe(200);
    expect(await added.json()).toMatchObject({ ok: true, data: { status: "queued" } });
    expect(await documentCount(nsA.id)).toBe(before + 1);
  });
});
