import { describe, expect, test } from "bun:test";
import { createHmac } from "node:crypto";
import { signPayload, verifySignature } from "../../src/net/signature.ts";

const body = JSON.stringify({ id: "evt_1", type: "post.published", data: { text: "héllo" } });
const T = 1_760_000_000;

describe("webhook signatures", () => {
  test("round trip, checked independently with node:crypto", () => {
    const header = signPayload(body, ["whsec_new"], T);
    const expected = createHmac("sha256", "whsec_new").update(`${T}.${body}`, "utf8").digest("hex");
    expect(header).toBe(`t=${T},v1=${expected}`);
    expect(verifySignature(header, body, "whsec_new", 300, T + 10)).toBe(true);
    expect(verifySignature(header, new TextEncoder().encode(body), "whsec_new", 300, T)).toBe(true);
  });

  test("two secrets during an overlap: newest first, either verifies", () => {
    const header = signPayload(body, ["whsec_new", "whsec_old"], T);
    const parts = header.split(",");
    expect(parts).toHaveLength(3);
    expect(parts[0]).toBe(`t=${T}`);
    expect(parts[1]).toBe(`v1=${createHmac("sha256", "whsec_new").update(`${T}.${body}`).digest("hex")}`);
    expect(parts[2]).toBe(`v1=${createHmac("sha256", "whsec_old").update(`${T}.${body}`).digest("hex")}`);
    expect(verifySignature(header, body, "whsec_new", 300, T)).toBe(true);
    expect(verifySignature(header, body, "whsec_old", 300, T)).toBe(true);
    expect(verifySignature(header, body, "whsec_other", 300, T)).toBe(false);
  });

  test("rejects stale or far-future timestamps, changed bodies and malformed headers", () => {
    const header = signPayload(body, ["whsec_a"], T);
    expect(verifySignature(header, body, "whsec_a", 300, T + 300)).toBe(true);
    expect(verifySignature(header, body, "whsec_a", 300, T + 301)).toBe(false);
    expect(verifySignature(header, body, "whsec_a", 300, T - 301)).toBe(false);
    expect(verifySignature(header, `${body} `, "whsec_a", 300, T)).toBe(false);
    const v1 = header.split(",")[1]!;
    expect(verifySignature(`t=${T + 1},${v1}`, body, "whsec_a", 300, T)).toBe(false);
    expect(verifySignature(v1, body, "whsec_a", 300, T)).toBe(false);
    expect(verifySignature(`t=${T}`, body, "whsec_a", 300, T)).toBe(false);
    expect(verifySignature(`t=${T},t=${T},${v1}`, body, "whsec_a", 300, T)).toBe(false);
    expect(verifySignature(`t=${T},v1=abcd`, body, "whsec_a", 300, T)).toBe(false);
    expect(verifySignature(`t=${T},v0=${v1.slice(3)},v1=${"0".repeat(64)}`, body, "whsec_a", 300, T)).toBe(
      false,
    );
    expect(verifySignature("", body, "whsec_a")).toBe(false);
    expect(verifySignature(undefined, body, "whsec_a")).toBe(false);
  });

  test("verifies against the current clock by default", () => {
    const now = Math.floor(Date.now() / 1000);
    expect(verifySignature(signPayload(body, ["whsec_a"], now), body, "whsec_a")).toBe(true);
    expect(verifySignature(signPayload(body, ["whsec_a"], now - 600), body, "whsec_a")).toBe(false);
  });

  test("refuses to sign without a secret", () => {
    expect(() => signPayload(body, [], T)).toThrow();
  });
});
