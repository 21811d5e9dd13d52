// Calls the real route modules under app (the API, the OAuth server and its metadata) with real Request
// objects, as Next would.
type RouteModule = Record<
  string,
  (request: Request, context: { params: Promise<Record<string, string | string[] | undefined>> }) => Promise<Response>
>;

const modules = {
  ...import.meta.glob<RouteModule>("/app/api/v1/**/route.ts"),
  ...import.meta.glob<RouteModule>("/app/oauth/**/route.ts"),
  ...import.meta.glob<RouteModule>("/app/.well-known/**/route.ts"),
};

interface Route {
  pattern: RegExp;
  names: string[];
  rank: number;
  load: () => Promise<RouteModule>;
}

const routes: Route[] = Object.entries(modules)
  .map(([file, load]) => {
    const segments = file
      .replace(/^\/app/, "")
      .replace(/\/route\.ts$/, "")
      .split("/")
      .filter(Boolean);
    const names: string[] = [];
    let rank = 0;
    const source = segments
      .map((segment) => {
        const optionalCatchAll = /^\[\[\.\.\.(\w+)\]\]$/.exec(segment);
        if (optionalCatchAll) {
          names.push(optionalCatchAll[1]);
          rank += 100;
          return "(?:/(.*))?";
        }
        const catchAll = /^\[\.\.\.(\w+)\]$/.exec(segment);
        if (catchAll) {
          names.push(catchAll[1]);
          rank += 100;
          return "/(.+)";
        }
        const dynamic = /^\[(\w+)\]$/.exec(segment);
        if (dynamic) {
          names.push(dynamic[1]);
          rank += 1;
          return "/([^/]+)";
        }
        return "/" + segment.replace(/[.]/g, "\\.");
      })
      .join("");
    return { pattern: new RegExp(`^${source}$`), names, rank, load };
  })
  .sort((a, b) => a.rank - b.rank);

export interface ApiResponse<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

export interface CallOptions {
  key?: string;
  body?: unknown;
  /** Sent as is, instead of JSON-encoding `body`. */
  rawBody?: string;
  headers?: Record<string, string>;
}

/** Runs a Request through the route module its path selects, as Next would: the `fetch` of in-process clients. */
export async function routeRequest(request: Request): Promise<Response> {
  const path = new URL(request.url).pathname;
  const route = routes.find((r) => r.pattern.test(path));
  if (!route) throw new Error(`No route file matches ${path}`);
  const match = route.pattern.exec(path)!;
  const params = Object.fromEntries(
    route.names.map((name, i) => {
      const value = match[i + 1];
      const catchAll = /\(\.[+*]\)\)?\??\$$/.test(route.pattern.source) && i === route.names.length - 1;
      return [name, catchAll ? (value ? value.split("/") : undefined) : decodeURIComponent(value)];
    }),
  );
  const handler = (await route.load())[request.method];
  if (!handler) return new Response(null, { status: 405 });
  return handler(request, { params: Promise.resolve(params) });
}

/** `api("GET", "/namespaces?page=2", { key })` → status and parsed JSON body. */
export async function api<T = any>(
  method: string,
  pathAndQuery: string,
  options: CallOptions = {},
): Promise<ApiResponse<T>> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.key !== undefined) headers.authorization = `Bearer ${options.key}`;
  let body: string | undefined = options.rawBody;
  if (body === undefined && options.body !== undefined) body = JSON.stringify(options.body);
  if (body !== undefined) headers["content-type"] ??= "application/json";
  const response = await routeRequest(
    new Request(`http://gateway.test/api/v1${pathAndQuery}`, { method, headers, body }),
  );
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : null) as T, headers: response.headers };
}
