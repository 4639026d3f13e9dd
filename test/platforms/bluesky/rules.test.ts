// The Bluesky adapter's pure parts: record keys (valid TIDs, one per target and part, never shared between parts
// or targets), link cards read from a page, and how XRPC failures are classified.
import { describe, expect, test } from "bun:test";
import { XRPCError } from "@atproto/api";
import { newId } from "../../../src/lib/ids.ts";
import { OutboundError } from "../../../src/net/errors.ts";
import { cardFromHtml } from "../../../src/platforms/bluesky/card.ts";
import { classify, retryAfterMs } from "../../../src/platforms/bluesky/errors.ts";
import { idTime, recordKey } from "../../../src/platforms/bluesky/rkey.ts";

// The TID syntax from the atproto specification: 13 base32-sortable characters, the first without the top bit.
const TID = /^[234567abcdefghij][234567abcdefghijklmnopqrstuvwxyz]{12}$/;

describe("record keys", () => {
  test("are TIDs, the same for the same target and part, different for every part and target", () => {
    const at = Date.parse("2026-05-01T12:00:00Z");
    const target = newId("ptgt", at);
    expect(idTime(target)).toBe(at);
    const keys = Array.from({ length: 25 }, (_, i) => recordKey(target, i));
    for (const k of keys) expect(k).toMatch(TID);
    expect(new Set(keys).size).toBe(25);
    expect(recordKey(target, 3)).toBe(keys[3]!);
    // Many targets made in one millisecond: no two share a key.
    const many = Array.from({ length: 3000 }, () => newId("ptgt", at));
    const all = many.flatMap((id) => [recordKey(id, 0), recordKey(id, 1)]);
    expect(new Set(all).size).toBe(all.length);
    expect(() => recordKey(target, 25)).toThrow();
  });
});

describe("link cards", () => {
  test("take og: tags first, then the title, then the host", () => {
    expect(
      cardFromHtml(
        "https://example.com/a",
        `<meta content="Desc &amp; more" name="description"><title>T</title><meta property="og:title" content="OG">`,
      ).external,
    ).toEqual({ uri: "https://example.com/a", title: "OG", description: "Desc & more" });
    expect(cardFromHtml("https://example.com/a", "<title> Just &lt;this&gt; </title>").external.title).toBe(
      "Just <this>",
    );
    expect(cardFromHtml("https://example.com/a", "").external).toEqual({
      uri: "https://example.com/a",
      title: "example.com",
      description: "",
    });
  });
});

describe("classifying failures", () => {
  const xrpc = (status: number, error: string, headers?: Record<string, string>) =>
    new XRPCError(status, error, `${error} happened`, headers);

  test("429 waits until ratelimit-reset; auth errors are revoked; 5xx transient or uncertain; 4xx rejected", () => {
    const now = Date.parse("2026-05-01T12:00:00Z");
    const reset = String(now / 1000 + 90);
    expect(retryAfterMs(xrpc(429, "RateLimitExceeded", { "ratelimit-reset": reset }), now)).toBe(90_000);
    expect(retryAfterMs(xrpc(429, "RateLimitExceeded"), now)).toBe(60_000);
    expect(classify(xrpc(429, "RateLimitExceeded"), true).kind).toBe("rate_limited");
    expect(classify(xrpc(401, "AuthenticationRequired"), true).kind).toBe("auth_revoked");
    expect(classify(xrpc(400, "ExpiredToken"), false).kind).toBe("auth_revoked");
    expect(classify(xrpc(400, "AccountTakedown"), false).kind).toBe("auth_revoked");
    expect(classify(xrpc(500, "InternalServerError"), true).kind).toBe("transient");
    expect(classify(xrpc(502, "UpstreamFailure"), true).kind).toBe("uncertain");
    expect(classify(xrpc(502, "UpstreamFailure"), false).kind).toBe("transient");
    const rejected = classify(xrpc(400, "InvalidRequest"), true);
    expect(rejected).toEqual({
      kind: "rejected",
      code: "rejected",
      message: "InvalidRequest: InvalidRequest happened",
    });
  });

  test("network failures: uncertain only when a write may have been sent", () => {
    const reset = new OutboundError("connection", "reset", {
      cause: Object.assign(new Error("x"), { code: "ECONNRESET" }),
    });
    const refused = new OutboundError("connection", "refused", {
      cause: Object.assign(new Error("x"), { code: "ECONNREFUSED" }),
    });
    const wrapped = (e: OutboundError) =>
      new XRPCError(1, "Unknown", "fetch failed", undefined, { cause: e });
    expect(classify(wrapped(reset), true).kind).toBe("uncertain");
    expect(classify(wrapped(reset), false).kind).toBe("transient");
    expect(classify(wrapped(refused), true).kind).toBe("transient");
    expect(classify(new OutboundError("timeout", "slow"), true).kind).toBe("uncertain");
    expect(classify(new OutboundError("blocked_address", "private"), true).kind).toBe("rejected");
  });
});
