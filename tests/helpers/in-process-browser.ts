// A browser's cookies for the in-process gateway: the OAuth tests open authorization URLs and consent pages
// with it, redirects not followed.
import { routeRequest } from "./api";

export const ORIGIN = "http://gateway.test";

/** A browser's cookies for the gateway (paths ignored: every cookie goes with every request). */
export class Browser {
  private readonly cookies = new Map<string, string>();
  get cookieHeader() {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
  }
  async get(url: string): Promise<Response> {
    const response = await routeRequest(new Request(new URL(url, ORIGIN), { headers: { cookie: this.cookieHeader } }));
    for (const cookie of response.headers.getSetCookie()) {
      const [pair, ...attributes] = cookie.split(";");
      const [name, value] = [pair.slice(0, pair.indexOf("=")), pair.slice(pair.indexOf("=") + 1)];
      const expired = attributes.some((a) => /expires=Thu, 01 Jan 1970/i.test(a) || /max-age=0/i.test(a.trim()));
      if (expired) this.cookies.delete(name.trim());
      else this.cookies.set(name.trim(), value);
    }
    return response;
  }
}
