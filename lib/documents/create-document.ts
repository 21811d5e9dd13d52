import type { ActivityNote } from "@/lib/activity/activity";
import type { Principal } from "@/lib/auth/principal";
import { setting } from "@/lib/config";
import { db } from "@/lib/db";
import { InvalidError, PayloadTooLargeError, UnsupportedMediaTypeError } from "@/lib/errors";
import { keepAnswerWithWrite } from "@/lib/http/request-writes";
import { newId } from "@/lib/ids";
import { enqueueJob, wakeJobWorkers } from "@/lib/jobs/queue";
import { effectiveScopes } from "@/lib/memory/common/scopes";
import { resolveTarget } from "@/lib/namespaces/namespaces";
import { checkOutboundDestination } from "@/lib/net/fetch-outbound";
import { DOCUMENT_FIELDS, documentJson } from "./document-json";
import { deleteOriginalParts, writeOriginalParts } from "@/lib/documents/document-originals";
import { ingestionJob } from "@/lib/documents/ingestion-job";
import { detectContentType, notTextReason, SUPPORTED_CONTENT_TYPES } from "./extract";
import { BASE64, type CreateDocumentBody } from "./schemas";

/** What a document is made from: bytes given now (in memory, or spooled to disk), or a URL its processing fetches. */
type Source =
  | { url: string }
  | { content: Uint8Array | AsyncIterable<Uint8Array>; size: number; contentType: string; filename: string | null };

/**
 * Takes a document (a file, inline content or a URL) into a namespace the principal may write to, within its
 * scopes: checks it now (its type is one we read, its size within DOCUMENT_MAX_BYTES, a URL's destination
 * public), writes its bytes as the parts of its original (lib/documents/document-originals.ts: short statements,
 * another organization's go in between), then stores it queued with the job that processes it, in one short
 * transaction (under an Idempotency-Key, the answer too: a retry after a crash finds the same document). The
 * document exists only once its original is whole; parts of one that fails on the way are deleted (after a
 * crash, by the sweep).
 */
export async function createDocument(principal: Principal, body: CreateDocumentBody, activity: ActivityNote = {}) {
  const namespace = await resolveTarget(principal, body);
  activity.namespaceId = namespace.id;
  activity.identityId = body.identity_id ?? null;
  const scopes = effectiveScopes(principal.scopes, body.scopes);
  const source = await sourceOf(body);
  const id = newId("doc");
  const original = { orgId: principal.orgId, documentId: id };
  const prisma = await db();
  try {
    if ("content" in source) await writeOriginalParts(original, source.content);
    const document = await prisma.$transaction(async (tx) => {
      const created = await tx.document.create({
        data: {
          id,
          orgId: principal.orgId,
          namespaceId: namespace.id,
          identityId: body.identity_id ?? null,
          apiKeyId: principal.kind === "api_key" ? principal.keyId : null,
          createdByUserId: principal.kind === "member" ? principal.userId : null,
          title: body.title ?? null,
          scopes,
          metadata: body.metadata ?? {},
          status: "queued",
          ...("url" in source
            ? { sourceUrl: source.url }
            : { byteSize: source.size, contentType: source.contentType, filename: source.filename }),
        },
        select: DOCUMENT_FIELDS,
      });
      await enqueueJob(ingestionJob(created), tx);
      await keepAnswerWithWrite(tx, 202, documentJson(created));
      return created;
    });
    wakeJobWorkers();
    return document;
  } catch (error) {
    if ("content" in source) await deleteOriginalParts(original).catch(() => undefined);
    throw error;
  }
}

async function sourceOf(body: CreateDocumentBody): Promise<Source> {
  if (body.url !== undefined) return { url: (await checkOutboundDestination(body.url)).toString() };
  const inline = body.file ? undefined : contentBytes(body.content!, body.content_encoding ?? "utf8");
  const size = body.file ? body.file.size : inline!.length;
  const maxBytes = setting("DOCUMENT_MAX_BYTES");
  if (size > maxBytes) throw new PayloadTooLargeError(`The document is larger than ${maxBytes} bytes.`);
  if (size === 0) throw new InvalidError("The file is empty.", [{ field: "body.file", message: "is empty" }]);
  const filename = body.filename ?? body.file?.name ?? null;
  const declared = body.file ? body.file.type : body.content_type!;
  // A spooled upload is told by its start and end (all of it is never in memory); a NUL anywhere in it says
  // it is no text, as it does for bytes checked whole.
  const sample = body.file ? body.file.sample : inline!;
  const checked = body.file?.hasNul && !sample.includes(0) ? Buffer.concat([sample, Buffer.from([0])]) : sample;
  const contentType = detectContentType(checked, declared ?? null, filename);
  if (!contentType) throw unsupported(declared ?? filename, notTextReason(checked, declared ?? null, filename));
  return { content: body.file ? body.file.content() : inline!, size, contentType, filename };
}

/**
 * The 415 for a document none of whose claims is a type we read, or (`notText`, from notTextReason) whose bytes
 * are not the text they claim to be: 415 too, since the content is not in a format this route reads, found by
 * reading it (RFC 9110 §15.5.16), and the message says what is wrong with it.
 */
export function unsupported(given: string | null, notText: string | null = null): UnsupportedMediaTypeError {
  const what = given ? `This document (${given.slice(0, 100)})` : "This document";
  if (notText) return new UnsupportedMediaTypeError(`${what} cannot be read as text. ${notText}`);
  return new UnsupportedMediaTypeError(
    `${what} is not of a type we read. Supported: ${SUPPORTED_CONTENT_TYPES.join(", ")}.`,
  );
}

function contentBytes(content: string, encoding: "utf8" | "base64"): Buffer {
  if (encoding === "utf8") return Buffer.from(content, "utf8");
  if (!BASE64.test(content)) {
    throw new InvalidError("The content is not valid base64.", [{ field: "body.content", message: "is not base64" }]);
  }
  return Buffer.from(content.replace(/\s+/g, ""), "base64");
}
