// The token bucket (interface.md Limits: 25 per second, bursts of 100, per key).
import { describe, expect, test } from "bun:test";
import { RateLimiter } from "../../src/http/ratelimit.ts";

describe("RateLimiter", () => {
  test("a burst of 100, then refills 25 per second", () => {
    const l = new RateLimiter();
    const t0 = 1_000_000;
    for (let i = 0; i < 100; i++) expect(l.take("k", t0).ok).toBe(true);
    const empty = l.take("k", t0);
    expect([empty.ok, empty.retryAfter, empty.headers["RateLimit-Remaining"]]).toEqual([false, 1, "0"]);
    expect(l.take("other", t0).ok).toBe(true); // per key
    for (let i = 0; i < 25; i++) expect(l.take("k", t0 + 1000).ok).toBe(true);
    expect(l.take("k", t0 + 1000).ok).toBe(false);
  });

  test("a clock that steps back neither drains nor refills the bucket", () => {
    const l = new RateLimiter();
    const t0 = 1_000_000;
    expect(l.take("k", t0).headers["RateLimit-Remaining"]).toBe("99");
    // Ten seconds back (an NTP step): the bucket keeps its 98 tokens after this take, not 98 - 250.
    const back = l.take("k", t0 - 10_000);
    expect([back.ok, back.headers["RateLimit-Remaining"]]).toEqual([true, "98"]);
    // Time then runs on from the later reading: no refill is owed for the step.
    expect(l.take("k", t0).headers["RateLimit-Remaining"]).toBe("97");
  });
});
