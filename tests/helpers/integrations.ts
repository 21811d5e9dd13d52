// Driving a connection the way an application does: start it over the API, approve on the provider's consent
// page (the fake's), complete it with the code and state that came back, and run the syncs it queued.
import { expect } from "vitest";
import type { ProviderId } from "@/lib/integrations/provider";
import { PROVIDERS } from "@/lib/integrations/providers";
import { integrationJobRunners } from "@/lib/integrations/sync";
import { runDueJobs } from "@/lib/jobs/queue";
import { api } from "./api";
import type { FakeProvider } from "./providers/oauth-server";

/** Points this deployment's settings for the fake's provider at the fake (the settings are read per use). */
export function useFake(fake: FakeProvider) {
  const prefix = PROVIDERS[fake.provider].settingsPrefix;
  process.env[`${prefix}_CLIENT_ID`] = fake.clientId;
  process.env[`${prefix}_CLIENT_SECRET`] = fake.clientSecret;
  process.env[`${prefix}_AUTH_URL`] = fake.endpoints.authUrl;
  process.env[`${prefix}_TOKEN_URL`] = fake.endpoints.tokenUrl;
  process.env[`${prefix}_API_URL`] = fake.endpoints.apiUrl;
}

export function forgetFake(provider: ProviderId) {
  const prefix = PROVIDERS[provider].settingsPrefix;
  for (const name of ["CLIENT_ID", "CLIENT_SECRET", "AUTH_URL", "TOKEN_URL", "API_URL"])
    delete process.env[`${prefix}_${name}`];
}

export async function startConnection(key: string, fake: FakeProvider, body: Record<string, unknown>) {
  const started = await api("POST", "/integrations/connections", { key, body: { provider: fake.provider, ...body } });
  expect(started.status, JSON.stringify(started.body)).toBe(201);
  return started.body.data as { connection: { id: string; status: string }; authorization_url: string };
}

/** Start, approve at the fake's consent page, complete: the connection is active and its first sync queued. */
export async function connect(key: string, fake: FakeProvider, body: Record<string, unknown>) {
  const { connection, authorization_url } = await startConnection(key, fake, body);
  const { redirect } = await fake.approve(authorization_url);
  const completed = await api("POST", `/integrations/connections/${connection.id}/complete`, {
    key,
    body: { code: redirect.searchParams.get("code"), state: redirect.searchParams.get("state") },
  });
  expect(completed.status, JSON.stringify(completed.body)).toBe(200);
  return completed.body.data as { id: string; status: string };
}

/** Runs every due job (the syncs queued) to the end, as the server's worker would. */
export function runSyncs(): Promise<number> {
  return runDueJobs(integrationJobRunners);
}

export interface StoredMemory {
  id: string;
  content: string;
  metadata: Record<string, unknown>;
  updated_at: string;
}

/** Every memory of the namespace (following the cursor). */
export async function memoriesOf(key: string, namespaceId: string): Promise<StoredMemory[]> {
  const memories: StoredMemory[] = [];
  let cursor: string | null = null;
  do {
    const after = cursor ? `&cursor=${encodeURIComponent(cursor)}` : "";
    const query: string = `namespace_id=${namespaceId}&page_size=100${after}`;
    const page = await api("GET", `/memories?${query}`, { key });
    expect(page.status, JSON.stringify(page.body)).toBe(200);
    memories.push(...page.body.data);
    cursor = page.body.pagination.nextCursor;
  } while (cursor);
  return memories;
}
