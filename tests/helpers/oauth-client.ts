// What an MCP client keeps of its OAuth state (the SDK's OAuthClientProvider), in memory: the vitest suite
// and the browser test both drive the official SDK client with it.
import type { OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from "@modelcontextprotocol/sdk/shared/auth.js";

export const CLIENT_REDIRECT_URI = "http://localhost:8976/callback";

/** A public client (no secret) named `clientName`; `authorizationUrl` is where it would open a browser. */
export class MemoryOAuthClient implements OAuthClientProvider {
  information?: OAuthClientInformationMixed;
  saved?: OAuthTokens;
  verifier = "";
  authorizationUrl?: URL;
  readonly redirectUrl = CLIENT_REDIRECT_URI;
  readonly clientMetadata: OAuthClientMetadata;

  constructor(clientName: string) {
    this.clientMetadata = {
      client_name: clientName,
      redirect_uris: [CLIENT_REDIRECT_URI],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
    };
  }

  clientInformation = () => this.information;
  saveClientInformation = (information: OAuthClientInformationMixed) => void (this.information = information);
  tokens = () => this.saved;
  saveTokens = (tokens: OAuthTokens) => void (this.saved = tokens);
  redirectToAuthorization = (url: URL) => void (this.authorizationUrl = url);
  saveCodeVerifier = (verifier: string) => void (this.verifier = verifier);
  codeVerifier = () => this.verifier;
}
