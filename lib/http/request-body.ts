// A request's body as a Node stream that fails as soon as its client goes away. A body stream does not always
// say so itself: one Next has copied (a request that passed through proxy.ts) just stops, never ending or
// failing, and a reader waiting on it held its transfer turn (lib/http/transfer-slots.ts) and its temporary file
// for good. The request's signal does say so: Next aborts it when the connection closes before the answer.
import { Readable } from "node:stream";
import { InvalidError } from "@/lib/errors";

/** What a body read fails with when its client went away before sending it whole. */
export function bodyCutOff(): InvalidError {
  return new InvalidError("The request body was not received whole: the client went away before sending it.");
}

/**
 * `request`'s body as a Node Readable (empty without one) that is destroyed with bodyCutOff() when the request's
 * signal aborts, so whatever reads it (a spool to disk, a parser) fails at once and gives back what it holds.
 */
export function requestBody(request: Request): Readable {
  const body = request.body ? Readable.fromWeb(request.body as never) : Readable.from([]);
  const gone = () => body.destroy(bodyCutOff());
  if (request.signal.aborted) gone();
  else {
    request.signal.addEventListener("abort", gone, { once: true });
    body.once("close", () => request.signal.removeEventListener("abort", gone));
  }
  return body;
}
