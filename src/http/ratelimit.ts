// Token bucket per credential: refill 25/s, burst 100, in this process's memory (interface.md Limits).
export const RATE = 25;
export const BURST = 100;

interface Bucket {
  tokens: number;
  at: number;
}

export class RateLimiter {
  private readonly buckets = new Map<string, Bucket>();
  constructor(
    private readonly rate = RATE,
    private readonly burst = BURST,
  ) {}

  /** Takes one token; returns the headers to send and, when empty, how long to wait. */
  take(key: string, now: number): { ok: boolean; headers: Record<string, string>; retryAfter: number } {
    let b = this.buckets.get(key);
    if (!b) {
      if (this.buckets.size > 50_000) this.sweep(now);
      b = { tokens: this.burst, at: now };
      this.buckets.set(key, b);
    }
    // A clock that steps back (NTP, a test's clock) refills nothing; it must not drain the bucket either.
    b.tokens = Math.min(this.burst, b.tokens + (Math.max(0, now - b.at) / 1000) * this.rate);
    b.at = Math.max(b.at, now);
    const ok = b.tokens >= 1;
    if (ok) b.tokens -= 1;
    const retryAfter = ok ? 0 : Math.max(1, Math.ceil((1 - b.tokens) / this.rate));
    return {
      ok,
      retryAfter,
      headers: {
        "RateLimit-Limit": String(this.burst),
        "RateLimit-Remaining": String(Math.floor(b.tokens)),
        "RateLimit-Reset": String(Math.ceil((this.burst - b.tokens) / this.rate)),
      },
    };
  }

  /** Forgets full buckets (they behave exactly like new ones). */
  private sweep(now: number) {
    for (const [k, b] of this.buckets)
      if (b.tokens + ((now - b.at) / 1000) * this.rate >= this.burst) this.buckets.delete(k);
  }
}
