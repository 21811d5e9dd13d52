// POST /{org}/namespaces/{namespaceId}/documents/upload — one file of the Documents tab's upload area, its bytes
// as the request's body, its name and declared type in `x-file-name` and `x-file-type` (percent-encoded).
// Neither a server action nor a multipart form: proxy.ts caps those at 1 MB before they reach the console,
// and a document may be DOCUMENT_MAX_BYTES (50 MB). The same Origin rule as server actions guards it, the
// session and the membership are checked and a transfer turn taken before a byte is read, and
// uploadDocumentFile does the rest (role, the POST /documents operation as the signed-in person). Answers the
// action's outcome as JSON.
import { setting } from "@/lib/config";
import { formFailure, type ActionResult } from "@/lib/console/action";
import { uploadDocumentFile } from "@/lib/console/upload-document";
import { serverActionOriginProblem } from "@/lib/console/origin";
import { organizationAccess } from "@/lib/console/session";
import { notFound, PayloadTooLargeError } from "@/lib/errors";
import { requestBody } from "@/lib/http/request-body";
import { spoolToFile } from "@/lib/http/spool";
import { takeTransferSlot, type ReleaseSlot } from "@/lib/http/transfer-slots";
import { UploadedFile } from "@/lib/http/uploaded-file";
import { errorStatus } from "@/lib/http/errors";

export async function POST(request: Request, { params }: { params: Promise<{ org: string; namespaceId: string }> }) {
  const { org, namespaceId } = await params;
  const problem = serverActionOriginProblem(request.headers);
  if (problem) return answer({ ok: false, error: `${problem} Uploads are accepted only from this site.` }, 403);
  const access = await organizationAccess(org);
  if (!access) return answer({ ok: false, error: "Your session has ended. Sign in again." }, 401);
  // Only a member may make the server store bytes, and only in one of the organization's transfer turns, taken
  // before the body is read (a stranger's or a storm's uploads never reach the disk).
  if (!access.membership || access.blocked) return answer(formFailure(notFound(`Organization ${org}`)), 404);
  let release: ReleaseSlot;
  try {
    release = await takeTransferSlot(access.principal.orgId);
  } catch (error) {
    return answer(formFailure(error), errorStatus(error));
  }
  try {
    return await spoolAndAdd(request, org, namespaceId);
  } finally {
    release();
  }
}

async function spoolAndAdd(request: Request, org: string, namespaceId: string): Promise<Response> {
  const maxBytes = setting("DOCUMENT_MAX_BYTES");
  const tooLarge = () => new PayloadTooLargeError(`The document is larger than ${maxBytes} bytes.`);
  let file: UploadedFile;
  try {
    // The operation's own message for a file past the limit, said before more than the limit is read. The
    // bytes go to a temporary file as they arrive, never whole in memory.
    if (Number(request.headers.get("content-length")) > maxBytes) throw tooLarge();
    // Fails as soon as the client goes away, giving the turn back (lib/http/request-body.ts).
    const spooled = await spoolToFile(requestBody(request), maxBytes, tooLarge);
    file = new UploadedFile(
      spooled,
      headerText(request, "x-file-name") || null,
      headerText(request, "x-file-type") || null,
    );
  } catch (error) {
    return answer(formFailure(error), errorStatus(error));
  }
  try {
    return answer(await uploadDocumentFile(org, namespaceId, file, { turnHeld: true }));
  } finally {
    await file.discard();
  }
}

/** A percent-encoded header's text; empty when absent or not valid (the file is then named by its type alone). */
function headerText(request: Request, name: string): string {
  try {
    return decodeURIComponent(request.headers.get(name) ?? "");
  } catch {
    return "";
  }
}

function answer(result: ActionResult<unknown>, status = 200): Response {
  return Response.json(result, { status, headers: { "cache-control": "no-store" } });
}
