import type { IncomingMessage, ServerResponse } from "node:http";
import { Readable, Writable } from "node:stream";

/**
 * oidc-provider is a Koa application: it handles Node's request and response objects, while the gateway's
 * routes (Next's route handlers, and the tests calling them) speak the Fetch API. These adapt one to the
 * other for the few calls an authorization server gets: the request's body is read in full first (the
 * API's body limit applies before), and the response is collected and returned once Koa ends it.
 */
export interface NodeRequestInit {
  method: string;
  /** Path and query, as a Node request's `url`. */
  url: string;
  headers: Headers;
  body?: Buffer;
  /** Whether the public address is https: cookies are marked Secure then (Koa's `ctx.secure`). */
  secure: boolean;
  remoteAddress?: string;
}

export function nodeRequest(init: NodeRequestInit): IncomingMessage {
  const request = Readable.from(init.body && init.body.length > 0 ? [init.body] : []) as Readable &
    Record<string, unknown>;
  const headers: Record<string, string> = {};
  init.headers.forEach((value, name) => {
    headers[name] = value;
  });
  if (init.body) headers["content-length"] = String(init.body.length);
  const socket = { encrypted: init.secure, remoteAddress: init.remoteAddress ?? "127.0.0.1" };
  Object.assign(request, {
    method: init.method,
    url: init.url,
    headers,
    httpVersion: "1.1",
    httpVersionMajor: 1,
    httpVersionMinor: 1,
    socket,
    connection: socket,
  });
  return request as unknown as IncomingMessage;
}

/** A Node response that keeps what is written, to become a Fetch Response when it ends. */
export class CollectedResponse extends Writable {
  statusCode = 200;
  statusMessage = "";
  readonly socket = null;
  private readonly headerValues = new Map<string, number | string | string[]>();
  private readonly chunks: Buffer[] = [];
  private started = false;
  readonly ended: Promise<void>;

  constructor() {
    super();
    this.ended = new Promise((resolve, reject) => {
      this.once("finish", resolve);
      this.once("error", reject);
    });
  }

  get headersSent() {
    return this.started;
  }

  setHeader(name: string, value: number | string | string[]) {
    this.headerValues.set(name.toLowerCase(), value);
    return this;
  }

  getHeader(name: string) {
    return this.headerValues.get(name.toLowerCase());
  }

  getHeaders() {
    return Object.fromEntries(this.headerValues);
  }

  getHeaderNames() {
    return [...this.headerValues.keys()];
  }

  hasHeader(name: string) {
    return this.headerValues.has(name.toLowerCase());
  }

  removeHeader(name: string) {
    this.headerValues.delete(name.toLowerCase());
  }

  writeHead(status: number, headers?: Record<string, number | string | string[]>) {
    this.statusCode = status;
    for (const [name, value] of Object.entries(headers ?? {})) this.setHeader(name, value);
    this.started = true;
    return this;
  }

  flushHeaders() {
    this.started = true;
  }

  override _write(chunk: Buffer | string, encoding: BufferEncoding, callback: () => void) {
    this.started = true;
    this.chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk, encoding));
    callback();
  }

  /** The Fetch Response, once the application has ended this one. */
  async toResponse(): Promise<Response> {
    await this.ended;
    const headers = new Headers();
    for (const [name, value] of this.headerValues) {
      for (const one of Array.isArray(value) ? value : [value]) headers.append(name, String(one));
    }
    const bodyless = this.statusCode === 204 || this.statusCode === 304;
    return new Response(bodyless ? null : Buffer.concat(this.chunks), { status: this.statusCode, headers });
  }
}

/** Runs a Node request handler (a Koa app's `callback()`) on a Fetch Request's parts. */
export async function runNodeHandler(
  handler: (request: IncomingMessage, response: ServerResponse) => unknown,
  init: NodeRequestInit,
): Promise<Response> {
  const response = new CollectedResponse();
  await handler(nodeRequest(init), response as unknown as ServerResponse);
  return response.toResponse();
}
