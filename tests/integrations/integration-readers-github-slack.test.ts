// The GitHub and Slack readers (lib/integrations/providers/{github,slack}.ts) against their local fakes,
// through the real SDK clients (@octokit/rest, @slack/web-api): what they list, the text they read,
// pagination, versions that move only on change, the errors the sync engine acts on (429 with Retry-After,
// a refused token) and revocation.
import { afterEach, describe, expect, it } from "vitest";
import {
  type DocumentRef,
  type ProviderModule,
  ProviderRateLimitedError,
  type ProviderReader,
  ProviderUnauthorizedError,
  type ReaderContext,
} from "@/lib/integrations/provider";
import { github, githubProviderError } from "@/lib/integrations/providers/github";
import { slack, SlackChannelNotJoinedError } from "@/lib/integrations/providers/slack";
import { startGithubFake } from "../helpers/providers/github";
import { fakeAccessToken, fakeReaderContext, type FakeProvider } from "../helpers/providers/oauth-server";
import { slackMessageText, slackPermalink, startSlackFake } from "../helpers/providers/slack";

const stops: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(stops.splice(0).map((stop) => stop()));
});

async function list(reader: ProviderReader): Promise<DocumentRef[]> {
  const refs: DocumentRef[] = [];
  for await (const ref of reader.listDocuments()) refs.push(ref);
  return refs;
}

/** Everything the reader lists, with its text, the way a sync reads it; sorted by url. */
async function readAll(module: ProviderModule, readerContext: ReaderContext) {
  const reader = module.reader(readerContext);
  const documents: { url: string; title: string; text: string | null; version: string; sourceId: string }[] = [];
  for (const ref of await list(reader)) {
    documents.push({
      url: ref.url,
      title: ref.title,
      text: await reader.documentText(ref),
      version: ref.version,
      sourceId: ref.sourceId,
    });
  }
  return byUrl(documents);
}

function byUrl<T extends { url: string }>(documents: T[]): T[] {
  return [...documents].sort((a, b) => a.url.localeCompare(b.url));
}

function versions(documents: { url: string; version: string }[]): Map<string, string> {
  return new Map(documents.map((document) => [document.url, document.version]));
}

function requestsTo(fake: FakeProvider, path: string): number {
  return fake.apiRequests.filter((request) => request.path === path).length;
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected a rejection");
}

describe("GitHub reader", () => {
  async function githubFake() {
    const fake = await startGithubFake();
    stops.push(fake.stop);
    return fake;
  }

  it("lists issues, pull requests and Markdown files of the chosen repositories, following every page", async () => {
    const fake = await githubFake();
    const documents = await readAll(github, await fakeReaderContext(fake, fake.content.connectOptions));

    expect(documents.map(({ url, title, text }) => ({ url, title, text }))).toEqual(byUrl(fake.content.documents()));
    expect(documents.map((document) => document.sourceId)).toEqual(
      expect.arrayContaining([
        "issue:octo-org/handbook#1",
        "issue:octo-org/handbook#2",
        "file:octo-org/handbook:docs/deep/rituals.markdown",
        "file:octo-org/tools:CONTRIBUTING.mdx",
      ]),
    );
    const pullRequest = documents.find((document) => document.sourceId === "issue:octo-org/handbook#2")!;
    expect(pullRequest.url).toBe("https://github.com/octo-org/handbook/pull/2");
    expect(pullRequest.text).toMatch(/^Pull request octo-org\/handbook#2: Add dark mode/);
    const comments = documents.find((document) => document.sourceId === "issue:octo-org/handbook#1")!;
    expect(comments.text).toContain(
      "Comment by carol: Moved the cron to UTC; the orange heron now watches the renewals.",
    );
    expect(documents.find((document) => document.sourceId === "file:octo-org/tools:CONTRIBUTING.mdx")!.url).toBe(
      "https://github.com/octo-org/tools/blob/trunk/CONTRIBUTING.mdx",
    );
    // Three issues in pages of two; binary and non-Markdown files are never fetched.
    expect(requestsTo(fake, "/repos/octo-org/handbook/issues")).toBe(2);
    expect(fake.apiRequests.filter((request) => request.path.includes("/git/blobs/"))).toHaveLength(4);
    expect(documents.some((document) => document.url.includes("secret-plans"))).toBe(false);
  });

  it("reads every repository the token can read when no repository is chosen", async () => {
    const fake = await githubFake();
    const documents = await readAll(github, await fakeReaderContext(fake));

    expect(new Set(documents.map((document) => document.url.split("/").slice(3, 5).join("/")))).toEqual(
      new Set(["octo-org/handbook", "octo-org/tools", "octo-org/secret-plans"]),
    );
    expect(requestsTo(fake, "/user/repos")).toBe(2);
  });

  it("leaves out a chosen repository that is gone or no longer shared", async () => {
    const fake = await githubFake();
    const documents = await readAll(
      github,
      await fakeReaderContext(fake, { repositories: ["octo-org/tools", "octo-org/gone"] }),
    );

    expect(new Set(documents.map((document) => document.url.split("/")[4]))).toEqual(new Set(["tools"]));
  });

  it("finds every file when GitHub truncates the recursive tree", async () => {
    const fake = await githubFake();
    const readerContext = await fakeReaderContext(fake, fake.content.connectOptions);
    const whole = await readAll(github, readerContext);
    fake.settings.truncateRecursiveTrees = true;

    expect(await readAll(github, readerContext)).toEqual(whole);
  });

  it("moves a version only when its document changes, and lists exactly what is there now", async () => {
    const fake = await githubFake();
    const readerContext = await fakeReaderContext(fake, fake.content.connectOptions);
    const before = versions(await list(github.reader(readerContext)));
    expect(versions(await list(github.reader(readerContext)))).toEqual(before);

    const changed = fake.content.changeOne();
    const deleted = fake.content.deleteOne();
    const added = fake.content.addOne();
    const after = await readAll(github, readerContext);

    expect(after.map(({ url, title, text }) => ({ url, title, text }))).toEqual(byUrl(fake.content.documents()));
    for (const [url, version] of versions(after)) {
      if (url === changed.url || url === added.url) continue;
      expect(version, url).toBe(before.get(url));
    }
    expect(versions(after).get(changed.url)).not.toBe(before.get(changed.url));
    expect(after.find((document) => document.url === changed.url)!.text).toContain(changed.phrase);
    expect(versions(after).has(deleted.url)).toBe(false);
    expect(before.has(added.url)).toBe(false);
    expect(after.find((document) => document.url === added.url)!.text).toContain(added.phrase);
  });

  it("turns a 429 into ProviderRateLimitedError with the Retry-After seconds, without retrying", async () => {
    const fake = await githubFake();
    const reader = github.reader(await fakeReaderContext(fake, fake.content.connectOptions));
    fake.rateLimitNext(1, 7);

    const error = await rejection(list(reader));
    expect(error).toBeInstanceOf(ProviderRateLimitedError);
    expect((error as ProviderRateLimitedError).retryAfterSeconds).toBe(7);
    expect(fake.apiRequests).toHaveLength(0);
    expect((await list(reader)).length).toBe(fake.content.documents().length);
  });

  it("reads GitHub's 403 rate limits: secondary with Retry-After, primary until x-ratelimit-reset", () => {
    const now = Date.parse("2026-03-02T09:00:00Z");
    const secondary = githubProviderError({ status: 403, response: { headers: { "retry-after": "30" } } }, now);
    expect(secondary).toBeInstanceOf(ProviderRateLimitedError);
    expect((secondary as ProviderRateLimitedError).retryAfterSeconds).toBe(30);

    const reset = String(now / 1000 + 95);
    const primary = githubProviderError(
      { status: 403, response: { headers: { "x-ratelimit-remaining": "0", "x-ratelimit-reset": reset } } },
      now,
    );
    expect((primary as ProviderRateLimitedError).retryAfterSeconds).toBe(95);

    const forbidden = { status: 403, response: { headers: { "x-ratelimit-remaining": "4999" } } };
    expect(githubProviderError(forbidden, now)).toBe(forbidden);
  });

  it("turns a refused token into ProviderUnauthorizedError", async () => {
    const fake = await githubFake();
    const reader = github.reader(await fakeReaderContext(fake, fake.content.connectOptions));
    fake.expireAccessTokens();

    expect(await rejection(list(reader))).toBeInstanceOf(ProviderUnauthorizedError);
  });

  it("revokes the token as the OAuth app, and a token already gone resolves", async () => {
    const fake = await githubFake();
    const token = await fakeAccessToken(fake);
    const revokeContext = {
      endpoints: fake.endpoints,
      clientId: fake.clientId,
      clientSecret: fake.clientSecret,
      accessToken: token,
    };

    await github.revoke(revokeContext);
    expect(fake.revokedTokens).toEqual([token]);
    await expect(github.revoke(revokeContext)).resolves.toBeUndefined();
    const refused = await rejection(
      list(github.reader({ accessToken: token, endpoints: fake.endpoints, options: fake.content.connectOptions })),
    );
    expect(refused).toBeInstanceOf(ProviderUnauthorizedError);
  });

  it("reports a revocation GitHub refuses without the token in the error", async () => {
    const fake = await githubFake();
    const token = await fakeAccessToken(fake);
    const wrongSecret = {
      endpoints: fake.endpoints,
      clientId: fake.clientId,
      clientSecret: "wrong",
      accessToken: token,
    };

    const error = await rejection(github.revoke(wrongSecret));
    expect((error as Error).message).toMatch(/^GitHub refused to revoke the token \(HTTP 401/);
    expect(JSON.stringify(error, Object.getOwnPropertyNames(error))).not.toContain(token);
    expect(fake.revokedTokens).toEqual([]);
  });

  it("accepts only repositories GitHub could name", () => {
    expect(github.options.safeParse({ repositories: ["octo-org/handbook", "a/b.c_d-e"] }).success).toBe(true);
    expect(github.options.safeParse({}).success).toBe(true);
    for (const repositories of [[], ["handbook"], ["-octo/handbook"], ["octo/hand book"], ["octo/.."], ["a/b/c"]]) {
      expect(github.options.safeParse({ repositories }).success, JSON.stringify(repositories)).toBe(false);
    }
    expect(github.options.safeParse({ repositories: ["o/r"], branch: "main" }).success).toBe(false);
  });
});

describe("Slack reader", () => {
  async function slackFake() {
    const fake = await startSlackFake();
    stops.push(fake.stop);
    return fake;
  }

  it("lists each message of the chosen channels with its thread, following every cursor", async () => {
    const fake = await slackFake();
    const documents = await readAll(slack, await fakeReaderContext(fake, fake.content.connectOptions));

    expect(documents.map(({ url, title, text }) => ({ url, title, text }))).toEqual(byUrl(fake.content.documents()));
    const thread = documents.find((document) => document.text?.includes("Reply by carol"))!;
    expect(thread.text).toMatch(/^Message by alice in #general: Reminder: the lighthouse keeper/);
    const text = "Reminder: the lighthouse keeper logs the tide at dawn, so standup moves to 7:30.";
    expect(thread.title).toBe(`#general: ${text.slice(0, 80)}`);
    expect(thread.url).toMatch(/^https:\/\/fake-team\.slack\.com\/archives\/C0GENERAL\/p\d{16}$/);
    expect(thread.sourceId).toMatch(/^C0GENERAL:\d+\.\d{6}$/);
    // Four messages (one a join) in pages of two; a thread of a parent and two replies in pages of two.
    expect(requestsTo(fake, "/conversations.history")).toBe(3);
    expect(requestsTo(fake, "/conversations.replies")).toBe(2);
    expect(documents.some((document) => document.text?.includes("has joined"))).toBe(false);
  });

  it("reads every channel the app is a member of when no channel is chosen, without archived ones", async () => {
    const fake = await slackFake();
    const documents = await readAll(slack, await fakeReaderContext(fake));

    expect(new Set(documents.map((document) => document.url.split("/")[4]))).toEqual(
      new Set(["C0GENERAL", "G0LEADERS", "C0RANDOM"]),
    );
    expect(requestsTo(fake, "/conversations.list")).toBe(2);
  });

  it("names people by their ids when the token may not read users", async () => {
    const fake = await slackFake();
    fake.settings.usersReadable = false;
    const documents = await readAll(slack, await fakeReaderContext(fake, fake.content.connectOptions));

    const thread = documents.find((document) => document.text?.includes("orange heron"))!;
    expect(thread.text).toMatch(/^Message by U0ALICE in #general: /);
    expect(thread.text).toContain("Reply by U0CAROL: Yes, and the orange heron will bring coffee.");
  });

  it("leaves out a chosen channel that is gone, and says so when the app was never invited to one", async () => {
    const fake = await slackFake();
    const gone = await readAll(slack, await fakeReaderContext(fake, { channels: ["G0LEADERS", "C0DELETED"] }));
    expect(gone.map((document) => document.url.split("/")[4])).toEqual(["G0LEADERS"]);

    const error = await rejection(
      list(slack.reader(await fakeReaderContext(fake, { channels: ["C0GENERAL", "C0WATER"] }))),
    );
    expect(error).toBeInstanceOf(SlackChannelNotJoinedError);
    expect((error as Error).message).toContain("#watercooler");
  });

  it("moves a version only when its message, an edit or a reply changes it", async () => {
    const fake = await slackFake();
    const readerContext = await fakeReaderContext(fake, fake.content.connectOptions);
    const before = versions(await list(slack.reader(readerContext)));
    expect(versions(await list(slack.reader(readerContext)))).toEqual(before);

    const changed = fake.content.changeOne();
    const deleted = fake.content.deleteOne();
    const added = fake.content.addOne();
    const leadership = fake.channels.find((channel) => channel.id === "G0LEADERS")!;
    const edited = leadership.messages[0];
    edited.text = "Budget review: the saffron invoices are paid in full by April.";
    // Later than anything the fake's clock has posted.
    edited.editedTs = "1790000000.000001";
    const after = await readAll(slack, readerContext);

    expect(after.map(({ url, title, text }) => ({ url, title, text }))).toEqual(byUrl(fake.content.documents()));
    const editedUrl = slackPermalink(leadership, edited);
    for (const [url, version] of versions(after)) {
      if ([changed.url, added.url, editedUrl].includes(url)) continue;
      expect(version, url).toBe(before.get(url));
    }
    expect(versions(after).get(changed.url)).not.toBe(before.get(changed.url));
    expect(versions(after).get(editedUrl)).toBe(edited.editedTs);
    expect(after.find((document) => document.url === editedUrl)!.text).toBe(slackMessageText(leadership, edited));
    expect(after.find((document) => document.url === changed.url)!.text).toContain(changed.phrase);
    expect(versions(after).has(deleted.url)).toBe(false);
    expect(after.find((document) => document.url === added.url)!.text).toContain(added.phrase);
  });

  it("turns a 429 into ProviderRateLimitedError with the Retry-After seconds, without retrying", async () => {
    const fake = await slackFake();
    const reader = slack.reader(await fakeReaderContext(fake, fake.content.connectOptions));
    fake.rateLimitNext(1, 5);

    const started = Date.now();
    const error = await rejection(list(reader));
    expect(error).toBeInstanceOf(ProviderRateLimitedError);
    expect((error as ProviderRateLimitedError).retryAfterSeconds).toBe(5);
    expect(Date.now() - started).toBeLessThan(4000);
    expect(fake.apiRequests).toHaveLength(0);
    expect((await list(reader)).length).toBe(fake.content.documents().length);
  });

  it("turns a refused token into ProviderUnauthorizedError", async () => {
    const fake = await slackFake();
    const reader = slack.reader(await fakeReaderContext(fake, fake.content.connectOptions));
    fake.expireAccessTokens();

    expect(await rejection(list(reader))).toBeInstanceOf(ProviderUnauthorizedError);
  });

  it("revokes the token with auth.revoke, and a token already gone resolves", async () => {
    const fake = await slackFake();
    const token = await fakeAccessToken(fake);
    const revokeContext = {
      endpoints: fake.endpoints,
      clientId: fake.clientId,
      clientSecret: fake.clientSecret,
      accessToken: token,
    };

    await slack.revoke(revokeContext);
    expect(fake.revokedTokens).toEqual([token]);
    await expect(slack.revoke(revokeContext)).resolves.toBeUndefined();
  });

  it("accepts only channel ids", () => {
    expect(slack.options.safeParse({ channels: ["C0GENERAL", "G0LEADERS"] }).success).toBe(true);
    expect(slack.options.safeParse({}).success).toBe(true);
    for (const channels of [[], ["general"], ["#general"], ["D0DIRECT"], ["c0general"]]) {
      expect(slack.options.safeParse({ channels }).success, JSON.stringify(channels)).toBe(false);
    }
    expect(slack.options.safeParse({ channels: ["C0GENERAL"], since: "2020" }).success).toBe(false);
  });
});
