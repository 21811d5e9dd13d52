// The Notion and Google Drive readers (lib/integrations/providers/{notion,google-drive}.ts) against their
// local fakes, through the real SDK clients: what they list, the text they read, versions that move only
// on change, and the errors the sync engine acts on (429 with Retry-After, a refused token), and revocation.
import { afterEach, describe, expect, it } from "vitest";
import { googleDrive } from "@/lib/integrations/providers/google-drive";
import { notion } from "@/lib/integrations/providers/notion";
import {
  ProviderRateLimitedError,
  ProviderUnauthorizedError,
  type DocumentRef,
  type ProviderModule,
  type ReaderContext,
} from "@/lib/integrations/provider";
import { startGoogleDriveFake } from "../helpers/providers/google-drive";
import { startNotionFake } from "../helpers/providers/notion";
import { fakeAccessToken, fakeReaderContext } from "../helpers/providers/oauth-server";

const stops: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(stops.splice(0).map((stop) => stop()));
});

async function list(module: ProviderModule, readerContext: ReaderContext): Promise<DocumentRef[]> {
  const refs: DocumentRef[] = [];
  for await (const ref of module.reader(readerContext).listDocuments()) refs.push(ref);
  return refs;
}

/** url → text of everything the reader lists, the way a sync reads it. */
async function readAll(module: ProviderModule, readerContext: ReaderContext) {
  const reader = module.reader(readerContext);
  const documents: { url: string; title: string; text: string | null; version: string }[] = [];
  for await (const ref of reader.listDocuments()) {
    documents.push({ url: ref.url, title: ref.title, text: await reader.documentText(ref), version: ref.version });
  }
  return documents.sort((a, b) => a.url.localeCompare(b.url));
}

function byUrl<T extends { url: string }>(documents: T[]): T[] {
  return [...documents].sort((a, b) => a.url.localeCompare(b.url));
}

describe("Notion reader", () => {
  async function notionFake() {
    const fake = await startNotionFake();
    stops.push(fake.stop);
    return fake;
  }

  it("lists every shared page and database, leaves trashed pages out, and reads each as text", async () => {
    const fake = await notionFake();
    const documents = await readAll(notion, await fakeReaderContext(fake, fake.content.connectOptions));
    const expected = byUrl(fake.content.documents());
    expect(documents.map(({ url, title, text }) => ({ url, title, text }))).toEqual(expected);
    expect(documents.map((document) => document.title)).not.toContain("Old draft");

    const lighthouse = documents.find((document) => document.title === "Lighthouse operations")!;
    expect(lighthouse.text).toBe(
      [
        "Lighthouse operations",
        "",
        "# Daily routine",
        "The lighthouse keeper logs the tide at dawn.",
        "- Check the lamp",
        "  Polish the Fresnel lens weekly.",
        "- Wind the clockwork",
        "1. Climb the stairs",
        "2. Open the shutters",
        "[x] Order paraffin",
        "[ ] Repaint the gallery rail",
        "## Notes",
        "> A light that fails at dusk is no light at all.",
        "```python\nbeam_interval_seconds = 15\n```",
        "Storm season starts in October.",
        "Radio channels",
        "  Channel 16 is for distress calls.",
      ].join("\n"),
    );
    const database = documents.find((document) => document.title === "Reading list")!;
    expect(database.text).toContain("Database: Reading list");
    expect(database.text).toContain("Longitude\nSummary: Harrison's marine chronometer solved the longitude problem.");
    expect(database.text).toContain("Status: Reading");

    // Search, block children and their nested children answer two results a page: the cursors were followed.
    const paths = fake.apiRequests.map((request) => `${request.method} ${request.path}`);
    expect(paths.filter((path) => path === "POST /v1/search").length).toBeGreaterThanOrEqual(4);
    expect(paths.filter((path) => path.endsWith("/query")).length).toBeGreaterThanOrEqual(1);
  });

  it("moves a document's version only when its text changes, and forgets deleted pages", async () => {
    const fake = await notionFake();
    const readerContext = await fakeReaderContext(fake);
    const before = new Map((await list(notion, readerContext)).map((ref) => [ref.url, ref.version]));
    const unchanged = new Map((await list(notion, readerContext)).map((ref) => [ref.url, ref.version]));
    expect(unchanged).toEqual(before);

    const changed = fake.content.changeOne();
    const deleted = fake.content.deleteOne();
    const addedOne = fake.content.addOne();
    const after = await readAll(notion, readerContext);
    const versions = new Map(after.map((document) => [document.url, document.version]));
    for (const [url, version] of before) {
      if (url === deleted.url) expect(versions.has(url)).toBe(false);
      else if (url === changed.url) expect(versions.get(url)).not.toBe(version);
      else expect(versions.get(url), url).toBe(version);
    }
    expect(after.find((document) => document.url === changed.url)!.text).toContain(changed.phrase);
    expect(after.find((document) => document.url === addedOne.url)!.text).toContain(addedOne.phrase);
    expect(after.map(({ url, title, text }) => ({ url, title, text }))).toEqual(byUrl(fake.content.documents()));
  });

  it("answers a 429 with ProviderRateLimitedError carrying Retry-After, without retrying", async () => {
    const fake = await notionFake();
    const readerContext = await fakeReaderContext(fake);
    fake.rateLimitNext(1, 7);
    const error = await list(notion, readerContext).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ProviderRateLimitedError);
    expect((error as ProviderRateLimitedError).retryAfterSeconds).toBe(7);
    // The SDK did not retry on its own: the next listing is the first request after the 429.
    expect(fake.apiRequests).toHaveLength(0);
    expect((await list(notion, readerContext)).length).toBeGreaterThan(0);
  });

  it("answers an expired token with ProviderUnauthorizedError", async () => {
    const fake = await notionFake();
    const readerContext = await fakeReaderContext(fake);
    fake.expireAccessTokens();
    await expect(list(notion, readerContext)).rejects.toBeInstanceOf(ProviderUnauthorizedError);
  });

  it("revokes the token at Notion, and a token already gone revokes quietly", async () => {
    const fake = await notionFake();
    const token = await fakeAccessToken(fake);
    const revokeContext = { endpoints: fake.endpoints, clientId: fake.clientId, clientSecret: fake.clientSecret };
    await notion.revoke({ ...revokeContext, accessToken: token });
    expect(fake.revokedTokens).toEqual([token]);
    await expect(notion.revoke({ ...revokeContext, accessToken: token })).resolves.toBeUndefined();
    await expect(list(notion, { accessToken: token, endpoints: fake.endpoints, options: {} })).rejects.toBeInstanceOf(
      ProviderUnauthorizedError,
    );
  });

  it("reads the same through an API URL configured with the /v1 suffix", async () => {
    const fake = await notionFake();
    const readerContext = await fakeReaderContext(fake);
    const endpoints = { ...fake.endpoints, apiUrl: `${fake.endpoints.apiUrl}/v1/` };
    const plain = (await list(notion, readerContext)).map((ref) => ref.url);
    expect((await list(notion, { ...readerContext, endpoints })).map((ref) => ref.url)).toEqual(plain);
  });

  it("takes no options", () => {
    expect(notion.options.safeParse({}).success).toBe(true);
    expect(notion.options.safeParse({ page_id: "abc" }).success).toBe(false);
  });
});

describe("Google Drive reader", () => {
  async function driveFake() {
    const fake = await startGoogleDriveFake();
    stops.push(fake.stop);
    return fake;
  }

  it("lists the Docs, text and Markdown files of the folder and its subfolders, and reads each", async () => {
    const fake = await driveFake();
    const documents = await readAll(googleDrive, await fakeReaderContext(fake, fake.content.connectOptions));
    expect(documents.map(({ url, title, text }) => ({ url, title, text }))).toEqual(byUrl(fake.content.documents()));
    const titles = documents.map((document) => document.title).sort();
    // Not: the image, the PDF, the spreadsheet, the binary file, the 6 MiB log, the trashed memo, the other
    // folder's diary.
    expect(titles).toEqual(["Onboarding guide", "glossary.md", "packing-list.txt", "release-process.md"]);
    const onboarding = documents.find((document) => document.title === "Onboarding guide")!;
    expect(onboarding.text).toBe(
      "Onboarding guide\n\nWelcome aboard\n\nThe lighthouse keeper logs the tide at dawn.\n" +
        "New colleagues shadow a keeper for a week.",
    );
    expect(onboarding.url).toMatch(/^https:\/\/docs\.google\.com\/document\/d\/[\w-]+\/edit/);

    const requests = fake.apiRequests.map((request) => request.path);
    // Two folders, six files matching the handbook's query and two the subfolder's, two a page: the page
    // tokens were followed.
    expect(requests.filter((path) => path === "/drive/v3/files").length).toBe(4);
    expect(requests.filter((path) => path.endsWith("/export"))).toHaveLength(1);
  });

  it("without a folder lists every text document the token sees", async () => {
    const fake = await driveFake();
    const titles = (await list(googleDrive, await fakeReaderContext(fake))).map((ref) => ref.title).sort();
    expect(titles).toEqual(["Onboarding guide", "diary.txt", "glossary.md", "packing-list.txt", "release-process.md"]);
  });

  it("moves a document's version only when it changes, and forgets trashed files", async () => {
    const fake = await driveFake();
    const readerContext = await fakeReaderContext(fake, fake.content.connectOptions);
    const before = new Map((await list(googleDrive, readerContext)).map((ref) => [ref.url, ref.version]));
    expect(new Map((await list(googleDrive, readerContext)).map((ref) => [ref.url, ref.version]))).toEqual(before);

    const changed = fake.content.changeOne();
    const deleted = fake.content.deleteOne();
    const addedOne = fake.content.addOne();
    const after = await readAll(googleDrive, readerContext);
    const versions = new Map(after.map((document) => [document.url, document.version]));
    for (const [url, version] of before) {
      if (url === deleted.url) expect(versions.has(url)).toBe(false);
      else if (url === changed.url) expect(versions.get(url)).not.toBe(version);
      else expect(versions.get(url), url).toBe(version);
    }
    expect(after.find((document) => document.url === changed.url)!.text).toContain(changed.phrase);
    expect(after.find((document) => document.url === addedOne.url)!.text).toContain(addedOne.phrase);
    expect(after.map(({ url, title, text }) => ({ url, title, text }))).toEqual(byUrl(fake.content.documents()));
  });

  it("answers a 429 and a 403 userRateLimitExceeded with ProviderRateLimitedError, without retrying", async () => {
    const fake = await driveFake();
    const readerContext = await fakeReaderContext(fake, fake.content.connectOptions);
    fake.rateLimitNext(1, 4);
    const limited = await list(googleDrive, readerContext).catch((caught: unknown) => caught);
    expect(limited).toBeInstanceOf(ProviderRateLimitedError);
    expect((limited as ProviderRateLimitedError).retryAfterSeconds).toBe(4);
    expect(fake.apiRequests).toHaveLength(0);

    fake.quotaExceededNext(1);
    const quota = await list(googleDrive, readerContext).catch((caught: unknown) => caught);
    expect(quota).toBeInstanceOf(ProviderRateLimitedError);
    expect((quota as ProviderRateLimitedError).retryAfterSeconds).toBe(1);
    expect(fake.apiRequests).toHaveLength(1);
  });

  it("answers an expired token with ProviderUnauthorizedError", async () => {
    const fake = await driveFake();
    const readerContext = await fakeReaderContext(fake, fake.content.connectOptions);
    fake.expireAccessTokens();
    await expect(list(googleDrive, readerContext)).rejects.toBeInstanceOf(ProviderUnauthorizedError);
  });

  it("revokes the token at Google's revocation endpoint", async () => {
    const fake = await driveFake();
    const token = await fakeAccessToken(fake);
    await googleDrive.revoke({
      endpoints: fake.endpoints,
      clientId: fake.clientId,
      clientSecret: fake.clientSecret,
      accessToken: token,
    });
    expect(fake.revokedTokens).toEqual([token]);
    await expect(
      list(googleDrive, { accessToken: token, endpoints: fake.endpoints, options: {} }),
    ).rejects.toBeInstanceOf(ProviderUnauthorizedError);
  });

  it("accepts a Drive folder id as its only option", () => {
    expect(googleDrive.options.safeParse({}).success).toBe(true);
    expect(googleDrive.options.safeParse({ folder_id: "1AbC_d-9" }).success).toBe(true);
    expect(googleDrive.options.safeParse({ folder_id: "x' or name != '" }).success).toBe(false);
    expect(googleDrive.options.safeParse({ folder_id: "a".repeat(201) }).success).toBe(false);
    expect(googleDrive.options.safeParse({ folder: "abc" }).success).toBe(false);
  });
});
