// A console page's query string as Next hands it over.
export type SearchParams = Record<string, string | string[] | undefined>;

/** The value of `name`: the first when a hand-edited URL repeats it; empty or absent is undefined (no filter). */
export function searchParam(searchParams: SearchParams, name: string): string | undefined {
  const value = searchParams[name];
  const first = Array.isArray(value) ? value[0] : value;
  return first === undefined || first === "" ? undefined : first;
}
