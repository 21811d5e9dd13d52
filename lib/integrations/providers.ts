// The providers a namespace can be connected to: what each syncs, the OAuth details of its authorization
// code flow, and where it lives. The deployment sets each provider's OAuth client and endpoints with
// GITHUB_*, NOTION_*, GOOGLE_DRIVE_* and SLACK_* (CLIENT_ID, CLIENT_SECRET, AUTH_URL, TOKEN_URL, API_URL);
// the endpoints default to the real services. These are operator settings, trusted like every URL of
// the environment (an organization can set only its own client id and secret, never a URL).
import { type IntegrationSettingsPrefix, setting } from "@/lib/config";
import type { ProviderEndpoints, ProviderId, ProviderModule } from "./provider";
import { github } from "./providers/github";
import { googleDrive } from "./providers/google-drive";
import { notion } from "./providers/notion";
import { slack } from "./providers/slack";

export interface ProviderDefinition {
  id: ProviderId;
  name: string;
  /** What a connection brings into its namespace, as the console and GET /integrations/providers say it. */
  syncs: string;
  scopes: string[];
  /** What `options` of a new connection take, as the OpenAPI document says it. */
  optionsDescription: string;
  /** The environment's prefix for this provider's settings. */
  settingsPrefix: IntegrationSettingsPrefix;
  /** The provider accepts PKCE (S256) on its authorization code flow. */
  pkce: boolean;
  /** How the token endpoint wants the client authenticated and the request encoded. */
  tokenRequest: { clientAuthentication: "basic" | "body"; encoding: "form" | "json" };
  /** Extra parameters of the authorization URL (a refresh token from Google needs offline access). */
  authorizationParameters?: Record<string, string>;
  /** How the scopes are joined in the authorization URL. */
  scopeSeparator: string;
  module: ProviderModule;
}

export const PROVIDERS: Record<ProviderId, ProviderDefinition> = {
  github: {
    id: "github",
    optionsDescription: '`{repositories?: ["owner/name", …]}`: absent, every repository the token can read',
    name: "GitHub",
    syncs: "Issues and pull requests with their comments, and the Markdown files of the chosen repositories",
    scopes: ["repo"],
    settingsPrefix: "GITHUB",
    pkce: true,
    tokenRequest: { clientAuthentication: "body", encoding: "form" },
    scopeSeparator: " ",
    module: github,
  },
  notion: {
    id: "notion",
    optionsDescription: "`{}`: Notion syncs the pages and databases the person shares with the integration at consent",
    name: "Notion",
    syncs: "The pages and databases shared with the integration, as text",
    scopes: [],
    settingsPrefix: "NOTION",
    pkce: false,
    tokenRequest: { clientAuthentication: "basic", encoding: "json" },
    authorizationParameters: { owner: "user" },
    scopeSeparator: " ",
    module: notion,
  },
  google_drive: {
    id: "google_drive",
    optionsDescription: "`{folder_id?}`: absent, every Google Doc, text and Markdown file the token can see",
    name: "Google Drive",
    syncs: "Google Docs exported as text, and the plain-text and Markdown files of the chosen folder",
    scopes: ["https://www.googleapis.com/auth/drive.readonly"],
    settingsPrefix: "GOOGLE_DRIVE",
    pkce: true,
    tokenRequest: { clientAuthentication: "body", encoding: "form" },
    // Without offline access Google issues no refresh token; prompt=consent issues one on every connection.
    authorizationParameters: { access_type: "offline", prompt: "consent", include_granted_scopes: "true" },
    scopeSeparator: " ",
    module: googleDrive,
  },
  slack: {
    id: "slack",
    optionsDescription: '`{channels?: ["C0123ABCD", …]}`: absent, every channel the app is a member of',
    name: "Slack",
    syncs: "The messages and threads of the chosen channels",
    scopes: ["channels:history", "channels:read", "groups:history", "groups:read", "users:read"],
    settingsPrefix: "SLACK",
    pkce: false,
    tokenRequest: { clientAuthentication: "body", encoding: "form" },
    scopeSeparator: ",",
    module: slack,
  },
};

export const PROVIDER_LIST = Object.values(PROVIDERS);

/** The deployment's OAuth client for a provider, when both its settings are set. */
export function deploymentClient(provider: ProviderDefinition): { clientId: string; clientSecret: string } | null {
  const clientId = setting(`${provider.settingsPrefix}_CLIENT_ID`);
  const clientSecret = setting(`${provider.settingsPrefix}_CLIENT_SECRET`);
  return clientId && clientSecret ? { clientId, clientSecret } : null;
}

/** Where the provider lives: its settings, whose defaults are the real service. */
export function providerEndpoints(provider: ProviderDefinition): ProviderEndpoints {
  const prefix = provider.settingsPrefix;
  return {
    authUrl: setting(`${prefix}_AUTH_URL`),
    tokenUrl: setting(`${prefix}_TOKEN_URL`),
    apiUrl: setting(`${prefix}_API_URL`),
  };
}
