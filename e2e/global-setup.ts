// Playwright global setup: the mail server and the identity provider the gateway under test talks to.
import { startIdentityProvider } from "./identity-provider";
import { startMailCatcher } from "./mail-catcher";

export default async function globalSetup() {
  const stops = await Promise.all([startMailCatcher(), startIdentityProvider()]);
  return async () => {
    await Promise.all(stops.map((stop) => stop()));
  };
}
