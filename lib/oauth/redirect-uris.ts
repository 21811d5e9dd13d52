/** The hosts a redirect URI may name over plain http: the machine the client runs on (RFC 8252 §7.3, §8.3). */
export const LOOPBACK_HOSTS = new Set(["127.0.0.1", "[::1]", "localhost"]);

// A loopback redirect URI as written: `http://`, the host, an optional port, then nothing or a path or query.
// The text is matched, not a parsed URL, so that everything but the port must be exactly as registered
// (a parser would make `/a/../cb` equal to `/cb`, or `127.1` equal to `127.0.0.1`).
const LOOPBACK_URI = /^http:\/\/(127\.0\.0\.1|\[::1\]|localhost)(?::(\d{1,5}))?(?=[/?]|$)/;

/**
 * Whether an authorization request's `redirect_uri` is one of the client's `registered` ones: exactly, or, for
 * an http loopback URI, on any port (RFC 8252 §7.3: a desktop client listens on whatever port the system
 * gives it). The port may be written in either or in neither; the scheme, host, path and query must match
 * to the character. Any other URI (https, another host, an app's scheme) matches only exactly.
 */
export function redirectUriAllowed(requested: string, registered: readonly string[]): boolean {
  if (registered.includes(requested)) return true;
  const bare = withoutLoopbackPort(requested);
  return bare !== null && registered.some((uri) => withoutLoopbackPort(uri) === bare);
}

/** A loopback redirect URI with its port taken out, or null when `uri` is not one. */
function withoutLoopbackPort(uri: string): string | null {
  const match = LOOPBACK_URI.exec(uri);
  if (!match || (match[2] !== undefined && Number(match[2]) > 65535)) return null;
  return `http://${match[1]}${uri.slice(match[0].length)}`;
}
