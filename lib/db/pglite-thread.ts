import path from "node:path";
import type { Worker as WorkerThread } from "node:worker_threads";
import { parse, PGlite, protocol, types, type QueryOptions, type Results } from "@electric-sql/pglite";
import { projectRoot } from "@/lib/config";
import { textParameter } from "./query-rows";
import { SessionLock } from "./session-lock";
import {
  backendMessages,
  type BackendMessage,
  DATA_ROW,
  ERROR_RESPONSE,
  joined,
  PARSE_COMPLETE,
  statementError,
  textRows,
  bindMessage,
} from "./wire-messages";

// Taken at run time, out of the bundler's sight (as lib/memory/embeddings/local.ts does): the worker is the
// plain script beside this file in every runtime.
const { Worker } = process.getBuiltinModule("node:worker_threads") as typeof import("node:worker_threads");

/** What Prisma's PGlite adapter, the migrations and the access cache's watcher use of a connection. */
export interface PGliteSession {
  query<T>(sql: string, params?: unknown[], options?: QueryOptions): Promise<Results<T>>;
  exec(sql: string, options?: QueryOptions): Promise<Results[]>;
}

export interface PGliteTransaction extends PGliteSession {
  rollback(): Promise<void>;
  readonly closed: boolean;
}

/**
 * Statements `rows` keeps parsed: recall's few statement texts (a handful of variants each, by the
 * request's filters), the activity row's insert, and the vector leg's text of each namespace with an index of
 * its own (lib/memory/search/vector-leg.ts): the least recently used is closed past this many.
 */
const KEPT_STATEMENTS = 100;

/**
 * Statements `query` keeps parsed: the texts Prisma and the domain's SQL send (a few hundred; one of Prisma's
 * varies with the number of values in an IN list).
 */
const DESCRIBED_STATEMENTS = 300;

/**
 * What a kept statement answers once the tables or types under it changed ("cached plan must not change result
 * type", "cache lookup failed for type"), or once it is gone: it is let go, so the next query parses it again.
 */
const STALE_STATEMENT = new Set(["0A000", "XX000", "26000"]);

/** A kept statement's key: its text, and the parameter types asked for, if any. */
const statementKey = (query: string, options?: QueryOptions) =>
  options?.paramTypes?.length ? `${options.paramTypes.join(",")};${query}` : query;

interface DescribedStatement {
  statement: string;
  /** Its parameters' types, each value serialized for its own. */
  dataTypeIDs: number[];
}

/**
 * PGlite on a worker thread (lib/db/pglite-worker.mjs), with the part of PGlite's interface this server
 * uses: query, exec and transaction behave as PGlite's do (one transaction at a time, and nothing else
 * while it runs; the same parameter serializers and result parsers), and `rows` sends a statement in one
 * exchange. Only the wire protocol crosses between the threads.
 */
export class PGliteThread implements PGliteSession {
  readonly parsers: Record<number, types.Parser> = { ...types.parsers };
  readonly serializers: Record<number, types.Serializer> = { ...types.serializers };
  private readonly session = new SessionLock();
  private readonly parser = new protocol.Parser();
  private readonly pending = new Map<number, { resolve(data: unknown): void; reject(e: Error): void }>();
  private nextId = 1;
  private nextStatement = 1;
  /** The names of the statements `rows` keeps parsed, by their text, oldest first. */
  private readonly keptStatements = new Map<string, string>();
  /** The statements `query` keeps parsed, by their text (and parameter types), least recently used first. */
  private readonly describedStatements = new Map<string, Promise<DescribedStatement>>();
  /** Statements no longer kept (by `query` or `rows`), closed with the next statement either sends. */
  private readonly statementsToClose: string[] = [];
  private failure: Error | undefined;

  /** The thread's id as Linux's tools show it (`top -H`), where it could be read. */
  osThreadId: number | undefined;

  private constructor(private readonly worker: WorkerThread) {
    worker.on("message", ({ id, data, error }: { id: number; data?: unknown; error?: { message: string } }) => {
      const request = this.pending.get(id);
      if (!request) return;
      this.pending.delete(id);
      if (this.pending.size === 0) worker.unref();
      if (error) request.reject(new Error(error.message));
      else request.resolve(data);
    });
    const fail = (error: Error) => {
      this.failure ??= error;
      for (const request of this.pending.values()) request.reject(this.failure);
      this.pending.clear();
    };
    worker.on("error", fail);
    worker.on("exit", (code) => fail(new Error(`The embedded database's thread stopped (exit code ${code}).`)));
    worker.unref();
  }

  /** Opens the data directory on a new thread; `shared_buffers` and the like go in `settings`. */
  static async open(dataDir: string, settings: string[]): Promise<PGliteThread> {
    const worker = new Worker(path.join(projectRoot(), "lib/db/pglite-worker.mjs"));
    const thread = new PGliteThread(worker);
    try {
      const opened = await thread.request({
        kind: "open",
        dataDir,
        startParams: [...PGlite.defaultStartParams, ...settings],
      });
      thread.osThreadId = (opened as { threadId?: number }).threadId;
      await thread.initArrayTypes();
      return thread;
    } catch (error) {
      await worker.terminate();
      throw error;
    }
  }

  private request(body: Record<string, unknown>, transfer: ArrayBuffer[] = []): Promise<unknown> {
    if (this.failure) return Promise.reject(this.failure);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      if (this.pending.size === 0) this.worker.ref(); // a request in flight keeps the process alive
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ ...body, id }, transfer);
    });
  }

  /** Sends protocol messages and returns the database's answers to them, as bytes. */
  private async exchangeBytes(message: Uint8Array): Promise<Uint8Array> {
    const data = (await this.request({ kind: "protocol", message }, [message.buffer as ArrayBuffer])) as Uint8Array;
    return data ?? new Uint8Array(0);
  }

  /** Sends protocol messages and returns the database's answers to them. */
  private async exchange(message: Uint8Array): Promise<BackendMessage[]> {
    return this.parsed(await this.exchangeBytes(message));
  }

  private parsed(data: Uint8Array): BackendMessage[] {
    const messages: BackendMessage[] = [];
    if (data.length) this.parser.parse(data, (answer) => messages.push(answer));
    return messages;
  }

  /** As PGlite does at start: every array type parsed and serialized through its element type. */
  private async initArrayTypes() {
    const arrayTypes = await this.query<{ oid: number; typarray: number }>(
      `SELECT b.oid, b.typarray FROM pg_catalog.pg_type a LEFT JOIN pg_catalog.pg_type b ON b.oid = a.typelem
       WHERE a.typcategory = 'A' GROUP BY b.oid, b.typarray ORDER BY b.oid`,
    );
    for (const { oid, typarray } of arrayTypes.rows) {
      this.serializers[typarray] = (x) => types.arraySerializer(x, this.serializers[oid], typarray);
      this.parsers[typarray] = (x) => types.arrayParser(x, this.parsers[oid], typarray);
    }
  }

  /**
   * PGlite's query(): the parameters' types asked of the statement, then each serialized for its type. The
   * statement is named and kept (its parameters' types with it), so that the next query of the same text takes
   * one exchange instead of a parse, a describe and a second exchange: a write's dozens of statements each paid
   * the round trip and the parse, a third of a forget's time in the database. Each exchange ends in a sync, so
   * that an error in it skips none of the statements sent between two of them.
   */
  private async runQuery<T>(query: string, params: unknown[] = [], options?: QueryOptions): Promise<Results<T>> {
    const key = statementKey(query, options);
    const { statement, dataTypeIDs } = await this.describedStatement(key, query, options);
    const values = params.map((param, i) => {
      if (param === null || param === undefined) return null;
      // Bytes go in binary format, as node-postgres sends them on PostgreSQL: a bytea as it is, and a vector as
      // vectorParameter writes it (lib/memory/common/sql.ts), which as text was 10 KB to write and to parse.
      if (param instanceof Uint8Array) return param;
      const serialize = options?.serializers?.[dataTypeIDs[i]] ?? this.serializers[dataTypeIDs[i]];
      return serialize ? serialize(param) : String(param);
    });
    const executed = await this.exchange(
      joined([
        ...this.closingLetGo(),
        bindMessage(statement, values),
        protocol.serialize.describe({ type: "P" }),
        protocol.serialize.execute({}),
        protocol.serialize.sync(),
      ]),
    );
    const failed = statementError(executed, query, params, options);
    if (failed) {
      if (STALE_STATEMENT.has(failed.code ?? "")) this.letGo(key);
      throw failed;
    }
    return parse.parseResults(executed, this.parsers, options)[0] as Results<T>;
  }

  /** The messages that close the statements let go, each ending in a sync (closing one that is gone is no error). */
  private closingLetGo(): Uint8Array[] {
    return this.statementsToClose
      .splice(0)
      .flatMap((name) => [protocol.serialize.close({ type: "S", name }), protocol.serialize.sync()]);
  }

  /** No longer keeps this statement: it is closed with the next statement sent. */
  private letGo(key: string) {
    const kept = this.describedStatements.get(key);
    if (!kept) return;
    this.describedStatements.delete(key);
    kept.then(
      ({ statement }) => this.statementsToClose.push(statement),
      () => undefined,
    );
  }

  /**
   * The kept statement of this text, parsed and described the first time it comes (a statement that does not
   * parse is not kept). Queries of one text at once share its parse; the least recently used is closed with the
   * next statement sent once DESCRIBED_STATEMENTS are kept.
   */
  private describedStatement(key: string, query: string, options?: QueryOptions): Promise<DescribedStatement> {
    const kept = this.describedStatements.get(key);
    if (kept) {
      this.describedStatements.delete(key);
      this.describedStatements.set(key, kept);
      return kept;
    }
    const statement = `memgw_${this.nextStatement++}`;
    const described = this.exchange(
      joined([
        protocol.serialize.parse({ name: statement, text: query, types: options?.paramTypes }),
        protocol.serialize.describe({ type: "S", name: statement }),
        protocol.serialize.sync(),
      ]),
    ).then((messages) => {
      const refused = statementError(messages, query, undefined, options);
      if (refused) throw refused;
      return { statement, dataTypeIDs: parse.parseDescribeStatementResults(messages) };
    });
    this.describedStatements.set(key, described);
    described.catch(() => this.describedStatements.get(key) === described && this.describedStatements.delete(key));
    if (this.describedStatements.size > DESCRIBED_STATEMENTS) this.letGo(this.describedStatements.keys().next().value!);
    return described;
  }

  /** PGlite's exec(): the simple query protocol, several statements allowed. */
  private async runExec(query: string, options?: QueryOptions): Promise<Results[]> {
    const messages = await this.exchange(joined([protocol.serialize.query(query), protocol.serialize.sync()]));
    const failed = statementError(messages, query, undefined, options);
    if (failed) throw failed;
    return parse.parseResults(messages, this.parsers, options);
  }

  query<T>(query: string, params?: unknown[], options?: QueryOptions): Promise<Results<T>> {
    return this.session.shared(() => this.runQuery<T>(query, params, options));
  }

  exec(query: string, options?: QueryOptions): Promise<Results[]> {
    return this.session.shared(() => this.runExec(query, options));
  }

  /** PGlite's transaction(): committed when the callback resolves, rolled back when it throws. */
  transaction<T>(callback: (tx: PGliteTransaction) => Promise<T>): Promise<T> {
    return this.session.exclusive(async () => {
      await this.runExec("BEGIN");
      let closed = false;
      const open = () => {
        if (closed) throw new Error("Transaction is closed: a statement was sent after its commit or rollback");
      };
      const tx: PGliteTransaction = {
        query: async (query, params, options) => (open(), this.runQuery(query, params, options)),
        exec: async (query, options) => (open(), this.runExec(query, options)),
        rollback: async () => {
          open();
          await this.runExec("ROLLBACK");
          closed = true;
        },
        get closed() {
          return closed;
        },
      };
      try {
        const result = await callback(tx);
        if (!closed) {
          closed = true;
          await this.runExec("COMMIT");
        }
        return result;
      } catch (error) {
        if (!closed) {
          closed = true;
          await this.runExec("ROLLBACK");
        }
        throw error;
      }
    });
  }

  /**
   * One statement's rows in one exchange (bind, describe, execute, sync; and parse, the first time this
   * text comes): parameters in text format (lib/db/query-rows.ts), their types left to the statement, each
   * column parsed as query() does. The statement is kept parsed under a name, and PostgreSQL plans it once
   * for all when its generic plan costs no more than a plan for each request's values.
   */
  rows<Row>(query: string, params: unknown[]): Promise<Row[]> {
    return this.session.shared(async () => {
      const data = await this.runKept(query, params, false);
      const rows = textRows(data, (text, dataTypeID) => {
        const parser = this.parsers[dataTypeID];
        return parser ? parser(text, dataTypeID) : text;
      });
      if (rows) return rows as Row[];
      throw statementError(this.parsed(data), query, params)!;
    });
  }

  /**
   * The first column of each row of one statement, in binary format, as `rows` sends it otherwise: a bytea
   * column's bytes as they are. As text they were decoded as UTF-8 by the protocol parser and then from base64,
   * on the main thread: 40% of its time while downloads were read (1.6 s per 500 MB).
   */
  columnBytes(query: string, params: unknown[]): Promise<Uint8Array[]> {
    return this.session.shared(async () => {
      const data = await this.runKept(query, params, true);
      const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
      const values: Uint8Array[] = [];
      // A row's body is its number of fields (2 bytes), then each field's length (4 bytes, -1 for null) and bytes.
      for (const { type, start, end } of backendMessages(data)) {
        if (type === ERROR_RESPONSE) throw statementError(this.parsed(data.subarray(start, end)), query, params)!;
        if (type !== DATA_ROW) continue;
        const length = view.getInt32(start + 7);
        values.push(length === -1 ? new Uint8Array(0) : data.subarray(start + 11, start + 11 + length));
      }
      return values;
    });
  }

  /**
   * Sends a kept statement (parsed the first time its text comes, under a name) with `params`, results in
   * text or binary format, and answers the database's answers as bytes.
   */
  private async runKept(query: string, params: unknown[], binary: boolean): Promise<Uint8Array> {
    let statement = this.keptStatements.get(query);
    const parsing = statement === undefined;
    if (statement !== undefined) {
      // The most recently used last: a statement every recall sends outlives the per-namespace texts passing
      // through (inserted first, it was closed as the hundred-and-first came, and planned anew five times).
      this.keptStatements.delete(query);
      this.keptStatements.set(query, statement);
    } else {
      statement = `memgw_kept_${this.nextStatement++}`;
      this.keptStatements.set(query, statement);
      if (this.keptStatements.size > KEPT_STATEMENTS) {
        const [oldest, name] = this.keptStatements.entries().next().value!;
        this.keptStatements.delete(oldest);
        this.statementsToClose.push(name);
      }
    }
    const data = await this.exchangeBytes(
      joined([
        ...this.closingLetGo(),
        ...(parsing ? [protocol.serialize.parse({ name: statement, text: query })] : []),
        bindMessage(statement, params.map(textParameter), binary),
        protocol.serialize.describe({ type: "P" }),
        protocol.serialize.execute({}),
        protocol.serialize.sync(),
      ]),
    );
    // A statement that did not parse is not kept; one that did is, even if its parameters were refused. The
    // answers start with the closings' (each CloseComplete and ReadyForQuery), then ParseComplete if it parsed.
    if (parsing && ![...backendMessages(data)].some(({ type }) => type === PARSE_COMPLETE)) {
      this.keptStatements.delete(query);
    }
    return data;
  }

  /** Waits for what is in progress, closes the database (everything written out) and ends the thread. */
  async close(): Promise<void> {
    await this.session.exclusive(() => this.request({ kind: "close" }));
    await this.worker.terminate();
  }
}
