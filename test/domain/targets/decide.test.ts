// The target machine's rules, outcome by outcome (reference §6).
import { describe, expect, test } from "bun:test";
import { backoff, decide } from "../../../src/domain/targets/decide.ts";

const now = Date.parse("2026-01-05T10:00:00Z");
const t = (attempts: number, publishBy: number | null = now + 86400_000) => ({
  attempts,
  publish_by: publishBy,
});

describe("decide", () => {
  test("backoff doubles from 30 s and stops at 30 min", () => {
    expect([1, 2, 3, 4, 5, 6, 7, 10].map(backoff)).toEqual([
      30e3, 60e3, 120e3, 240e3, 480e3, 960e3, 1800e3, 1800e3,
    ]);
  });

  test("published keeps the permalink and emits post_target.published", () => {
    const d = decide({ kind: "published", permalink: "https://x/1" }, t(1), false, now);
    expect([d.status, d.permalink, d.attemptOutcome, d.events]).toEqual([
      "published",
      "https://x/1",
      "published",
      ["post_target.published"],
    ]);
  });

  test("rate limited waits at least 30 s and holds the channel", () => {
    const d = decide({ kind: "rate_limited", retryAfterMs: 5000, message: "slow down" }, t(1), false, now);
    expect([d.status, d.nextAttemptAt, d.rateLimitedUntil]).toEqual(["queued", now + 30_000, now + 30_000]);
    const long = decide({ kind: "rate_limited", retryAfterMs: 3600_000, message: "quota" }, t(1), false, now);
    expect(long.nextAttemptAt).toBe(now + 3600_000);
  });

  test("a retry that would pass publish_by fails instead", () => {
    const d = decide(
      { kind: "rate_limited", retryAfterMs: 3600_000, message: "quota" },
      t(1, now + 60_000),
      false,
      now,
    );
    expect([d.status, d.errorCode, d.events]).toEqual(["failed", "rate_limited", ["post_target.failed"]]);
    const tr = decide({ kind: "transient", message: "502" }, t(3, now + 60_000), false, now);
    expect([tr.status, tr.errorCode]).toEqual(["failed", "network"]);
  });

  test("transient retries with backoff", () => {
    const d = decide({ kind: "transient", message: "502" }, t(2), false, now);
    expect([d.status, d.nextAttemptAt, d.attemptOutcome]).toEqual(["queued", now + 60_000, "transient"]);
  });

  test("auth revoked marks the channel and keeps the target queued", () => {
    const d = decide({ kind: "auth_revoked", message: "token revoked" }, t(1), false, now);
    expect([d.status, d.needsReauth, d.errorCode]).toEqual(["queued", "token revoked", "unauthorized"]);
  });

  test("rejected fails with the network's code", () => {
    const d = decide({ kind: "rejected", code: "duplicate", message: "already posted" }, t(1), false, now);
    expect([d.status, d.errorCode, d.attemptOutcome]).toEqual(["failed", "duplicate", "rejected"]);
  });

  test("uncertain waits for a person unless the adapter is idempotent", () => {
    const d = decide({ kind: "uncertain", message: "timeout after send" }, t(1), false, now);
    expect([d.status, d.events]).toEqual([
      "needs_attention",
      ["post_target.uncertain", "post_target.needs_attention"],
    ]);
    const i = decide({ kind: "uncertain", message: "timeout after send" }, t(1), true, now);
    expect([i.status, i.nextAttemptAt, i.events]).toEqual(["queued", now + 30_000, []]);
  });

  test("an unclassified error is never retried blindly", () => {
    const d = decide({ kind: "error", message: "TypeError: boom" }, t(1), true, now);
    expect([d.status, d.attemptOutcome, d.events]).toEqual([
      "needs_attention",
      "unknown",
      ["post_target.needs_attention"],
    ]);
  });
});
