// GitHub on loopback for the browser tests: the fake of the integration tests (OAuth consent page, token
// endpoint, REST API with seeded repositories), on a fixed port with a fixed client, because the gateway's
// GITHUB_* settings are written into playwright.config.ts before anything starts.
import { startGithubFake } from "../tests/helpers/providers/github";

export const GITHUB_PORT = Number(process.env.E2E_GITHUB_PORT || 2593);
const origin = `http://127.0.0.1:${GITHUB_PORT}`;

/** The gateway's deployment settings for GitHub (the fake's client id is `github-client-id`). */
export const GITHUB_SETTINGS = {
  GITHUB_CLIENT_ID: "github-client-id",
  GITHUB_CLIENT_SECRET: "e2e-github-client-secret",
  GITHUB_AUTH_URL: `${origin}/oauth/authorize`,
  GITHUB_TOKEN_URL: `${origin}/oauth/token`,
  GITHUB_API_URL: `${origin}/api`,
};

/** What the tests read of the seeded content (set by global setup; Playwright hands its env to the workers). */
export interface GithubSeed {
  connectOptions: { repositories?: string[] };
  documents: { url: string; title: string }[];
}

export function githubSeed(): GithubSeed {
  const seed = process.env.E2E_GITHUB_SEED;
  if (!seed) throw new Error("E2E_GITHUB_SEED is not set: e2e/global-setup.ts starts the GitHub fake.");
  return JSON.parse(seed) as GithubSeed;
}

export async function startGithubProvider(): Promise<() => Promise<void>> {
  const github = await startGithubFake({ port: GITHUB_PORT, clientSecret: GITHUB_SETTINGS.GITHUB_CLIENT_SECRET });
  if (github.clientId !== GITHUB_SETTINGS.GITHUB_CLIENT_ID) {
    throw new Error(`The GitHub fake's client id is ${github.clientId}; update GITHUB_SETTINGS.`);
  }
  const seed: GithubSeed = {
    connectOptions: github.content.connectOptions as GithubSeed["connectOptions"],
    documents: github.content.documents().map(({ url, title }) => ({ url, title })),
  };
  process.env.E2E_GITHUB_SEED = JSON.stringify(seed);
  return () => github.stop();
}
