import { Octokit } from "@octokit/rest";
import { z } from "zod";
import { UpstreamError } from "@/lib/errors";
import { hasVisibleText } from "@/lib/validation/strings";

import {
  type DocumentRef,
  type ProviderModule,
  type ProviderReader,
  ProviderRateLimitedError,
  ProviderUnauthorizedError,
  type ReaderContext,
  type RevokeContext,
} from "@/lib/integrations/provider";

/**
 * GitHub: the issues and pull requests (with their comments) and the Markdown files of the default branch of
 * the chosen repositories, read through @octokit/rest pointed at the deployment's API URL.
 */

/** GitHub's own rules: an owner is 1–39 letters, digits or inner hyphens; a name is letters, digits, `.`, `_`, `-`. */
const REPOSITORY_FULL_NAME = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})\/[A-Za-z0-9._-]{1,100}$/;

const RepositoryFullName = z
  .string()
  .regex(REPOSITORY_FULL_NAME, 'A repository is "owner/name", e.g. "octo-org/handbook".')
  .refine((fullName) => ![".", ".."].includes(fullName.split("/")[1]), 'A repository name cannot be "." or "..".');

export const GithubOptions = z.strictObject({
  /** Absent: every repository the token can read. */
  repositories: z.array(RepositoryFullName).min(1).max(100).optional(),
});

const MARKDOWN_EXTENSIONS = [".md", ".markdown", ".mdx"];
/** What a memory holds (LIMITS.contentChars of lib/memory): reading more of a document is wasted. */
const MAX_TEXT_CHARS = 100_000;
/** A Markdown file larger than this (UTF-8 bytes) holds more than a memory can keep: it is not read. */
const MAX_FILE_BYTES = 400_000;
const PAGE_SIZE = 100;

/** A repository as both GET /user/repos and GET /repos/{owner}/{repo} describe it (the fields a sync needs). */
interface Repository {
  owner: string;
  name: string;
  fullName: string;
  htmlUrl: string;
  defaultBranch: string;
  /** When the repository last received a push: the closest time GitHub gives for its files. */
  pushedAt: string;
}

interface IssueData {
  kind: "issue";
  owner: string;
  repo: string;
  number: number;
  isPullRequest: boolean;
  title: string;
  body: string;
  author: string;
  commentCount: number;
}

interface FileData {
  kind: "file";
  owner: string;
  repo: string;
  fullName: string;
  path: string;
  blobSha: string;
}

type GithubDocumentData = IssueData | FileData;

interface HttpErrorLike {
  status: number;
  response?: { headers?: Record<string, string | number | undefined> };
}

function isHttpError(error: unknown): error is HttpErrorLike {
  return typeof error === "object" && error !== null && typeof (error as { status?: unknown }).status === "number";
}

/** GitHub's answer as the sync engine understands it: wait (429, or a 403 limit), reauthorize (401), or fail. */
export function githubProviderError(error: unknown, now = Date.now()): unknown {
  if (!isHttpError(error)) return error;
  const headers = error.response?.headers ?? {};
  const retryAfter = Number(headers["retry-after"]);
  const remaining = headers["x-ratelimit-remaining"];
  const isLimited =
    error.status === 429 ||
    (error.status === 403 && (headers["retry-after"] !== undefined || String(remaining) === "0"));
  if (isLimited) {
    if (Number.isFinite(retryAfter) && retryAfter > 0) return new ProviderRateLimitedError(Math.ceil(retryAfter));
    const resetAtSeconds = Number(headers["x-ratelimit-reset"]);
    const untilReset = Number.isFinite(resetAtSeconds) ? Math.ceil(resetAtSeconds - now / 1000) : 60;
    return new ProviderRateLimitedError(Math.max(1, untilReset));
  }
  if (error.status === 401) return new ProviderUnauthorizedError("GitHub refused the access token.");
  return error;
}

function githubClient(apiUrl: string, accessToken?: string): Octokit {
  const octokit = new Octokit({
    // Octokit sends it as `Authorization: token …`, which GitHub accepts for OAuth tokens like `Bearer …`.
    ...(accessToken ? { auth: accessToken } : {}),
    baseUrl: apiUrl.replace(/\/+$/, ""),
    // @octokit/rest has no retry plugin: a 429 reaches the sync engine, which waits Retry-After itself.
    // Failed requests are reported by the sync engine as the connection's error, not logged here.
    log: { debug: () => {}, info: () => {}, warn: console.warn, error: () => {} },
  });
  // Only the reader maps errors: a 401 while revoking means the app's client credentials, not the token.
  if (accessToken) {
    octokit.hook.error("request", (error) => {
      throw githubProviderError(error);
    });
  }
  return octokit;
}

function isStatus(error: unknown, ...statuses: number[]): boolean {
  return isHttpError(error) && statuses.includes(error.status);
}

function isMarkdownPath(path: string): boolean {
  const lower = path.toLowerCase();
  return MARKDOWN_EXTENSIONS.some((extension) => lower.endsWith(extension));
}

/** The web page of a file on a branch; the tree API gives no html_url, so it is built from the repository's. */
function fileUrl(repository: Repository, path: string): string {
  const encodedPath = path.split("/").map(encodeURIComponent).join("/");
  const encodedBranch = repository.defaultBranch.split("/").map(encodeURIComponent).join("/");
  return `${repository.htmlUrl}/blob/${encodedBranch}/${encodedPath}`;
}

class GithubReader implements ProviderReader {
  private readonly octokit: Octokit;

  constructor(
    apiUrl: string,
    accessToken: string,
    private readonly repositories: string[] | undefined,
  ) {
    this.octokit = githubClient(apiUrl, accessToken);
  }

  async *listDocuments(): AsyncIterable<DocumentRef> {
    for await (const repository of this.repositoriesInReach()) {
      yield* this.issues(repository);
      yield* this.markdownFiles(repository);
    }
  }

  async documentText(ref: DocumentRef): Promise<string | null> {
    const data = ref.data as GithubDocumentData;
    return data.kind === "issue" ? this.issueText(data) : this.fileText(data);
  }

  private async *repositoriesInReach(): AsyncIterable<Repository> {
    if (this.repositories) {
      for (const fullName of this.repositories) {
        const [owner, repo] = fullName.split("/");
        try {
          const { data } = await this.octokit.repos.get({ owner, repo });
          yield toRepository(data);
        } catch (error) {
          // A chosen repository that was deleted or is no longer shared is out of reach: its documents go.
          if (isStatus(error, 404)) continue;
          throw error;
        }
      }
      return;
    }
    const pages = this.octokit.paginate.iterator(this.octokit.repos.listForAuthenticatedUser, { per_page: PAGE_SIZE });
    for await (const page of pages) {
      for (const repository of page.data) yield toRepository(repository);
    }
  }

  private async *issues(repository: Repository): AsyncIterable<DocumentRef> {
    const pages = this.octokit.paginate.iterator(this.octokit.issues.listForRepo, {
      owner: repository.owner,
      repo: repository.name,
      state: "all",
      per_page: PAGE_SIZE,
    });
    for await (const page of pages) {
      for (const issue of page.data) {
        const isPullRequest = Boolean(issue.pull_request);
        const data: IssueData = {
          kind: "issue",
          owner: repository.owner,
          repo: repository.name,
          number: issue.number,
          isPullRequest,
          title: issue.title,
          body: issue.body ?? "",
          author: issue.user?.login ?? "ghost",
          commentCount: issue.comments,
        };
        yield {
          sourceId: `issue:${repository.fullName}#${issue.number}`,
          title: `${repository.fullName}#${issue.number}: ${issue.title}`,
          url: issue.html_url,
          updatedAt: issue.updated_at,
          // GitHub moves updated_at on every edit and every new comment, so it versions the whole text.
          version: issue.updated_at,
          data,
        };
      }
    }
  }

  private async *markdownFiles(repository: Repository): AsyncIterable<DocumentRef> {
    for await (const path of this.blobs(repository, repository.defaultBranch)) {
      // A memory holds at most 100,000 characters: a larger file is not downloaded (base64, in memory) at all.
      if (!isMarkdownPath(path.path) || (path.size ?? 0) > MAX_FILE_BYTES) continue;
      const data: FileData = {
        kind: "file",
        owner: repository.owner,
        repo: repository.name,
        fullName: repository.fullName,
        path: path.path,
        blobSha: path.sha,
      };
      yield {
        sourceId: `file:${repository.fullName}:${path.path}`,
        title: `${repository.fullName}: ${path.path}`,
        url: fileUrl(repository, path.path),
        updatedAt: repository.pushedAt,
        version: path.sha,
        data,
      };
    }
  }

  /**
   * Every blob under a tree. One recursive request usually answers it all; when GitHub truncates a very large
   * tree, the subtrees are walked one level at a time instead so that no file is silently missed.
   */
  private async *blobs(
    repository: Repository,
    treeSha: string,
    prefix = "",
    recursive = true,
  ): AsyncIterable<{ path: string; sha: string; size?: number }> {
    let tree;
    try {
      ({ data: tree } = await this.octokit.git.getTree({
        owner: repository.owner,
        repo: repository.name,
        tree_sha: treeSha,
        ...(recursive ? { recursive: "1" } : {}),
      }));
    } catch (error) {
      // 409: the repository is empty (no commit, no branch yet); 404: the branch went away meanwhile.
      if (isStatus(error, 404, 409)) return;
      throw error;
    }
    if (recursive && tree.truncated) {
      yield* this.blobs(repository, treeSha, "", false);
      return;
    }
    for (const entry of tree.tree) {
      if (!entry.path || !entry.sha) continue;
      const path = `${prefix}${entry.path}`;
      if (entry.type === "blob") yield { path, sha: entry.sha, size: entry.size };
      else if (entry.type === "tree" && !recursive) yield* this.blobs(repository, entry.sha, `${path}/`, false);
    }
  }

  private async issueText(data: IssueData): Promise<string | null> {
    const heading = `${data.isPullRequest ? "Pull request" : "Issue"} ${data.owner}/${data.repo}#${data.number}`;
    const parts = [`${heading}: ${data.title}`, `Opened by ${data.author}.`];
    if (hasVisibleText(data.body)) parts.push(data.body.trim());
    if (data.commentCount > 0) {
      try {
        const pages = this.octokit.paginate.iterator(this.octokit.issues.listComments, {
          owner: data.owner,
          repo: data.repo,
          issue_number: data.number,
          per_page: PAGE_SIZE,
        });
        let length = parts.join("\n\n").length;
        pages: for await (const page of pages) {
          for (const comment of page.data) {
            const part = `Comment by ${comment.user?.login ?? "ghost"}: ${(comment.body ?? "").trim()}`;
            parts.push(part);
            length += part.length + 2;
            // What a memory can hold is there: later comments would only be cut off.
            if (length >= MAX_TEXT_CHARS) break pages;
          }
        }
      } catch (error) {
        if (isStatus(error, 404, 410)) return null;
        throw error;
      }
    }
    return parts.join("\n\n");
  }

  private async fileText(data: FileData): Promise<string | null> {
    try {
      const { data: blob } = await this.octokit.git.getBlob({
        owner: data.owner,
        repo: data.repo,
        file_sha: data.blobSha,
      });
      const content = blob.encoding === "base64" ? Buffer.from(blob.content, "base64").toString("utf8") : blob.content;
      return `${data.fullName}: ${data.path}\n\n${content.trim()}`;
    } catch (error) {
      if (isStatus(error, 404)) return null;
      throw error;
    }
  }
}

function toRepository(data: {
  name: string;
  full_name: string;
  html_url: string;
  default_branch?: string;
  pushed_at?: string | null;
  updated_at?: string | null;
  owner: { login: string };
}): Repository {
  return {
    owner: data.owner.login,
    name: data.name,
    fullName: data.full_name,
    htmlUrl: data.html_url,
    defaultBranch: data.default_branch ?? "main",
    pushedAt: data.pushed_at ?? data.updated_at ?? new Date(0).toISOString(),
  };
}

/** DELETE /applications/{client_id}/token, authenticated as the OAuth app (Basic client id and secret). */
async function revoke({ endpoints, clientId, clientSecret, accessToken }: RevokeContext): Promise<void> {
  const octokit = githubClient(endpoints.apiUrl);
  const basic = Buffer.from(`${clientId}:${clientSecret}`).toString("base64");
  try {
    await octokit.apps.deleteToken({
      client_id: clientId,
      access_token: accessToken,
      headers: { authorization: `basic ${basic}` },
    });
  } catch (error) {
    // 404: the token is already gone; 422: GitHub no longer knows it. Either way nothing is left to revoke.
    if (isStatus(error, 404, 422)) return;
    // Octokit's error keeps the request body, which holds the token: only the status and GitHub's words go on.
    if (isHttpError(error)) {
      const reason = error instanceof Error ? error.message : "no reason given";
      throw new UpstreamError(`GitHub refused to revoke the token (HTTP ${error.status}: ${reason}).`);
    }
    throw error;
  }
}

export const github: ProviderModule = {
  options: GithubOptions,
  reader(context: ReaderContext): ProviderReader {
    const options = GithubOptions.parse(context.options);
    return new GithubReader(context.endpoints.apiUrl, context.accessToken, options.repositories);
  },
  revoke,
};
