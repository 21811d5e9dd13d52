// Where to go after signing in: shared by next-auth's redirect callback and the sign-in form (browser).

/**
 * `value` as a path on `origin`, or "/" when it leads anywhere else. Parsed as a URL against the
 * origin, the way a browser would follow it, so `//evil.example`, `/\evil.example`, tabs and other
 * tricks resolve to their real origin and are refused. Leading slashes are collapsed so the path
 * cannot become protocol-relative when used again.
 */
export function safeCallbackPath(value: unknown, origin: string): string {
  if (typeof value !== "string" || value === "") return "/";
  let url: URL;
  let base: URL;
  try {
    base = new URL(origin);
    url = new URL(value, base);
  } catch {
    return "/";
  }
  if (url.origin !== base.origin) return "/";
  return url.pathname.replace(/^[/\\]+/, "/") + url.search + url.hash;
}
