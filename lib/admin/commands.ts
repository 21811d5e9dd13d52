import { z } from "zod";
import { InvalidError, issueDetails } from "@/lib/errors";
import { SYSTEM_ACTOR } from "@/lib/audit/actor";
import { Permission, ROLES } from "@/lib/auth/permissions";
import { parseScopePairs, Scopes } from "@/lib/auth/scopes";
import { KeyName } from "@/lib/auth/schemas";
import { Email, OrganizationName, Password, PersonName } from "@/lib/orgs/schemas";
import { identifier } from "@/lib/validation/strings";

// The operations are imported by the command that runs them, not here: the CLI reads this module for every
// command, usage error and `--help`, and the operations bring the database driver, Prisma and the language
// models (2.4 s of module loading before the CLI answered `--help`). A command sent to the server that owns
// the data directory runs there, and the CLI never loads them.

// Flags may repeat (`--grant a --grant b`); the command line hands them over as a string or a list.
const repeated = z
  .union([z.string(), z.array(z.string())])
  .transform((value) => [value].flat())
  .pipe(z.array(identifier({ min: 1 })));
/** An organization, user, namespace or key named on the command line by id (or slug, or email). */
const Reference = identifier({ min: 1 });

const PermissionList = z
  .string()
  .transform((list) =>
    list
      .split(",")
      .map((p) => p.trim())
      .filter(Boolean),
  )
  .pipe(
    z
      .array(Permission, { error: `must be a comma-separated list of ${Permission.options.join(", ")}` })
      .min(1, "must name at least one permission"),
  );
const ScopePairs = repeated
  .transform((pairs, ctx) => {
    const parsed = parseScopePairs(pairs);
    if ("error" in parsed) ctx.addIssue({ code: "custom", message: parsed.error });
    return "error" in parsed ? {} : parsed.scopes;
  })
  .pipe(Scopes);

/** A flag without a value (`--vectors`), or given one explicitly (`--vectors=false`). */
const Switch = z
  .enum(["true", "false"], { error: "must be true or false (or given without a value)" })
  .optional()
  .transform((value) => value === "true");

interface AdminCommand<Args extends z.ZodType> {
  usage: string;
  args: Args;
  /** Flags given without a value (`--vectors`): their value is "true". */
  switches?: string[];
  /** The command reads NDJSON: the CLI sends it `--in FILE` or its standard input. */
  input?: "ndjson";
  /** The command answers NDJSON (an ItemStream): the CLI writes it to `--out FILE` or its standard output. */
  output?: "ndjson";
  /**
   * The command reads or writes whole namespaces: run by the CLI itself, it opens the embedded database with the
   * full page cache (PGLITE_CACHE_MB); the others open it with CLI_CACHE_MB (cli.ts). PGLITE_CACHE_MB's description
   * (lib/config/settings.ts) names these commands.
   */
  bulk?: true;
  run(args: z.infer<Args>, input: AsyncIterable<Uint8Array>): Promise<unknown>;
}

const command = <Args extends z.ZodType>(definition: AdminCommand<Args>) => definition;

/** The admin commands of `npx memgw`, run in whichever process owns the database. */
export const adminCommands = {
  "org create": command({
    usage: "org create --name NAME",
    args: z.strictObject({ name: OrganizationName }),
    async run({ name }) {
      const { createOrganization } = await import("@/lib/orgs/organizations");
      const org = await createOrganization(name, SYSTEM_ACTOR);
      return { id: org.id, name: org.name, slug: org.slug, created_at: org.createdAt.toISOString() };
    },
  }),
  "user create": command({
    usage: "user create --email EMAIL --password PASSWORD [--name NAME]",
    args: z.strictObject({ email: Email, password: Password, name: PersonName.optional() }),
    async run(args) {
      const { createUser } = await import("@/lib/orgs/users");
      const user = await createUser(args);
      return { id: user.id, email: user.email, name: user.name, created_at: user.createdAt.toISOString() };
    },
  }),
  "member add": command({
    usage: `member add --org ORG_ID_OR_SLUG --user USER_ID_OR_EMAIL --role ${ROLES.join("|")}`,
    args: z.strictObject({ org: Reference, user: Reference, role: z.enum(ROLES) }),
    async run(args) {
      const [{ findOrganization }, { findUser }, { addMember }] = await Promise.all([
        import("@/lib/orgs/organizations"),
        import("@/lib/orgs/users"),
        import("@/lib/orgs/members"),
      ]);
      const [org, user] = [await findOrganization(args.org), await findUser(args.user)];
      const membership = await addMember({ orgId: org.id, userId: user.id, role: args.role }, SYSTEM_ACTOR);
      return {
        id: membership.id,
        org_id: org.id,
        user_id: user.id,
        email: user.email,
        role: membership.role,
        created_at: membership.createdAt.toISOString(),
      };
    },
  }),
  "key create": command({
    usage:
      "key create --org ORG_ID_OR_SLUG --name NAME --permissions P1,P2 " +
      "[--grant NAMESPACE_ID ...] [--scope key=value ...]",
    args: z.strictObject({
      org: Reference,
      name: KeyName,
      permissions: PermissionList,
      grant: repeated.optional(),
      scope: ScopePairs.optional(),
    }),
    async run(args) {
      const [{ findOrganization }, { createApiKey }] = await Promise.all([
        import("@/lib/orgs/organizations"),
        import("@/lib/auth/api-keys/create-api-key"),
      ]);
      const org = await findOrganization(args.org);
      const { key, secret, namespaceIds } = await createApiKey(
        { orgId: org.id, name: args.name, permissions: args.permissions, scopes: args.scope, namespaceIds: args.grant },
        SYSTEM_ACTOR,
      );
      return {
        id: key.id,
        org_id: key.orgId,
        name: key.name,
        secret,
        display: key.display,
        permissions: key.permissions,
        scopes: key.scopes,
        namespace_ids: namespaceIds,
        created_at: key.createdAt.toISOString(),
        note: "Store the secret now: it is shown only once.",
      };
    },
  }),
  reembed: command({
    usage: "reembed --namespace NAMESPACE_ID",
    bulk: true,
    args: z.strictObject({ namespace: Reference }),
    run: async ({ namespace }) => (await import("@/lib/memory/embeddings/reembed")).reembedNamespace(namespace),
  }),
  "entities reextract": command({
    usage: "entities reextract [--namespace NAMESPACE_ID]",
    bulk: true,
    args: z.strictObject({ namespace: Reference.optional() }),
    run: async ({ namespace }) =>
      (await import("@/lib/memory/entities/reextract-entities")).reextractEntitiesForOperator(namespace),
  }),
  export: command({
    usage: "export --namespace NAMESPACE_ID [--vectors] [--out FILE]",
    bulk: true,
    args: z.strictObject({ namespace: Reference, vectors: Switch }),
    switches: ["vectors"],
    output: "ndjson",
    run: async ({ namespace, vectors }) =>
      (await import("@/lib/portability/export")).exportNamespaceForOperator(namespace, { includeVectors: vectors }),
  }),
  import: command({
    usage: "import --namespace NAMESPACE_ID [--in FILE]",
    bulk: true,
    args: z.strictObject({ namespace: Reference }),
    input: "ndjson",
    run: async ({ namespace }, input) =>
      (await import("@/lib/portability/import")).importNamespaceForOperator(namespace, input),
  }),
  "key revoke": command({
    usage: "key revoke --id KEY_ID",
    args: z.strictObject({ id: Reference }),
    async run({ id }) {
      const { revokeApiKey } = await import("@/lib/auth/api-keys/revoke-api-key");
      const key = await revokeApiKey(id, SYSTEM_ACTOR);
      return { id: key.id, name: key.name, revoked_at: key.revokedAt!.toISOString() };
    },
  }),
};

export type AdminCommandName = keyof typeof adminCommands;

export function isAdminCommand(name: string): name is AdminCommandName {
  return Object.hasOwn(adminCommands, name);
}

/** Every flag some command takes without a value. */
export const ADMIN_SWITCHES = new Set(
  Object.values(adminCommands).flatMap((definition: AdminCommand<z.ZodType>) => definition.switches ?? []),
);

/** A command's definition, its arguments' type widened: each command's own is its `args` schema's. */
function definitionOf(name: AdminCommandName): AdminCommand<z.ZodType> {
  return adminCommands[name] as AdminCommand<z.ZodType>;
}

/** Whether the command reads or writes NDJSON (and so is carried out with its input and output streamed). */
export function streamsOf(name: AdminCommandName): { input?: "ndjson"; output?: "ndjson" } {
  const { input, output } = definitionOf(name);
  return { input, output };
}

/** Whether the command reads or writes whole namespaces (see AdminCommand's `bulk`). */
export function isBulk(name: AdminCommandName): boolean {
  return definitionOf(name).bulk === true;
}

/**
 * Runs a command: `input` is what a command that reads NDJSON reads (the CLI's file or standard input);
 * a command that writes NDJSON returns an ItemStream for its caller to write.
 */
export async function runAdminCommand(
  name: string,
  rawArgs: Record<string, unknown>,
  input: AsyncIterable<Uint8Array> = noInput(),
): Promise<unknown> {
  if (!isAdminCommand(name)) throw new InvalidError(`Unknown command "${name}". Run \`npx memgw --help\`.`);
  return definitionOf(name).run(parseAdminArgs(name, rawArgs), input);
}

/**
 * A command's flags through its schema: InvalidError naming the flags as the command line does. The CLI
 * calls it before it opens the database, so a mistyped command is refused at once.
 */
export function parseAdminArgs(name: AdminCommandName, rawArgs: Record<string, unknown>): unknown {
  const definition = definitionOf(name);
  const parsed = definition.args.safeParse(rawArgs);
  if (parsed.success) return parsed.data;
  const details = issueDetails(parsed.error.issues);
  // Named as the command line names them: `--scope: …` for an issue deeper in a flag's value.
  const message = details
    .map(({ field, message }) => (field ? `--${field.split(".")[0]}: ${message}` : message))
    .join("; ");
  throw new InvalidError(`${message}. Usage: npx memgw ${definition.usage}`, details);
}

async function* noInput(): AsyncGenerator<Uint8Array> {}
