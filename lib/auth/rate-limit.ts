/**
 * Fixed-window counters kept in this process. The embedded database allows one server process, so
 * this is every request; several instances on PostgreSQL each count their own share.
 */
export class RateLimiter {
  private readonly windows = new Map<string, { startedAt: number; count: number }>();

  constructor(
    readonly limit: number,
    readonly windowMs: number,
  ) {}

  /** Counts one attempt for `key`; when over the limit, the seconds until the window ends. */
  hit(key: string, now = Date.now()): { allowed: true } | { allowed: false; retryAfterSeconds: number } {
    let window = this.windows.get(key);
    if (!window || now - window.startedAt >= this.windowMs) {
      if (this.windows.size > 50_000) this.sweep(now);
      window = { startedAt: now, count: 0 };
      this.windows.set(key, window);
    }
    window.count++;
    if (window.count <= this.limit) return { allowed: true };
    return { allowed: false, retryAfterSeconds: Math.ceil((window.startedAt + this.windowMs - now) / 1000) };
  }

  private sweep(now: number) {
    for (const [key, window] of this.windows) if (now - window.startedAt >= this.windowMs) this.windows.delete(key);
  }
}

const FIFTEEN_MINUTES = 15 * 60_000;

/** Password sign-in attempts and magic-link requests, each counted per client address and per email. */
export const signInLimits = {
  passwordPerIp: new RateLimiter(100, FIFTEEN_MINUTES),
  passwordPerEmail: new RateLimiter(10, FIFTEEN_MINUTES),
  magicLinkPerIp: new RateLimiter(30, FIFTEEN_MINUTES),
  magicLinkPerEmail: new RateLimiter(5, FIFTEEN_MINUTES),
};
