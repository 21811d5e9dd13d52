import { parseNdjson, ndjsonBody, type NdjsonSource } from "./ndjson.ts";
import { Transport, type CallOptions, type ClientOptions, type RequestSpec } from "./transport.ts";
import type { BodyOf, CursorPage, DataOf, ExportLine, Page, QueryOf } from "./types.ts";

type Without<T, K extends PropertyKey> = Omit<T, K & keyof T>;
/** The items of a list, read a page at a time as the loop asks for them. */
export type Items<T> = AsyncGenerator<T, void, undefined>;

/** Every item of a paged list, page after page, until a page comes back short or past the last. */
async function* everyPage<T>(read: (page: number) => Promise<Page<T>>): Items<T> {
  for (let page = 1; ; page++) {
    const { data, pagination } = await read(page);
    yield* data;
    if (data.length === 0 || page >= pagination.totalPages) return;
  }
}

/** Every item of a list paged by cursor, following `nextCursor` until it is null. */
async function* everyCursorPage<T>(read: (cursor: string | undefined) => Promise<CursorPage<T>>): Items<T> {
  let cursor: string | undefined;
  do {
    const { data, pagination } = await read(cursor);
    yield* data;
    cursor = pagination.nextCursor ?? undefined;
  } while (cursor);
}

const path = (template: string, ...ids: string[]) => {
  let index = 0;
  return template.replace(/\{\w+\}/g, () => encodeURIComponent(ids[index++]));
};

/** The memory of a namespace: one content, a batch, or a conversation's turns. */
type RememberOne = BodyOf<"remember"> & { content: string; memories?: undefined; messages?: undefined };
type RememberMany = BodyOf<"remember"> & ({ memories: unknown[] } | { messages: unknown[] });

/**
 * A client of one Memory Gateway API key. Each method is one API operation; failures throw a
 * MemoryGatewayError subclass (BadRequestError, NotFoundError, RateLimitError, …).
 */
export class MemoryGateway {
  readonly namespaces: Namespaces;
  readonly memories: Memories;
  readonly documents: Documents;
  readonly entities: Entities;
  readonly events: Events;
  private readonly transport: Transport;

  constructor(options: ClientOptions = {}) {
    this.transport = new Transport(options);
    this.namespaces = new Namespaces(this.transport);
    this.memories = new Memories(this.transport);
    this.documents = new Documents(this.transport);
    this.entities = new Entities(this.transport);
    this.events = new Events(this.transport);
  }

  /** The API's address, ending in `/api/v1`. */
  get baseUrl(): string {
    return this.transport.baseUrl;
  }

  /** Stores one memory (`content`), a batch (`memories`) or a conversation's turns (`messages`). */
  remember(body: RememberOne, options?: CallOptions): Promise<Exclude<DataOf<"remember">, unknown[]>>;
  remember(body: RememberMany, options?: CallOptions): Promise<Extract<DataOf<"remember">, unknown[]>>;
  remember(body: BodyOf<"remember">, options?: CallOptions): Promise<DataOf<"remember">>;
  remember(body: BodyOf<"remember">, options?: CallOptions): Promise<DataOf<"remember">> {
    return this.transport.data({ method: "POST", path: "/remember", json: body, retry: "keyed" }, options);
  }

  /** The memories that best match a query, best first. */
  recall(body: BodyOf<"recall">, options?: CallOptions): Promise<DataOf<"recall">> {
    return this.transport.data({ method: "POST", path: "/recall", json: body, retry: "safe" }, options);
  }

  /** An answer to a question from the namespace's memories, citing them as [1], [2]. */
  ask(body: BodyOf<"ask">, options?: CallOptions): Promise<DataOf<"ask">> {
    return this.transport.data({ method: "POST", path: "/ask", json: body, retry: "safe" }, options);
  }

  /** Deletes memories by id, by identity, or by filter, with an erasure receipt. */
  forget(body: BodyOf<"forget">, options?: CallOptions): Promise<DataOf<"forget">> {
    return this.transport.data({ method: "POST", path: "/forget", json: body, retry: "keyed" }, options);
  }
}

class Namespaces {
  readonly grants: Grants;
  constructor(private readonly transport: Transport) {
    this.grants = new Grants(transport);
  }

  /** One page of the namespaces the key may use. */
  list(query: QueryOf<"listNamespaces"> = {}, options?: CallOptions): Promise<Page<DataOf<"listNamespaces">[number]>> {
    return this.transport.envelope<Page<DataOf<"listNamespaces">[number]>>(
      { method: "GET", path: "/namespaces", query, retry: "safe" },
      options,
    );
  }

  /** Every namespace the key may use, a page at a time (`page_size` of them per request, 100 by default). */
  iterate(
    query: Without<QueryOf<"listNamespaces">, "page"> = {},
    options?: CallOptions,
  ): Items<DataOf<"listNamespaces">[number]> {
    return everyPage((page) => this.list({ page_size: 100, ...query, page }, options));
  }

  create(body: BodyOf<"createNamespace">, options?: CallOptions): Promise<DataOf<"createNamespace">> {
    return this.transport.data({ method: "POST", path: "/namespaces", json: body, retry: "keyed" }, options);
  }

  get(id: string, options?: CallOptions): Promise<DataOf<"getNamespace">> {
    return this.transport.data({ method: "GET", path: path("/namespaces/{id}", id), retry: "safe" }, options);
  }

  update(id: string, body: BodyOf<"updateNamespace">, options?: CallOptions): Promise<DataOf<"updateNamespace">> {
    const spec: RequestSpec = { method: "PATCH", path: path("/namespaces/{id}", id), json: body, retry: "unsafe" };
    return this.transport.data(spec, options);
  }

  delete(id: string, options?: CallOptions): Promise<DataOf<"deleteNamespace">> {
    return this.transport.data({ method: "DELETE", path: path("/namespaces/{id}", id), retry: "safe" }, options);
  }

  /**
   * The namespace's memories (and documents) as they are read: the header line first, then one line each.
   * The request is made when iteration starts; stopping early ends the transfer.
   */
  async *export(id: string, query: QueryOf<"exportNamespace"> = {}, options?: CallOptions): Items<ExportLine> {
    const spec: RequestSpec = {
      method: "GET",
      path: path("/namespaces/{id}/export", id),
      query,
      retry: "safe",
      stream: true,
    };
    const response = await this.transport.send(spec, options);
    const idleTimeoutMs = options?.timeoutMs ?? this.transport.timeoutMs;
    yield* parseNdjson<ExportLine>(response.body!, { signal: options?.signal, idleTimeoutMs });
  }

  /**
   * Imports memories into the namespace: an export (`namespaces.export` of another, piped straight in), or
   * values from elsewhere, streamed as NDJSON. A stream or an iterator is sent once, never retried; text,
   * bytes or an array may be sent again after a 429.
   */
  import(id: string, source: NdjsonSource, options?: CallOptions): Promise<DataOf<"importNamespace">> {
    const body = { ...ndjsonBody(source), contentType: "application/x-ndjson" };
    return this.transport.data(
      { method: "POST", path: path("/namespaces/{id}/import", id), body, retry: "unsafe" },
      options,
    );
  }
}

class Grants {
  constructor(private readonly transport: Transport) {}

  list(namespaceId: string, options?: CallOptions): Promise<DataOf<"listGrants">> {
    return this.transport.data(
      { method: "GET", path: path("/namespaces/{id}/grants", namespaceId), retry: "safe" },
      options,
    );
  }

  create(namespaceId: string, body: BodyOf<"createGrant">, options?: CallOptions): Promise<DataOf<"createGrant">> {
    const spec: RequestSpec = {
      method: "POST",
      path: path("/namespaces/{id}/grants", namespaceId),
      json: body,
      retry: "unsafe",
    };
    return this.transport.data(spec, options);
  }

  delete(namespaceId: string, grantId: string, options?: CallOptions): Promise<DataOf<"deleteGrant">> {
    const spec: RequestSpec = {
      method: "DELETE",
      path: path("/namespaces/{id}/grants/{grantId}", namespaceId, grantId),
      retry: "safe",
    };
    return this.transport.data(spec, options);
  }
}

class Memories {
  constructor(private readonly transport: Transport) {}

  get(id: string, options?: CallOptions): Promise<DataOf<"getMemory">> {
    return this.transport.data({ method: "GET", path: path("/memories/{id}", id), retry: "safe" }, options);
  }

  /** Changes a memory: a new version, kept in its history. */
  update(id: string, body: BodyOf<"updateMemory">, options?: CallOptions): Promise<DataOf<"updateMemory">> {
    return this.transport.data(
      { method: "PATCH", path: path("/memories/{id}", id), json: body, retry: "keyed" },
      options,
    );
  }

  /** One page of a memory's versions, newest first. */
  history(
    id: string,
    query: QueryOf<"memoryHistory"> = {},
    options?: CallOptions,
  ): Promise<Page<DataOf<"memoryHistory">[number]>> {
    const spec: RequestSpec = { method: "GET", path: path("/memories/{id}/history", id), query, retry: "safe" };
    return this.transport.envelope<Page<DataOf<"memoryHistory">[number]>>(spec, options);
  }

  /** One page of a namespace's memories, newest first; pass `pagination.nextCursor` as `cursor` for the next. */
  list(query: QueryOf<"listMemories">, options?: CallOptions): Promise<CursorPage<DataOf<"listMemories">[number]>> {
    return this.transport.envelope<CursorPage<DataOf<"listMemories">[number]>>(
      { method: "GET", path: "/memories", query, retry: "safe" },
      options,
    );
  }

  /** Every memory of a namespace (with the filters), newest first, following the cursor. */
  iterate(
    query: Without<QueryOf<"listMemories">, "cursor">,
    options?: CallOptions,
  ): Items<DataOf<"listMemories">[number]> {
    return everyCursorPage((cursor) => this.list({ page_size: 100, ...query, cursor }, options));
  }
}

class Documents {
  constructor(private readonly transport: Transport) {}

  /** Adds a document from a URL or its content (text, or base64); it is read in the background (status `queued`). */
  create(body: BodyOf<"addDocument">, options?: CallOptions): Promise<DataOf<"addDocument">> {
    return this.transport.data({ method: "POST", path: "/documents", json: body, retry: "keyed" }, options);
  }

  /** Adds a document from a file (a Blob or File: in Node, `new Blob([bytes])` or `fs.openAsBlob(path)`). */
  upload(
    fields: {
      file: Blob;
      filename?: string;
      title?: string;
      identity_id?: string;
      metadata?: object;
      scopes?: object;
    } & ({ namespace_id: string } | { external_reference_id: string }),
    options?: CallOptions,
  ): Promise<DataOf<"addDocument">> {
    const make = () => {
      const form = new FormData();
      for (const [name, value] of Object.entries(fields)) {
        if (value === undefined || name === "file") continue;
        form.append(name, typeof value === "object" ? JSON.stringify(value) : String(value));
      }
      form.append(
        "file",
        fields.file,
        fields.filename ?? (fields.file instanceof File ? fields.file.name : "document"),
      );
      return form;
    };
    return this.transport.data(
      { method: "POST", path: "/documents", body: { make, replayable: true }, retry: "keyed" },
      options,
    );
  }

  list(query: QueryOf<"listDocuments">, options?: CallOptions): Promise<Page<DataOf<"listDocuments">[number]>> {
    return this.transport.envelope<Page<DataOf<"listDocuments">[number]>>(
      { method: "GET", path: "/documents", query, retry: "safe" },
      options,
    );
  }

  iterate(
    query: Without<QueryOf<"listDocuments">, "page">,
    options?: CallOptions,
  ): Items<DataOf<"listDocuments">[number]> {
    return everyPage((page) => this.list({ page_size: 100, ...query, page }, options));
  }

  get(id: string, options?: CallOptions): Promise<DataOf<"getDocument">> {
    return this.transport.data({ method: "GET", path: path("/documents/{id}", id), retry: "safe" }, options);
  }

  /** The text read from the document, page by page. */
  text(id: string, options?: CallOptions): Promise<DataOf<"documentText">> {
    return this.transport.data({ method: "GET", path: path("/documents/{id}/text", id), retry: "safe" }, options);
  }

  /** The original file as it was added. */
  async content(id: string, options?: CallOptions): Promise<Blob> {
    const spec: RequestSpec = { method: "GET", path: path("/documents/{id}/content", id), retry: "safe" };
    return (await this.transport.send(spec, options)).blob();
  }

  /** Reads the document again (from its URL, or its original). */
  refresh(id: string, options?: CallOptions): Promise<DataOf<"refreshDocument">> {
    return this.transport.data({ method: "POST", path: path("/documents/{id}/refresh", id), retry: "unsafe" }, options);
  }

  /** Deletes the document and the memories of its passages. */
  delete(id: string, options?: CallOptions): Promise<DataOf<"deleteDocument">> {
    return this.transport.data({ method: "DELETE", path: path("/documents/{id}", id), retry: "safe" }, options);
  }
}

class Entities {
  constructor(private readonly transport: Transport) {}

  list(query: QueryOf<"listEntities">, options?: CallOptions): Promise<CursorPage<DataOf<"listEntities">[number]>> {
    return this.transport.envelope<CursorPage<DataOf<"listEntities">[number]>>(
      { method: "GET", path: "/entities", query, retry: "safe" },
      options,
    );
  }

  iterate(
    query: Without<QueryOf<"listEntities">, "cursor">,
    options?: CallOptions,
  ): Items<DataOf<"listEntities">[number]> {
    return everyCursorPage((cursor) => this.list({ page_size: 100, ...query, cursor }, options));
  }

  get(id: string, options?: CallOptions): Promise<DataOf<"getEntity">> {
    return this.transport.data({ method: "GET", path: path("/entities/{id}", id), retry: "safe" }, options);
  }
}

class Events {
  constructor(private readonly transport: Transport) {}

  /** Events after `after` (the `next_cursor` of an earlier read), oldest first. */
  list(query: QueryOf<"listEvents"> = {}, options?: CallOptions): Promise<DataOf<"listEvents">> {
    return this.transport.data({ method: "GET", path: "/events", query, retry: "safe" }, options);
  }

  /**
   * Every event after `after` up to now, reading on while the feed says there are more. To poll for later
   * events, call `list` and keep the `next_cursor` it returns.
   */
  async *iterate(
    query: QueryOf<"listEvents"> = {},
    options?: CallOptions,
  ): Items<DataOf<"listEvents">["events"][number]> {
    let after = query.after;
    for (;;) {
      const feed = await this.list({ ...query, after }, options);
      yield* feed.events;
      after = feed.next_cursor;
      if (!feed.has_more) return;
    }
  }
}
