// GET /{org}/namespaces/{namespaceId}/documents/{documentId}/original — the document's original file, for the
// signed-in member who may see it: GET /documents/{id}/content's operation, answered as that route answers it
// (always a download, its type never sniffed, in a sandbox), so a file someone uploaded never runs as a page of
// the console's origin. Not signed in: to sign-in; not a member, not visible, or another namespace's: 404.
import { organizationAccess } from "@/lib/console/session";
import { getDocument } from "@/lib/documents/get-document";
import { notFound } from "@/lib/errors";
import { toErrorResponse } from "@/lib/http/envelope";
import { fileResponse } from "@/lib/http/file-body";
import { headOf } from "@/lib/http/methods";
import { operations } from "@/lib/operations/catalogue";
import { runOperation } from "@/lib/operations/run";

export async function GET(
  request: Request,
  { params }: { params: Promise<{ org: string; namespaceId: string; documentId: string }> },
) {
  const { org, namespaceId, documentId } = await params;
  try {
    const access = await organizationAccess(org);
    if (!access) {
      const back = new URL(request.url).pathname;
      return new Response(null, {
        status: 303,
        headers: { location: `/sign-in?callbackUrl=${encodeURIComponent(back)}` },
      });
    }
    if (!access.membership || access.blocked) throw notFound(`Document ${documentId}`);
    const document = await getDocument(access.principal, documentId);
    if (document.namespaceId !== namespaceId) throw notFound(`Document ${documentId}`);
    const { file } = await runOperation(operations.documentContent, access.principal, { params: { id: document.id } });
    if (!file) throw notFound(`Document ${documentId}'s original`);
    return fileResponse(file, 200, { "cache-control": "private, no-store, no-transform" });
  } catch (error) {
    return toErrorResponse(error);
  }
}

export const HEAD = headOf(GET);
