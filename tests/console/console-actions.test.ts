// Console server actions take their organization's slug as a raw argument: anyone can call a server
// action with any arguments, so a slug no organization can have is refused before any session or
// database read.
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { z } from "zod";

const getServerSession = vi.hoisted(() => vi.fn());
vi.mock("next-auth", () => ({ getServerSession }));
vi.mock("@/lib/console/auth", () => ({ authOptions: async () => ({}) }));

const { runConsoleAction } = await import("@/lib/console/action");
const { organizationAccess } = await import("@/lib/console/session");

let consoleError: ReturnType<typeof vi.spyOn>;
beforeEach(() => {
  getServerSession.mockReset();
  consoleError = vi.spyOn(console, "error");
});
afterEach(() => consoleError.mockRestore());

const SLUGS_NO_ORGANIZATION_HAS: [string, unknown][] = [
  ["a NUL", "acme\u0000"],
  ["a lone surrogate", "acme\uD800"],
  ["a number", 42],
  ["null", null],
  ["an object", { slug: "acme" }],
  ["an array", ["acme"]],
  ["an empty string", ""],
  ["a path", "acme/../other"],
  ["capitals", "Acme"],
  ["65 characters", "a".repeat(65)],
];

describe("runConsoleAction", () => {
  const refused = "a slug with %s → “Unknown organization.”, nothing read, nothing logged";
  test.each(SLUGS_NO_ORGANIZATION_HAS)(refused, async (_label, slug) => {
    const handler = vi.fn();
    const result = await runConsoleAction(slug, { roles: ["owner"], input: z.object({}) }, {}, handler);
    expect(result).toEqual({ ok: false, error: "Unknown organization." });
    expect(getServerSession).not.toHaveBeenCalled();
    expect(handler).not.toHaveBeenCalled();
    expect(consoleError).not.toHaveBeenCalled();
  });

  test("a well-formed slug goes on to the session", async () => {
    getServerSession.mockResolvedValue(null);
    const result = await runConsoleAction("acme-2", { roles: ["owner"], input: z.object({}) }, {}, vi.fn());
    expect(result).toEqual({ ok: false, error: "Your session has ended. Sign in again." });
    expect(getServerSession).toHaveBeenCalledOnce();
  });

  test("the actions of /{org-slug} answer so too (a NUL from a crafted call)", async () => {
    const actions = { ...(await import("@/lib/console/actions/keys")), ...(await import("@/lib/console/actions/org")) };
    for (const action of [actions.generateApiKey, actions.revokeKey, actions.invite, actions.savePolicy]) {
      expect(await action("acme\u0000", {})).toEqual({ ok: false, error: "Unknown organization." });
    }
    expect(getServerSession).not.toHaveBeenCalled();
    expect(consoleError).not.toHaveBeenCalled();
  });
});

test("a page's slug no organization can have is not found (404), not a database error", async () => {
  getServerSession.mockResolvedValue({ userId: "usr_nobody", sessionId: "ses_x", method: "password" });
  expect(await organizationAccess("acme\u0000")).toMatchObject({ membership: null, blocked: false });
  expect(await organizationAccess("no-such-org")).toMatchObject({ membership: null, blocked: false });
});

describe("formFailure", () => {
  test("an upstream error's own text (a provider's message) never reaches the page; it is logged", async () => {
    const { formFailure } = await import("@/lib/console/action");
    const { UpstreamError, ForbiddenError } = await import("@/lib/errors");
    const upstream = new UpstreamError("The provider said: invalid api key sk-live-123");
    expect(formFailure(upstream)).toEqual({ ok: false, error: "Something went wrong on our side. Please try again." });
    expect(consoleError).toHaveBeenCalledWith("[memgw] console action failed:", upstream);
    expect(formFailure(new ForbiddenError("Only owners may do this."))).toEqual({
      ok: false,
      error: "Only owners may do this.",
    });
  });
});
