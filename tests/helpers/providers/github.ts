// A GitHub REST API on loopback for the integration tests, behind the shared OAuth server: repositories
// (GET /user/repos, GET /repos/{owner}/{repo}), issues and pull requests with comments, git trees and blobs,
// answered in GitHub's shapes with Link-header pagination. Pages hold at most FAKE_PAGE_SIZE items whatever
// per_page asks, so that the seed alone makes every reader follow a second page.
import { createHash } from "node:crypto";
import {
  type FakeApiRequest,
  type FakeApiResponse,
  type FakeContent,
  type FakeProvider,
  startFakeProvider,
} from "./oauth-server";

export const FAKE_PAGE_SIZE = 2;

export interface FakeComment {
  id: number;
  author: string;
  body: string;
  createdAt: string;
}

export interface FakeIssue {
  number: number;
  title: string;
  body: string;
  author: string;
  isPullRequest: boolean;
  comments: FakeComment[];
  createdAt: string;
  updatedAt: string;
}

export interface FakeRepository {
  id: number;
  owner: string;
  name: string;
  defaultBranch: string;
  /** Path → content; a Buffer is a binary file. */
  files: Map<string, string | Buffer>;
  issues: FakeIssue[];
  pushedAt: string;
}

/** Switches a test flips to reach the rarer paths of the real API. */
export interface GithubFakeSettings {
  /** Recursive tree requests answer `truncated: true` with the top level only, as GitHub does for huge trees. */
  truncateRecursiveTrees: boolean;
}

const WEB = "https://github.com";
const MARKDOWN = /\.(md|markdown|mdx)$/i;

/** Text contents' blob ids, kept: with hundreds of seeded files, every blob request would hash them all again. */
const textBlobShas = new Map<string, string>();

/** Git's own blob id, so that a file's sha changes exactly when its content does. */
function blobSha(content: string | Buffer): string {
  const known = typeof content === "string" ? textBlobShas.get(content) : undefined;
  if (known) return known;
  const bytes = typeof content === "string" ? Buffer.from(content) : content;
  const sha = createHash("sha1").update(`blob ${bytes.length}\0`).update(bytes).digest("hex");
  if (typeof content === "string") textBlobShas.set(content, sha);
  return sha;
}

/** The fake's tree ids: a directory's path and its entries' ids, so a subtree can be looked up by its sha. */
function treeShaOf(repository: FakeRepository, directory: string): string {
  const hash = createHash("sha1").update(`tree ${repository.name}:${directory}\0`);
  for (const [path, content] of [...repository.files].sort(([a], [b]) => a.localeCompare(b))) {
    if (path.startsWith(directory)) hash.update(`${path}:${blobSha(content)}\n`);
  }
  return hash.digest("hex");
}

function directoriesOf(repository: FakeRepository): string[] {
  const directories = new Set<string>([""]);
  for (const path of repository.files.keys()) {
    const segments = path.split("/");
    for (let depth = 1; depth < segments.length; depth += 1) directories.add(`${segments.slice(0, depth).join("/")}/`);
  }
  return [...directories];
}

export function githubIssueText(repository: { owner: string; name: string }, issue: FakeIssue): string {
  const kind = issue.isPullRequest ? "Pull request" : "Issue";
  const heading = `${kind} ${repository.owner}/${repository.name}#${issue.number}`;
  const parts = [`${heading}: ${issue.title}`, `Opened by ${issue.author}.`];
  if (issue.body.trim()) parts.push(issue.body.trim());
  for (const comment of issue.comments) parts.push(`Comment by ${comment.author}: ${comment.body.trim()}`);
  return parts.join("\n\n");
}

export async function startGithubFake(
  options: {
    port?: number;
    clientSecret?: string;
    /** Path → Markdown text, added to octo-org/handbook beside its own files (the sync benchmark seeds hundreds). */
    extraMarkdownFiles?: Record<string, string>;
  } = {},
): Promise<FakeProvider & { content: FakeContent; repositories: FakeRepository[]; settings: GithubFakeSettings }> {
  const settings: GithubFakeSettings = { truncateRecursiveTrees: false };
  // A clock that only moves forward, one second per change, so updated_at always differs after an edit.
  let clock = Date.parse("2026-03-02T09:00:00Z");
  const tick = () => new Date((clock += 1000)).toISOString().replace(/\.\d{3}Z$/, "Z");
  let nextCommentId = 9000;
  const issue = (
    number: number,
    title: string,
    body: string,
    author: string,
    comments: [string, string][] = [],
    isPullRequest = false,
  ): FakeIssue => {
    const createdAt = tick();
    return {
      number,
      title,
      body,
      author,
      isPullRequest,
      createdAt,
      updatedAt: tick(),
      comments: comments.map(([commentAuthor, commentBody]) => ({
        id: (nextCommentId += 1),
        author: commentAuthor,
        body: commentBody,
        createdAt: tick(),
      })),
    };
  };

  const handbook: FakeRepository = {
    id: 501,
    owner: "octo-org",
    name: "handbook",
    defaultBranch: "main",
    pushedAt: tick(),
    files: new Map<string, string | Buffer>([
      ["README.md", "# Handbook\n\nThe lighthouse keeper logs the tide at dawn.\n"],
      ["docs/guide.md", "# Guide\n\nEvery new hire plants a cedar sapling behind the office.\n"],
      ["docs/deep/rituals.markdown", "# Rituals\n\nOn Fridays the team bakes sourdough with rye from the valley.\n"],
      ["docs/logo.png", Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0xff, 0x10])],
      ["src/index.ts", "export const answer = 42;\n"],
    ]),
    issues: [
      issue(
        1,
        "Deploys fail on Mondays",
        "The staging cluster forgets its certificates every Monday morning.",
        "alice",
        [
          ["bob", "The certificate renewal cron runs in the wrong timezone."],
          ["carol", "Moved the cron to UTC; the orange heron now watches the renewals."],
        ],
      ),
      issue(2, "Add dark mode", "The console should follow the system's colour scheme at dusk.", "bob", [], true),
      issue(3, "Archive old incidents", "Incidents older than a glacier's memory move to cold storage.", "carol"),
    ],
  };
  for (const [path, text] of Object.entries(options.extraMarkdownFiles ?? {})) {
    if (!MARKDOWN.test(path)) throw new Error(`extraMarkdownFiles: ${path} is not a Markdown file name`);
    handbook.files.set(path, text);
  }
  const tools: FakeRepository = {
    id: 502,
    owner: "octo-org",
    name: "tools",
    defaultBranch: "trunk",
    pushedAt: tick(),
    files: new Map<string, string | Buffer>([
      ["CONTRIBUTING.mdx", "# Contributing\n\nPatches travel by carrier pigeon named Ferdinand.\n"],
      ["Makefile", "all:\n\techo build\n"],
    ]),
    issues: [issue(1, "Flaky linter", "The linter trips over the saffron-coloured config file.", "dave")],
  };
  // Readable by the token but not chosen in connectOptions: a sync must not see it.
  const secretPlans: FakeRepository = {
    id: 503,
    owner: "octo-org",
    name: "secret-plans",
    defaultBranch: "main",
    pushedAt: tick(),
    files: new Map<string, string | Buffer>([["README.md", "# Secret\n\nThe moon base opens in spring.\n"]]),
    issues: [issue(1, "Moon base", "Order more telescopes for the moon base.", "eve")],
  };
  const repositories = [handbook, tools, secretPlans];
  const chosen = [handbook, tools];

  let apiUrl = "";
  const provider = await startFakeProvider({
    provider: "github",
    port: options.port,
    clientSecret: options.clientSecret,
    handleApi: (request) => answer(request),
  });
  apiUrl = provider.endpoints.apiUrl;

  const fullName = (repository: FakeRepository) => `${repository.owner}/${repository.name}`;
  const repositoryHtmlUrl = (repository: FakeRepository) => `${WEB}/${fullName(repository)}`;
  const issueHtmlUrl = (repository: FakeRepository, item: FakeIssue) =>
    `${repositoryHtmlUrl(repository)}/${item.isPullRequest ? "pull" : "issues"}/${item.number}`;
  const fileHtmlUrl = (repository: FakeRepository, path: string) =>
    `${repositoryHtmlUrl(repository)}/blob/${repository.defaultBranch}/${path}`;
  const user = (login: string) => ({
    login,
    id: login.length * 1000 + login.charCodeAt(0),
    node_id: `U_${login}`,
    avatar_url: `https://avatars.githubusercontent.com/${login}`,
    html_url: `${WEB}/${login}`,
    url: `${apiUrl}/users/${login}`,
    type: "User",
    site_admin: false,
  });

  function repositoryJson(repository: FakeRepository) {
    const apiBase = `${apiUrl}/repos/${fullName(repository)}`;
    return {
      id: repository.id,
      node_id: `R_${repository.id}`,
      name: repository.name,
      full_name: fullName(repository),
      private: true,
      owner: { ...user(repository.owner), type: "Organization" },
      html_url: repositoryHtmlUrl(repository),
      description: null,
      fork: false,
      url: apiBase,
      default_branch: repository.defaultBranch,
      visibility: "private",
      archived: false,
      disabled: false,
      has_issues: true,
      open_issues_count: repository.issues.length,
      created_at: "2025-01-01T00:00:00Z",
      updated_at: repository.pushedAt,
      pushed_at: repository.pushedAt,
      permissions: { admin: false, maintain: false, push: true, triage: true, pull: true },
    };
  }

  function issueJson(repository: FakeRepository, item: FakeIssue) {
    const apiBase = `${apiUrl}/repos/${fullName(repository)}/issues/${item.number}`;
    return {
      id: repository.id * 10000 + item.number,
      node_id: `I_${repository.id}_${item.number}`,
      url: apiBase,
      repository_url: `${apiUrl}/repos/${fullName(repository)}`,
      comments_url: `${apiBase}/comments`,
      html_url: issueHtmlUrl(repository, item),
      number: item.number,
      state: "open",
      title: item.title,
      body: item.body,
      user: user(item.author),
      labels: [],
      assignee: null,
      assignees: [],
      milestone: null,
      locked: false,
      comments: item.comments.length,
      created_at: item.createdAt,
      updated_at: item.updatedAt,
      closed_at: null,
      author_association: "MEMBER",
      ...(item.isPullRequest
        ? {
            pull_request: {
              url: `${apiUrl}/repos/${fullName(repository)}/pulls/${item.number}`,
              html_url: issueHtmlUrl(repository, item),
              diff_url: `${issueHtmlUrl(repository, item)}.diff`,
              patch_url: `${issueHtmlUrl(repository, item)}.patch`,
              merged_at: null,
            },
          }
        : {}),
    };
  }

  /** One page of `items` with GitHub's Link header (absolute URLs, the request's own query plus `page`). */
  function paginated(request: FakeApiRequest, items: unknown[]): FakeApiResponse {
    const perPage = Math.min(Number(request.query.get("per_page") ?? 30) || 30, FAKE_PAGE_SIZE);
    const page = Math.max(1, Number(request.query.get("page") ?? 1) || 1);
    const lastPage = Math.max(1, Math.ceil(items.length / perPage));
    const pageUrl = (number: number) => {
      const query = new URLSearchParams(request.query);
      query.set("page", String(number));
      return `${apiUrl}${request.path}?${query}`;
    };
    const links: string[] = [];
    if (page < lastPage) links.push(`<${pageUrl(page + 1)}>; rel="next"`, `<${pageUrl(lastPage)}>; rel="last"`);
    if (page > 1) links.push(`<${pageUrl(1)}>; rel="first"`, `<${pageUrl(page - 1)}>; rel="prev"`);
    return {
      json: items.slice((page - 1) * perPage, page * perPage),
      headers: links.length > 0 ? { link: links.join(", ") } : {},
    };
  }

  function treeJson(repository: FakeRepository, treeRef: string, recursive: boolean): FakeApiResponse | null {
    const directory =
      treeRef === repository.defaultBranch
        ? ""
        : directoriesOf(repository).find((candidate) => treeShaOf(repository, candidate) === treeRef);
    if (directory === undefined) return null;
    const entries: { path: string; mode: string; type: string; sha: string; size?: number; url: string }[] = [];
    const base = `${apiUrl}/repos/${fullName(repository)}/git`;
    for (const subdirectory of directoriesOf(repository)) {
      if (subdirectory === directory || !subdirectory.startsWith(directory)) continue;
      const relative = subdirectory.slice(directory.length, -1);
      if (!recursive && relative.includes("/")) continue;
      const sha = treeShaOf(repository, subdirectory);
      entries.push({ path: relative, mode: "040000", type: "tree", sha, url: `${base}/trees/${sha}` });
    }
    for (const [path, content] of repository.files) {
      if (!path.startsWith(directory)) continue;
      const relative = path.slice(directory.length);
      if (!recursive && relative.includes("/")) continue;
      const sha = blobSha(content);
      entries.push({
        path: relative,
        mode: "100644",
        type: "blob",
        sha,
        size: content.length,
        url: `${base}/blobs/${sha}`,
      });
    }
    entries.sort((a, b) => a.path.localeCompare(b.path));
    const sha = treeShaOf(repository, directory);
    return { json: { sha, url: `${base}/trees/${sha}`, tree: entries, truncated: false } };
  }

  function answer(request: FakeApiRequest): FakeApiResponse | null {
    if (request.method === "GET" && request.path === "/user/repos") {
      return paginated(request, repositories.map(repositoryJson));
    }
    const match = /^\/repos\/([^/]+)\/([^/]+)(\/.*)?$/.exec(request.path);
    if (!match || request.method !== "GET") return null;
    const repository = repositories.find((candidate) => candidate.owner === match[1] && candidate.name === match[2]);
    if (!repository) return null;
    const rest = match[3] ?? "";
    if (rest === "") return { json: repositoryJson(repository) };
    if (rest === "/issues") {
      const newestFirst = [...repository.issues].sort((a, b) => b.number - a.number);
      return paginated(
        request,
        newestFirst.map((item) => issueJson(repository, item)),
      );
    }
    const comments = /^\/issues\/(\d+)\/comments$/.exec(rest);
    if (comments) {
      const item = repository.issues.find((candidate) => candidate.number === Number(comments[1]));
      if (!item) return null;
      return paginated(
        request,
        item.comments.map((comment) => ({
          id: comment.id,
          node_id: `IC_${comment.id}`,
          url: `${apiUrl}/repos/${fullName(repository)}/issues/comments/${comment.id}`,
          html_url: `${issueHtmlUrl(repository, item)}#issuecomment-${comment.id}`,
          issue_url: `${apiUrl}/repos/${fullName(repository)}/issues/${item.number}`,
          body: comment.body,
          user: user(comment.author),
          created_at: comment.createdAt,
          updated_at: comment.createdAt,
          author_association: "MEMBER",
        })),
      );
    }
    const tree = /^\/git\/trees\/(.+)$/.exec(rest);
    if (tree) {
      const recursive = request.query.get("recursive") !== null;
      const answered = treeJson(repository, decodeURIComponent(tree[1]), recursive && !settings.truncateRecursiveTrees);
      if (answered && recursive && settings.truncateRecursiveTrees) {
        (answered.json as { truncated: boolean }).truncated = true;
      }
      return answered;
    }
    const blob = /^\/git\/blobs\/([0-9a-f]{40})$/.exec(rest);
    if (blob) {
      const content = [...repository.files.values()].find((candidate) => blobSha(candidate) === blob[1]);
      if (content === undefined) return null;
      const bytes = typeof content === "string" ? Buffer.from(content) : content;
      return {
        json: {
          sha: blob[1],
          node_id: `B_${blob[1]}`,
          size: bytes.length,
          url: `${apiUrl}/repos/${fullName(repository)}/git/blobs/${blob[1]}`,
          // GitHub wraps the base64 text at 60 characters, as git's own tools do.
          content: bytes.toString("base64").replace(/.{60}/g, "$&\n"),
          encoding: "base64",
        },
      };
    }
    return null;
  }

  function fileText(repository: FakeRepository, path: string, content: string): string {
    return `${fullName(repository)}: ${path}\n\n${content.trim()}`;
  }

  const content: FakeContent = {
    connectOptions: { repositories: chosen.map(fullName) },
    documents() {
      const documents: { url: string; title: string; text: string }[] = [];
      for (const repository of chosen) {
        for (const item of repository.issues) {
          documents.push({
            url: issueHtmlUrl(repository, item),
            title: `${fullName(repository)}#${item.number}: ${item.title}`,
            text: githubIssueText(repository, item),
          });
        }
        for (const [path, fileContent] of repository.files) {
          if (!MARKDOWN.test(path) || typeof fileContent !== "string") continue;
          documents.push({
            url: fileHtmlUrl(repository, path),
            title: `${fullName(repository)}: ${path}`,
            text: fileText(repository, path, fileContent),
          });
        }
      }
      return documents;
    },
    changeOne() {
      const phrase = "A comment says the copper kettle whistles when the build turns green.";
      const item = handbook.issues.find((candidate) => candidate.number === 1)!;
      item.comments.push({ id: (nextCommentId += 1), author: "dave", body: phrase, createdAt: tick() });
      item.updatedAt = tick();
      return { url: issueHtmlUrl(handbook, item), phrase };
    },
    deleteOne() {
      handbook.files.delete("docs/guide.md");
      handbook.pushedAt = tick();
      return { url: fileHtmlUrl(handbook, "docs/guide.md") };
    },
    addOne() {
      const phrase = "The new on-call rota is drawn by a tortoise named Lucille.";
      const number = Math.max(...handbook.issues.map((candidate) => candidate.number)) + 1;
      const added = issue(number, "On-call rota", phrase, "alice");
      handbook.issues.push(added);
      return { url: issueHtmlUrl(handbook, added), phrase };
    },
  };

  return Object.assign(provider, { content, repositories, settings });
}
