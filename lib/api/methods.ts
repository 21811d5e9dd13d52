import type { Endpoint } from "./endpoint";
import { endpoints } from "./endpoints";

const routes = new Map<string, { pattern: RegExp; methods: Set<string> }>();
for (const ep of Object.values(endpoints) as Endpoint[]) {
  const route = routes.get(ep.path) ?? {
    pattern: new RegExp(`^${ep.path.replace(/\{\w+\}/g, "[^/]+")}$`),
    methods: new Set(["HEAD", "OPTIONS"]),
  };
  route.methods.add(ep.method);
  routes.set(ep.path, route);
}

/** The methods an API path (below /api/v1) answers, or undefined when no endpoint has that path. */
export function allowedMethods(path: string): string[] | undefined {
  for (const route of routes.values()) {
    if (route.pattern.test(path)) return [...route.methods];
  }
  return undefined;
}
