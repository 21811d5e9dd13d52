import { createHmac } from "node:crypto";
import Provider, { errors, type Adapter, type AdapterPayload, type KoaContextWithOIDC } from "oidc-provider";
import { decrypt, encrypt } from "@/lib/crypto/encryption";
import { db } from "@/lib/db";
import type { Prisma } from "@/lib/generated/prisma/client";
import { serverSecret } from "@/lib/secrets";
import { endConnectionOfGrant } from "./ending";

/** What one request may use once: a second use of either is a replay. */
const SINGLE_USE_MODELS = new Set(["AuthorizationCode", "RefreshToken"]);

/**
 * The models this authorization server stores, by the names oidc-provider gives them (its classes' names).
 * Anything else is refused: a build whose minifier stripped class names constructs every adapter with ''
 * (one store for every kind of token, revocation and the single-use guard silently off), and must fail
 * rather than run that way. A Client's payload is its metadata, with no `kind`; every other payload's `kind`
 * is its model's name.
 */
export const OAUTH_MODELS = [
  "Client",
  "RegistrationAccessToken",
  "Interaction",
  "Session",
  "Grant",
  "AuthorizationCode",
  "AccessToken",
  "RefreshToken",
  "ReplayDetection",
] as const;
const KNOWN_MODELS = new Set<string>(OAUTH_MODELS);

/**
 * oidc-provider's storage (its Adapter interface) in the gateway's database, the embedded one or PostgreSQL
 * alike, so that several instances share one authorization server and a restart keeps every connection.
 * - Ids are bearer values for most models (an access token's id is the token itself; a session's is its
 *   cookie): every id is stored as an HMAC under KEY_PEPPER, like API keys' secrets, and the payload's copy
 *   of it (`jti`) is dropped and put back from the id the caller already holds.
 * - A dynamically registered client's secret is encrypted at rest (public clients, the usual for MCP, have
 *   none).
 * - Expired rows are never returned; `sweepExpiredOauthRecords` deletes them.
 */
export class DatabaseAdapter implements Adapter {
  private readonly model: string;

  constructor(model: string) {
    if (!KNOWN_MODELS.has(model)) {
      throw new Error(
        `The OAuth storage has no model ${JSON.stringify(model)}` +
          (model ? "." : ": oidc-provider's class names were stripped (it must load unbundled)."),
      );
    }
    this.model = model;
  }

  async upsert(id: string, payload: AdapterPayload, expiresIn: number): Promise<void> {
    if (!isOfModel(this.model, payload)) {
      throw new Error(`A ${JSON.stringify(payload.kind)} cannot be stored as a ${this.model}.`);
    }
    const prisma = await db();
    const key = { model: this.model, id: recordId(id) };
    const row = {
      payload: storedPayload(this.model, id, payload) as Prisma.InputJsonValue,
      // A grant is found by its own id too: revoking a connection deletes the grant and its tokens at once.
      grantId: (this.model === "Grant" ? id : payload.grantId) ?? null,
      uid: payload.uid ?? null,
      expiresAt: expiresIn ? new Date(Date.now() + expiresIn * 1000) : null,
    };
    await prisma.oauthRecord.upsert({ where: { model_id: key }, create: { ...key, ...row }, update: row });
  }

  async find(id: string): Promise<AdapterPayload | undefined> {
    const prisma = await db();
    const row = await prisma.oauthRecord.findFirst({
      where: { model: this.model, id: recordId(id), ...unexpired() },
    });
    return row && isOfModel(this.model, row.payload) ? restoredPayload(this.model, id, row) : undefined;
  }

  async findByUid(uid: string): Promise<AdapterPayload | undefined> {
    const prisma = await db();
    const row = await prisma.oauthRecord.findFirst({ where: { model: this.model, uid, ...unexpired() } });
    if (!row || !isOfModel(this.model, row.payload)) return undefined;
    const payload = row.payload as AdapterPayload;
    // Only sessions are found by uid, and a session's id is its cookie: the caller gets it back to use as such.
    return payload.jti ? restoredPayload(this.model, payload.jti, row) : undefined;
  }

  async findByUserCode(): Promise<AdapterPayload | undefined> {
    // The device flow is not enabled: nothing is stored by user code.
    return undefined;
  }

  /**
   * Marks a code or refresh token used, once: oidc-provider checks `consumed` before it consumes, so two
   * requests at the same instant would both pass that check. The second to get here finds it consumed and
   * is treated as the replay it is: the grant, its tokens and its connection end, and the request fails.
   */
  async consume(id: string): Promise<void> {
    const prisma = await db();
    const where = { model: this.model, id: recordId(id) };
    const { count } = await prisma.oauthRecord.updateMany({
      where: { ...where, consumedAt: null },
      data: { consumedAt: new Date() },
    });
    if (count > 0 || !SINGLE_USE_MODELS.has(this.model)) return;
    const row = await prisma.oauthRecord.findUnique({ where: { model_id: where }, select: { grantId: true } });
    if (row?.grantId) {
      await prisma.oauthRecord.deleteMany({ where: { grantId: row.grantId } });
      await endConnectionOfGrant(
        row.grantId,
        `a ${this.model === "RefreshToken" ? "refresh token" : "code"} was used twice`,
      );
    }
    throw new errors.InvalidGrant("grant request is invalid: already used");
  }

  async destroy(id: string): Promise<void> {
    const prisma = await db();
    await prisma.oauthRecord.deleteMany({ where: { model: this.model, id: recordId(id) } });
    // The provider destroys a grant when it revokes it (revokeGrantPolicy): a client revoking a token, or a
    // code or refresh token used twice. The connection's key ends here, before the provider answers: its
    // "grant.revoked" event comes after the answer may already be read (by another instance too).
    if (this.model === "Grant") await endConnectionOfGrant(id, grantRevocationReason(Provider.ctx));
  }

  async revokeByGrantId(grantId: string): Promise<void> {
    const prisma = await db();
    await prisma.oauthRecord.deleteMany({ where: { model: this.model, grantId } });
  }
}

/**
 * Marks the authorization code `code` used without issuing anything for it, and ends the connection its grant
 * was made for (`reason` goes to the audit log): nothing was issued from that code yet, and nothing will be.
 * A code already used (tokens were issued from it) or unknown is left as it is.
 */
export async function spendAuthorizationCode(code: string, reason: string): Promise<void> {
  const prisma = await db();
  const where = { model: "AuthorizationCode", id: recordId(code) };
  const { count } = await prisma.oauthRecord.updateMany({
    where: { ...where, consumedAt: null },
    data: { consumedAt: new Date() },
  });
  if (count === 0) return;
  const row = await prisma.oauthRecord.findUnique({ where: { model_id: where }, select: { grantId: true } });
  if (!row?.grantId) return;
  await prisma.oauthRecord.deleteMany({ where: { grantId: row.grantId } });
  await endConnectionOfGrant(row.grantId, reason);
}

/** Deletes the authorization server's expired rows (codes, tokens, interactions, sessions, grants). */
export async function sweepExpiredOauthRecords(now = new Date()): Promise<number> {
  const prisma = await db();
  const { count } = await prisma.oauthRecord.deleteMany({ where: { expiresAt: { lte: now } } });
  return count;
}

/**
 * Whether a payload is one of `model`'s: what is found under one model is never handed back as another (an
 * access token is never a refresh token), whatever the row's model column says.
 */
function isOfModel(model: string, payload: unknown): boolean {
  if (typeof payload !== "object" || payload === null) return false;
  const { kind } = payload as AdapterPayload;
  return model === "Client" ? kind === undefined : kind === model;
}

function recordId(id: string): string {
  return createHmac("sha256", serverSecret("KEY_PEPPER")).update(`oauth:${id}`).digest("hex");
}

function unexpired() {
  return { OR: [{ expiresAt: null }, { expiresAt: { gt: new Date() } }] };
}

/**
 * What is stored of a payload: without its `jti` (the id in clear), and a client's secret encrypted. A
 * session keeps its `jti` — found by uid (findByUid), its id is otherwise unknown — but a session's cookie
 * lives as long as the interaction that made it (oauthProvider's Session TTL) and grants nothing alone.
 */
function storedPayload(model: string, id: string, payload: AdapterPayload): AdapterPayload {
  const { jti, ...rest } = payload;
  const stored: AdapterPayload = model === "Session" ? { ...rest, jti } : rest;
  if (model === "Client" && typeof payload.client_secret === "string") {
    stored.client_secret = encrypt(payload.client_secret, clientSecretContext(id));
  }
  return stored;
}

function restoredPayload(
  model: string,
  id: string,
  row: { payload: unknown; consumedAt: Date | null },
): AdapterPayload {
  const payload = { ...(row.payload as AdapterPayload) };
  if (model !== "Client") payload.jti = id;
  if (model === "Client" && typeof payload.client_secret === "string") {
    payload.client_secret = decrypt(payload.client_secret, clientSecretContext(id));
  }
  if (row.consumedAt) payload.consumed = Math.floor(row.consumedAt.getTime() / 1000);
  return payload;
}

function clientSecretContext(clientId: string) {
  return `oauth-client-secret:${clientId}`;
}

/** Why the provider revoked a grant, from the request it revoked it in. */
function grantRevocationReason(ctx: KoaContextWithOIDC | undefined): string {
  if (ctx?.oidc?.route !== "token") return "the client revoked a token";
  return ctx.oidc.entities.RefreshToken ? "a refresh token was used twice" : "an authorization code was used twice";
}
