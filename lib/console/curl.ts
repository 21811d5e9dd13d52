// The copy-ready curl commands the console shows (the namespace page's try-it panel): the API call that
// does what the person just typed, with the key left to the shell (`$MEMGW_API_KEY`) so no secret is ever
// put on the page. Pure: the browser builds them as the person types.

/**
 * `value` as one POSIX shell word: single quotes keep everything literal ($, `, \, newlines) except a single
 * quote itself, which closes the quoted part, adds an escaped quote and reopens it (`it's` → 'it'\''s').
 */
export function shellQuote(value: string): string {
  return `'${value.replaceAll("'", `'\\''`)}'`;
}

/**
 * A POST of `body` as JSON to `url`, authenticated with the key in $MEMGW_API_KEY. `--data-raw`: a body
 * starting with `@` would otherwise be read as a file name. The JSON is indented (one field a line, so the
 * text typed is readable on the page); JSON.stringify escapes control characters inside strings, so the
 * only raw newlines are the indentation's, which single quotes keep as they are.
 */
export function curlCommand(url: string, body: unknown): string {
  return [
    `curl -sS -X POST ${shellQuote(url)}`,
    `  -H "Authorization: Bearer $MEMGW_API_KEY"`,
    `  -H 'Content-Type: application/json'`,
    `  --data-raw ${shellQuote(JSON.stringify(body, null, 2))}`,
  ].join(" \\\n");
}
