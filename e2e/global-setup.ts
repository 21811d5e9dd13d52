// Playwright global setup: the mail server, the identity provider and GitHub the gateway under test talks to.
import { startGithubProvider } from "./github-provider";
import { startIdentityProvider } from "./identity-provider";
import { startMailCatcher } from "./mail-catcher";

export default async function globalSetup() {
  const stops = await Promise.all([startMailCatcher(), startIdentityProvider(), startGithubProvider()]);
  return async () => {
    await Promise.all(stops.map((stop) => stop()));
  };
}
