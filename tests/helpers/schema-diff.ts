// Prisma's schema engine, in WebAssembly, inside the test process: it compares a database with a Prisma schema
// offline. The Prisma CLI would run its native engine binary, which an install without network does not have
// (scripts/prisma-generate.mjs points the CLI at a stand-in), and `migrate diff --from-migrations` would also
// want a shadow database: the test's own database, migrated by lib/db/migrate.ts, stands for the migrations.
import fs from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { vector } from "@electric-sql/pglite-pgvector";
import { PrismaPg } from "@prisma/adapter-pg";
import {
  bindMigrationAwareSqlAdapterFactory,
  ColumnTypeEnum,
  type SqlDriverAdapter,
  type SqlQuery,
  type SqlMigrationAwareDriverAdapterFactory,
} from "@prisma/driver-adapter-utils";
import { PrismaPGlite } from "pglite-prisma-adapter";
import { projectRoot } from "@/lib/config";
import * as bindings from "@prisma/schema-engine-wasm/schema_engine_bg";
import { onPostgres } from "./postgres";

interface SchemaFile {
  path: string;
  content: string;
}

/** What this file uses of the engine (the bindings' own types are those of @prisma/schema-engine-wasm). */
interface SchemaEngine {
  diff(params: {
    from: { tag: "schemaDatasource"; files: SchemaFile[]; configDir: string };
    to: { tag: "schemaDatamodel"; files: SchemaFile[] };
    script: boolean;
    exitCode: boolean;
    filters: { externalTables: string[]; externalEnums: string[] };
  }): Promise<{ exitCode: number; stdout: string | null }>;
  free(): void;
}

let loaded = false;
/** What the engine said when it last panicked (it reports a panic there, then traps). */
let panicMessage: string | undefined;

/**
 * Starts the engine of @prisma/schema-engine-wasm once per process. Its package's own entry imports the
 * .wasm file as a module, which Node does not do: the bindings are joined to the compiled file here.
 */
async function loadEngine(): Promise<void> {
  if (loaded) return;
  const root = projectRoot();
  const packageVersion = (name: string) =>
    JSON.parse(fs.readFileSync(path.join(root, "node_modules", name, "package.json"), "utf8")).version as string;
  // The diff must be the one the installed prisma would compute: the same engine build.
  const prismaEngine = packageVersion("@prisma/engines-version");
  const engine = packageVersion("@prisma/schema-engine-wasm");
  if (engine !== prismaEngine) {
    throw new Error(
      `@prisma/schema-engine-wasm is ${engine} but the installed prisma's engine is ${prismaEngine}: ` +
        `pin the devDependency to "@prisma/schema-engine-wasm": "${prismaEngine}".`,
    );
  }
  const wasm = await WebAssembly.compile(
    fs.readFileSync(path.join(root, "node_modules/@prisma/schema-engine-wasm/schema_engine_bg.wasm")),
  );
  Object.assign(globalThis, {
    PRISMA_WASM_PANIC_REGISTRY: { set_message: (message: string) => void (panicMessage = message) },
  });
  const instance = await WebAssembly.instantiate(wasm, {
    "./schema_engine_bg.js": bindings as unknown as WebAssembly.ModuleImports,
  });
  bindings.__wbg_set_wasm(instance.exports);
  (instance.exports.__wbindgen_start as () => void)();
  loaded = true;
}

/**
 * The SQL that would turn the database of `adapter` into what `schema` (the text of a Prisma schema) describes,
 * empty when they match; then, as comments, the Unsupported("…") columns whose type differs. Prisma leaves out
 * of the comparison what its schema language cannot express (CHECK constraints, expression indexes, triggers,
 * functions, storage settings), and compares an Unsupported column by its presence alone.
 */
export async function diffDatabaseToSchema(adapter: SqlMigrationAwareDriverAdapterFactory, schema: string) {
  const engineDiff = await diffWithEngine(adapter, schema);
  const typeDiffs = await unsupportedTypeDifferences(adapter, schema);
  return [engineDiff, ...typeDiffs].filter(Boolean).join("\n\n");
}

async function diffWithEngine(adapter: SqlMigrationAwareDriverAdapterFactory, schema: string): Promise<string> {
  await loadEngine();
  panicMessage = undefined;
  const files = [{ path: "prisma/schema.prisma", content: schema }];
  const engine: SchemaEngine = await bindings.SchemaEngine.new(
    { datamodels: files.map((file) => [file.path, file.content]) },
    () => {},
    bindMigrationAwareSqlAdapterFactory(adapter),
  );
  try {
    const result = await engine.diff({
      from: { tag: "schemaDatasource", files, configDir: projectRoot() },
      to: { tag: "schemaDatamodel", files },
      script: true,
      // 2 when there is a difference: the script alone says "-- This is an empty migration." when there is none.
      exitCode: true,
      filters: { externalTables: [], externalEnums: [] },
    });
    return result.exitCode === 2 ? (result.stdout ?? "").trim() : "";
  } catch (error) {
    if (panicMessage) throw new Error(`Prisma's schema engine panicked: ${panicMessage}`, { cause: error });
    throw error;
  } finally {
    engine.free();
  }
}

/** The columns a schema declares as Unsupported("type"): under their database names. */
function unsupportedColumns(schema: string): { table: string; column: string; type: string }[] {
  return [...schema.matchAll(/^model (\w+) \{\n([\s\S]*?)^\}/gm)].flatMap(([, model, body]) => {
    const table = /^\s*@@map\("([^"]+)"\)/m.exec(body)?.[1] ?? model;
    return [...body.matchAll(/^\s*(\w+)\s+Unsupported\("([^"]+)"\)\??(.*)$/gm)].map(([, field, type, rest]) => ({
      table,
      column: /@map\("([^"]+)"\)/.exec(rest)?.[1] ?? field,
      type,
    }));
  });
}

async function unsupportedTypeDifferences(adapter: SqlMigrationAwareDriverAdapterFactory, schema: string) {
  const connection = await adapter.connect();
  try {
    const differences: string[] = [];
    for (const { table, column, type } of unsupportedColumns(schema)) {
      const result = await connection.queryRaw({
        sql: `SELECT format_type(atttypid, atttypmod) AS type FROM pg_attribute
              WHERE attrelid = to_regclass($1) AND attname = $2 AND NOT attisdropped`,
        args: [`"${table}"`, column],
        argTypes: [
          { scalarType: "string", arity: "scalar" },
          { scalarType: "string", arity: "scalar" },
        ],
      });
      const actual = result.rows[0]?.[0];
      if (actual !== undefined && actual !== type) {
        differences.push(`-- "${table}"."${column}": Unsupported("${type}") in the schema, ${actual} in the database`);
      }
    }
    return differences;
  } finally {
    await connection.dispose();
  }
}

const PG_CHAR = 18;
const PG_TEXT = 25;

/**
 * The schema engine reads PostgreSQL's catalogue, whose one-byte "char" columns (pg_constraint.contype, ...)
 * @prisma/adapter-pg 7.10 has no column type for: it refuses them ("Column type 'char' could not be
 * deserialized"). Such a column is read as text, then typed as the engine's Character, as the PGlite adapter does.
 */
function readCatalogueChars(connection: SqlDriverAdapter): SqlDriverAdapter {
  const queryable = connection as unknown as {
    performIO(query: SqlQuery): Promise<{ fields: { dataTypeID: number }[] }>;
  };
  const charColumns = new WeakMap<SqlQuery, number[]>();
  const performIO = queryable.performIO.bind(queryable);
  queryable.performIO = async (query) => {
    const result = await performIO(query);
    const chars = result.fields.flatMap((field, index) => (field.dataTypeID === PG_CHAR ? [index] : []));
    for (const index of chars) result.fields[index].dataTypeID = PG_TEXT;
    charColumns.set(query, chars);
    return result;
  };
  const queryRaw = connection.queryRaw.bind(connection);
  connection.queryRaw = async (query) => {
    const result = await queryRaw(query);
    for (const index of charColumns.get(query) ?? []) result.columnTypes[index] = ColumnTypeEnum.Character;
    return result;
  };
  return connection;
}

/**
 * The test file's own database (tests/helpers/setup.ts: a copy of the migrated template, or a database on the
 * PostgreSQL test server) as a Prisma driver adapter. The file must not open it through lib/db as well.
 */
export async function openTestDatabaseAdapter(): Promise<{
  adapter: SqlMigrationAwareDriverAdapterFactory;
  close(): Promise<void>;
}> {
  if (onPostgres()) {
    const factory = new PrismaPg({ connectionString: process.env.DATABASE_URL, max: 2 });
    // The engine disposes of the connections it opens when it is done; one a failure left open is closed here.
    const open = new Set<SqlDriverAdapter>();
    const opened = async (connecting: Promise<SqlDriverAdapter>) => {
      const connection = readCatalogueChars(await connecting);
      const dispose = connection.dispose.bind(connection);
      connection.dispose = () => (open.delete(connection) ? dispose() : Promise.resolve());
      open.add(connection);
      return connection;
    };
    return {
      adapter: {
        provider: factory.provider,
        adapterName: factory.adapterName,
        connect: () => opened(factory.connect()),
        connectToShadowDb: () => opened(factory.connectToShadowDb()),
      },
      close: async () => void (await Promise.all([...open].map((connection) => connection.dispose()))),
    };
  }
  const pglite = await PGlite.create({
    dataDir: process.env.DATA_DIR,
    extensions: { vector },
    startParams: [...PGlite.defaultStartParams, "-c", "shared_buffers=16MB"],
  });
  return { adapter: new PrismaPGlite(pglite), close: () => pglite.close() };
}
