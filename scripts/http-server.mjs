// The HTTP server in front of Next. What Node's HTTP layer answers by itself (431, malformed requests)
// and what Next answers badly under /api/v1 (a malformed URL: a plain-text 500; an unknown method: an
// empty 400 or a plain-text 500) go out in the API's JSON envelope; a page's malformed URL is a plain 400
// (Next: 500); and it drains on shutdown.
import { randomBytes } from "node:crypto";
import http from "node:http";

// Next routes these to the API's handlers, which answer every one of them in the envelope.
const API_METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"];
/** The socket peer's address, for lib/net/client-address.ts (its CLIENT_ADDRESS_HEADER). */
export const CLIENT_ADDRESS_HEADER = "x-memgw-client-address";
/**
 * A streamed body's length, said by the app (lib/http/file-body.ts, its BODY_LENGTH_HEADER): Next drops a route's
 * own Content-Length and sends its stream chunked, so a client (or a resumed download) would not know the size.
 */
export const BODY_LENGTH_HEADER = "x-memgw-content-length";
const API_HEADERS = { "content-type": "application/json", "cache-control": "no-store, no-transform" };

// Node's own answers to a request it cannot parse, by the parser's error code; any other code is a 400.
const CLIENT_ERRORS = {
  HPE_HEADER_OVERFLOW: {
    status: 431,
    code: "REQUEST_HEADERS_TOO_LARGE",
    message: `The request's headers are larger than ${http.maxHeaderSize} bytes.`,
  },
  HPE_CHUNK_EXTENSIONS_OVERFLOW: { status: 413, code: "PAYLOAD_TOO_LARGE", message: "Chunk extensions too long." },
  ERR_HTTP_REQUEST_TIMEOUT: { status: 408, code: "REQUEST_TIMEOUT", message: "The request was not received in time." },
};
const MALFORMED_REQUEST = {
  status: 400,
  code: "BAD_REQUEST",
  message: "The HTTP request is malformed.",
  details: [{ field: "request", message: "is not valid HTTP/1.1" }],
};

const INTERNAL_ERROR = {
  status: 500,
  code: "INTERNAL_SERVER_ERROR",
  message: "Something went wrong on our side. Please try again.",
};

/**
 * Headers in which proxies say what the client asked for and from where. Next reads some of them itself (its
 * own server-action Origin check, the request's protocol), so from a peer that is not a trusted proxy they are
 * removed before Next sees the request: anyone could have written them (lib/net/client-address.ts).
 */
const FORWARDED_HEADERS = [
  "forwarded",
  "x-forwarded-for",
  "x-forwarded-host",
  "x-forwarded-proto",
  "x-forwarded-port",
  "x-forwarded-prefix",
  "x-real-ip",
];

/**
 * What this server answers itself never reaches the API's handlers: it names the request as they do
 * (lib/http/request-id.ts), with a new id, since a request Node cannot parse has no header to trust.
 */
const newRequestId = () => `req_${randomBytes(12).toString("base64url")}`;

function envelope({ code, message, details }, requestId) {
  const error = { code, message, ...(details ? { details } : {}), request_id: requestId };
  return JSON.stringify({ success: false, error });
}

/** The path of a request target, in origin form (`/a?b`) or absolute form (`http://host/a?b`). */
function targetPath(target) {
  const authority = /^[a-z][a-z\d+.-]*:\/\/[^/?#]*/i.exec(target);
  return (authority ? target.slice(authority[0].length) : target).split(/[?#]/, 1)[0];
}

/** Under /api/v1 as Next routes it (`/api/v1x` is a console path; `/api/v1%…` is not, but is no page either). */
export function isApiPath(target) {
  return /^\/api\/v1(?![\w.~-])/.test(targetPath(target));
}

/**
 * An API target without the slashes that end its path (`/api/v1/documents/?page=2` → `/api/v1/documents?page=2`):
 * no route of the API ends with one, and Next would answer a 308 in plain text to a client that may not follow it
 * (a POST client rarely does). Origin form only; any other target is returned as it is.
 */
function withoutTrailingSlash(target) {
  if (!target.startsWith("/")) return target;
  const queryStart = target.search(/[?#]/);
  const path = queryStart === -1 ? target : target.slice(0, queryStart);
  const trimmed = path.replace(/\/+$/, "");
  return trimmed === path ? target : trimmed + (queryStart === -1 ? "" : target.slice(queryStart));
}

/** Why part of a URL (`path` or `query`) is malformed, if it is. */
function urlProblem(part) {
  // Node passes bytes outside ASCII through; a URL has none (they are percent-encoded).
  if (/[^\x21-\x7e]/.test(part)) return "contains characters that must be percent-encoded";
  try {
    decodeURIComponent(part);
  } catch {
    return "has malformed percent-encoding: a % not followed by two hex digits, or bytes that are not UTF-8";
  }
  if (/%00/.test(part)) return "contains an encoded NUL character (%00)";
  return undefined;
}

/** Why an API request cannot be handled at all, as an error with its status; undefined when it can. */
function apiRequestProblem(request) {
  const target = request.url ?? "";
  if (!isApiPath(target)) return undefined;
  const path = targetPath(target);
  const queryStart = target.search(/[?#]/);
  const query = queryStart === -1 ? "" : target.slice(queryStart);
  const details = Object.entries({ path, query })
    .map(([field, part]) => ({ field, message: urlProblem(part) }))
    .filter((detail) => detail.message);
  if (details.length > 0) {
    const message = `Malformed URL. ${details.map((d) => `${d.field}: ${d.message}`).join("; ")}`;
    return { status: 400, code: "BAD_REQUEST", message, details };
  }
  if (!API_METHODS.includes(request.method)) {
    const message = `${request.method} is not an HTTP method of this API.`;
    return { status: 405, code: "METHOD_NOT_ALLOWED", message, headers: { allow: API_METHODS.join(", ") } };
  }
  return undefined;
}

/**
 * Why a console page's URL is malformed, if it is: Next answers a malformed percent-encoding in a page's
 * path with a 500 before any page code runs.
 */
function pageRequestProblem(request) {
  const target = request.url ?? "";
  if (isApiPath(target)) return undefined;
  try {
    decodeURIComponent(targetPath(target));
    return undefined;
  } catch {
    return "the URL's path has malformed percent-encoding (a % without two hex digits, or bytes that are not UTF-8).";
  }
}

function sendEnvelope(response, error, requestId = newRequestId()) {
  const body = envelope(error, requestId);
  const headers = { ...API_HEADERS, ...error.headers, "request-id": requestId };
  response.writeHead(error.status, { ...headers, "content-length": Buffer.byteLength(body) });
  response.end(body);
}

/**
 * Makes the app's BODY_LENGTH_HEADER the response's Content-Length as its head goes out (writeHead, which Node's
 * first write calls too), the private header removed. Not when the body is encoded on the way (compressed: its
 * length is another) or the value is not a length.
 */
function sendBodyLength(response) {
  const writeHead = response.writeHead;
  response.writeHead = function (...args) {
    const length = response.getHeader(BODY_LENGTH_HEADER);
    if (length !== undefined) {
      response.removeHeader(BODY_LENGTH_HEADER);
      const encoded = response.hasHeader("content-encoding") || response.hasHeader("transfer-encoding");
      if (!encoded && /^\d{1,15}$/.test(String(length))) {
        response.setHeader("content-length", String(length));
        // A body that turns out longer or shorter than said is an error, never bytes on a kept-alive connection
        // that its client would take for the next response.
        response.strictContentLength = true;
      }
    }
    return writeHead.apply(this, args);
  };
}

/** The handler `directRoute` gives for the request's method and path (origin form, as sent), if any. */
function directHandler(request, directRoute) {
  const target = request.url ?? "";
  if (!target.startsWith("/")) return undefined;
  const queryStart = target.search(/[?#]/);
  return directRoute(request.method, queryStart === -1 ? target : target.slice(0, queryStart));
}

/**
 * A request's body as a web stream, read from the request only as its reader asks (a high-water mark of 0: nothing
 * is read ahead). A handler that answers without reading it (a 413 for a declared length past the limit, a 401) leaves
 * the request unread, and Node discards the rest of it once the answer is out, as it does for Next's routes, so the
 * client can finish sending and read the answer on a connection still usable. `discard()` does the same for a body
 * the handler began and left, and a cancelled stream discards what is left rather than cutting the connection.
 */
function bodyStream(request) {
  let controller;
  let listening = false;
  const stop = () => request.off("data", onData).off("end", onEnd).off("close", onClose);
  const discard = () => {
    stop();
    if (!request.readableEnded && !request.destroyed) request.resume();
  };
  function onData(chunk) {
    request.pause();
    controller.enqueue(chunk);
  }
  function onEnd() {
    stop();
    controller.close();
  }
  // Closed before its end: the client went away (the handler's signal says so too).
  function onClose() {
    stop();
    controller.error(new Error("The client went away before sending the whole body."));
  }
  const stream = new ReadableStream(
    {
      start: (given) => void (controller = given),
      pull() {
        if (!listening) {
          listening = true;
          request.on("data", onData).once("end", onEnd).once("close", onClose);
        }
        request.resume();
      },
      cancel: discard,
    },
    { highWaterMark: 0 },
  );
  return { stream, discard: () => listening && discard() };
}

/**
 * Runs a route handler (`(request: Request, context) => Response`) on a Node request, as Next would: the headers
 * as this server left them (forwarded ones removed, the client's address added), the body as a stream (bodyStream),
 * the request's signal aborted when the client goes away before its answer. The answer goes out whole, with its
 * length: the direct routes answer JSON (a route that streams its answer must not be one of them).
 */
async function serveDirect(handler, request, response) {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one);
  }
  const aborted = new AbortController();
  response.once("close", () => response.writableFinished || aborted.abort());
  const body = request.method === "GET" || request.method === "HEAD" ? undefined : bodyStream(request);
  const answer = await handler(
    new Request(`http://localhost${request.url}`, {
      method: request.method,
      headers,
      body: body?.stream,
      duplex: "half",
      signal: aborted.signal,
    }),
    { params: Promise.resolve({}) },
  );
  response.setHeaders(answer.headers);
  response.statusCode = answer.status;
  const bytes = answer.body ? Buffer.from(await answer.arrayBuffer()) : undefined;
  body?.discard();
  if (bytes) response.setHeader("content-length", bytes.byteLength);
  response.end(bytes);
}

/**
 * An HTTP server handing requests to Next's `handle`. `drain(ms)` stops accepting connections, lets the
 * requests in flight finish (closing each connection once it is idle), and cuts what is left after `ms`.
 * `isTrustedProxy(address)` says whether a peer is one of TRUSTED_PROXIES (none when not given): only their
 * forwarded headers reach Next and the app. `directRoute(method, path)` gives the handler of a route served without
 * Next (lib/api/direct-routes.ts), if the request's is one.
 */
export function createGatewayServer(handle, { isTrustedProxy = () => false, directRoute = () => undefined } = {}) {
  let draining = false;
  const server = http.createServer((request, response) => {
    if (draining) response.setHeader("connection", "close");
    // Once its response is out, a kept-alive connection is idle: close it rather than wait for its timeout.
    response.on("finish", () => draining && setImmediate(() => server.closeIdleConnections()));
    const problem = apiRequestProblem(request);
    if (problem) return sendEnvelope(response, problem);
    if (isApiPath(request.url ?? "")) request.url = withoutTrailingSlash(request.url ?? "");
    const pageProblem = pageRequestProblem(request);
    if (pageProblem) {
      return response
        .writeHead(400, { "content-type": "text/plain; charset=utf-8" })
        .end(`400 Bad Request: ${pageProblem}`);
    }
    // Route handlers cannot see the socket: hand its peer address over in a header a client cannot
    // forge (any copy it sent is replaced). lib/net/client-address.ts reads it.
    request.headers[CLIENT_ADDRESS_HEADER] = request.socket.remoteAddress ?? "";
    if (!isTrustedProxy(request.socket.remoteAddress ?? "")) {
      for (const name of FORWARDED_HEADERS) delete request.headers[name];
    } else {
      // The value the trusted proxy saw is its list's last (one that appends keeps its client's to the left):
      // Next reads the first, so it is given that one alone and agrees with lib/net/client-address.ts.
      for (const name of ["x-forwarded-host", "x-forwarded-proto", "x-forwarded-port"]) {
        const value = request.headers[name];
        if (typeof value === "string") request.headers[name] = value.split(",").at(-1).trim();
      }
    }
    sendBodyLength(response);
    const route = directHandler(request, directRoute);
    const served = route ? serveDirect(route, request, response) : handle(request, response);
    Promise.resolve(served).catch((error) => {
      const requestId = newRequestId();
      console.error(`[memgw] request failed (request ${requestId}):`, error);
      if (response.headersSent) return response.destroy();
      if (isApiPath(request.url ?? "")) return sendEnvelope(response, INTERNAL_ERROR, requestId);
      response.writeHead(500, { "content-type": "text/plain" }).end("Internal Server Error");
    });
  });

  // A kept-alive connection stays open 65 s idle, not Node's 5 s. A client or proxy that sends on a pooled connection
  // just as the server closes it gets "other side closed" or a reset (ECONNRESET) instead of an answer, and clients
  // (undici keeps the Keep-Alive hint's timeout less a second) or load balancers (commonly 60 s idle) that keep a
  // connection longer than the server, or whose own timer runs late on a busy event loop, meet that race. At 5 s the
  // test suite met it in almost every full run: a remember sent a few seconds into an upload storm, by a client whose
  // event loop was busy sending the uploads, on the connection its previous call had left idle.
  server.keepAliveTimeout = 65_000;

  server.on("clientError", (error, socket) => {
    // Mid-response (a pipelined request after one being answered), a reply would corrupt the stream.
    if (error.code === "ECONNRESET" || !socket.writable || socket._httpMessage?._headerSent) return socket.destroy();
    const problem = CLIENT_ERRORS[error.code] ?? MALFORMED_REQUEST;
    const requestId = newRequestId();
    const body = envelope(problem, requestId);
    const head = [`HTTP/1.1 ${problem.status} ${http.STATUS_CODES[problem.status]}`];
    for (const [name, value] of Object.entries({ ...API_HEADERS, "request-id": requestId }))
      head.push(`${name}: ${value}`);
    head.push(`content-length: ${Buffer.byteLength(body)}`, "connection: close");
    socket.end(`${head.join("\r\n")}\r\n\r\n${body}`);
  });

  server.drain = (timeoutMs) =>
    new Promise((resolve) => {
      draining = true;
      const deadline = setTimeout(() => {
        console.error(`[memgw] requests still running after ${timeoutMs / 1000} s are cut off.`);
        server.closeAllConnections();
      }, timeoutMs);
      server.close(() => {
        clearTimeout(deadline);
        resolve();
      });
      server.closeIdleConnections();
    });
  return server;
}
