import { expect, test, type APIRequestContext, type Browser, type Page } from "@playwright/test";
import { alertOn, signInWithPassword, signOut, signUp, unique } from "./console";
import { IDP_ISSUER } from "./identity-provider";

/**
 * As an owner on the settings page: registers the organization's redirect URI with the identity provider
 * (as its administrator would) and saves the connection for `domain`.
 */
async function connectIdentityProvider(page: Page, request: APIRequestContext, domain: string) {
  await page.getByRole("link", { name: "Settings" }).click();
  const redirectUri = (await page.getByTestId("sso-redirect-uri").innerText()).trim();
  expect(redirectUri).toMatch(/\/api\/auth\/callback\/sso-org_/);
  const registration = await request.post(`${IDP_ISSUER}/reg`, {
    data: {
      redirect_uris: [redirectUri],
      grant_types: ["authorization_code"],
      response_types: ["code"],
      token_endpoint_auth_method: "client_secret_basic",
    },
  });
  expect(registration.status()).toBe(201);
  const client = await registration.json();

  await page.getByLabel("Issuer URL").fill(IDP_ISSUER);
  await page.getByLabel("Client ID").fill(client.client_id);
  await page.getByLabel("Client secret").fill(client.client_secret);
  await page.getByLabel("Allowed email domains").fill(domain);
  await page.getByRole("button", { name: "Save SSO connection" }).click();
  await expect(page.getByRole("main").getByRole("status")).toHaveText("SSO connection saved.");
}

async function saveSignInMethods(page: Page, methods: { sso: boolean; password: boolean; magicLink: boolean }) {
  await page.getByLabel("Single sign-on (your identity provider)").setChecked(methods.sso);
  await page.getByLabel("Password", { exact: true }).setChecked(methods.password);
  await page.getByLabel("Magic link by email").setChecked(methods.magicLink);
  await page.getByRole("button", { name: "Save sign-in methods" }).click();
}

/**
 * The identity provider's own sign-in and consent pages. A browser already signed in there (and having
 * consented) comes straight back to the gateway, at a URL matching `landing`.
 */
async function throughIdentityProvider(page: Page, idpLogin: string, landing: RegExp) {
  await page.waitForURL((url) => url.href.startsWith(`${IDP_ISSUER}/interaction/`) || landing.test(url.href));
  if (!page.url().startsWith(IDP_ISSUER)) return;
  await page.getByPlaceholder("Enter any login").fill(idpLogin);
  await page.getByPlaceholder("and password").fill("the identity provider checks this, not us");
  await page.getByRole("button", { name: "Sign-in" }).click();
  await page.getByRole("button", { name: "Continue" }).click();
}

/** "Continue with SSO" on the sign-in page, then the identity provider. */
async function signInWithSso(page: Page, emailOrSlug: string, idpLogin: string) {
  await page.goto("/sign-in");
  await page.getByRole("tab", { name: "SSO" }).click();
  await page.getByLabel("Work email or organization slug").fill(emailOrSlug);
  await page.getByRole("button", { name: "Continue with SSO" }).click();
  // Signed in, people land on the organization's overview (/{slug}).
  await throughIdentityProvider(
    page,
    idpLogin,
    /127\.0\.0\.1:\d+\/(?!sign-in$)[a-z0-9-]+(\/settings)?$|\/sign-in\?.*error=/,
  );
}

async function freshPage(browser: Browser) {
  return (await browser.newContext()).newPage();
}

test("SSO through the organization's identity provider: allowed domains join as members, others are refused", async ({
  page,
  browser,
  request,
}) => {
  const domain = `acme-${unique()}.test`;
  const orgName = `Acme ${unique()}`;
  await signUp(page, `olga@${domain}`, orgName);
  const slug = new URL(page.url()).pathname.split("/")[1];
  await connectIdentityProvider(page, request, domain);
  await saveSignInMethods(page, { sso: true, password: true, magicLink: true });
  await expect(page.getByRole("main").getByRole("status")).toHaveText("Sign-in methods saved.");
  await page.screenshot({ path: "test-results/screenshots/settings-sso.png", fullPage: true });

  // Someone of the domain, new to the gateway: the first SSO sign-in creates the account and a membership.
  const sam = await freshPage(browser);
  await signInWithSso(sam, `sam@${domain}`, `sam@${domain}`);
  await expect(sam).toHaveURL(new RegExp(`/${slug}$`));
  await expect(sam.getByTestId("signed-in-as")).toHaveText(`sam@${domain}`);
  await sam.getByRole("link", { name: "Members" }).click();
  await expect(sam.getByTestId("member-row").filter({ hasText: `sam@${domain}` })).toContainText("member");
  await expect(sam.getByRole("button", { name: "Send invitation" })).toHaveCount(0);

  // The identity provider vouches for an address outside the allowed domains: no account, no membership.
  const eve = await freshPage(browser);
  await signInWithSso(eve, slug, "eve@elsewhere.test");
  await expect(eve).toHaveURL(/\/sign-in\?error=SsoDomain/);
  await expect(alertOn(eve)).toHaveText(
    "Your identity provider signed you in, but your email domain is not allowed for this organization.",
  );

  // An address the identity provider has not verified is refused too.
  const unverified = await freshPage(browser);
  await signInWithSso(unverified, slug, `unverified-tom@${domain}`);
  await expect(alertOn(unverified)).toHaveText("Your identity provider did not confirm your email address.");

  await page.getByRole("link", { name: "Members" }).click();
  await expect(page.getByTestId("member-row")).toHaveCount(2);
  await expect(page.getByTestId("member-row").filter({ hasText: `sam@${domain}` })).toContainText("member");
  await expect(page.getByText("elsewhere.test")).toHaveCount(0);
  await expect(page.getByText("unverified-tom")).toHaveCount(0);
});

test("an SSO-only organization refuses a password session, explains why and offers single sign-on", async ({
  page,
  request,
  browser,
}) => {
  const domain = `globex-${unique()}.test`;
  const owner = `hank@${domain}`;
  const orgName = `Globex ${unique()}`;
  await signUp(page, owner, orgName);
  const slug = new URL(page.url()).pathname.split("/")[1];
  await connectIdentityProvider(page, request, domain);
  await saveSignInMethods(page, { sso: true, password: true, magicLink: true });
  await expect(page.getByRole("main").getByRole("status")).toHaveText("Sign-in methods saved.");

  // Signed in with the sign-up's password (the finish page signs in with it), the owner cannot turn
  // passwords off and lock themselves out.
  await saveSignInMethods(page, { sso: true, password: false, magicLink: false });
  await expect(alertOn(page)).toContainText("You signed in with password, which this change turns off.");
  await page.reload();
  await expect(page.getByLabel("Password", { exact: true })).toBeChecked();

  // The identity provider asserting the owner's address is not enough to enter the owner's account: any
  // organization's owner could make theirs assert it. Refused, with how to link it instead.
  const stranger = await freshPage(browser);
  await signInWithSso(stranger, owner, owner);
  await expect(stranger).toHaveURL(/\/sign-in\?.*error=OAuthAccountNotLinked/);
  await expect(alertOn(stranger)).toContainText(
    "sign in with your password or magic link, then link single sign-on from your account page",
  );
  await expect(stranger.getByTestId("signed-in-as")).toHaveCount(0);
  for (const width of [1280, 390]) {
    await stranger.setViewportSize({ width, height: 900 });
    await stranger.screenshot({ path: `test-results/screenshots/sign-in-sso-not-linked-${width}.png`, fullPage: true });
  }

  // Signed in with the password, the owner links the identity from the account page.
  await page.getByRole("link", { name: "Account" }).click();
  await page.getByRole("button", { name: `Link single sign-on of ${orgName}` }).click();
  await throughIdentityProvider(page, owner, /\/account\?linked=/);
  await expect(page.getByRole("main").getByRole("status")).toHaveText(
    `Single sign-on of ${orgName} is linked to your account.`,
  );
  await expect(page.getByTestId("sso-link-row")).toContainText("Linked");

  // Now the identity provider signs in to the same account (still owner).
  await signOut(page);
  await signInWithSso(page, owner, owner);
  await expect(page).toHaveURL(new RegExp(`/${slug}$`));
  await page.getByRole("link", { name: "Settings" }).click();
  await saveSignInMethods(page, { sso: true, password: false, magicLink: false });
  await expect(page.getByRole("main").getByRole("status")).toHaveText("Sign-in methods saved.");

  // The password still signs the person in, but the organization does not open to that session.
  await signOut(page);
  await signInWithPassword(page, owner);
  await expect(page.getByRole("heading", { name: /needs another sign-in method/ })).toBeVisible();
  await expect(alertOn(page)).toContainText("You signed in with password, which");
  await expect(page.getByRole("main")).toContainText("sign in with single sign-on");
  await expect(page.getByRole("link", { name: "API keys" })).toHaveCount(0);
  await page.screenshot({ path: "test-results/screenshots/sso-only-blocked.png", fullPage: true });
  await page.getByRole("button", { name: "Sign out and sign in again" }).click();
  await expect(page.getByRole("tab", { name: "SSO" })).toHaveAttribute("aria-selected", "true");
  await expect(page.getByLabel("Work email or organization slug")).toBeVisible();
});
