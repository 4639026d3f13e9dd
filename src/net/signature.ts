// Webhook signatures (reference §7): `Svc-Signature: t=<unix>,v1=<hex>[,v1=<hex>]`, each v1 the HMAC-SHA256 of
// "<t>." + raw body keyed with one endpoint secret. While a rolled secret overlaps, the old secret signs a second
// v1, so receivers that still hold it keep verifying. `svc listen --forward-to` signs the same way.

import { nodeCrypto } from "../crypto/node.ts";

export const SIGNATURE_HEADER = "Svc-Signature";
export const DEFAULT_TOLERANCE_SEC = 300;

const encoder = new TextEncoder();

function digest(secret: string, t: number, body: string | Uint8Array): Buffer {
  return nodeCrypto()
    .createHmac("sha256", secret)
    .update(`${t}.`)
    .update(typeof body === "string" ? encoder.encode(body) : body)
    .digest();
}

/**
 * The signature header value for `body` at unix time `t` (seconds), one v1 per secret in the order given
 * (newest first).
 */
export function signPayload(body: string | Uint8Array, secrets: readonly string[], t: number): string {
  if (secrets.length === 0) throw new Error("signPayload needs at least one secret");
  if (!Number.isSafeInteger(t) || t < 0) throw new Error("signPayload needs t as whole unix seconds");
  return [`t=${t}`, ...secrets.map((s) => `v1=${digest(s, t, body).toString("hex")}`)].join(",");
}

/**
 * True when `header` carries a v1 made with `secret` over `body` and its timestamp is within `toleranceSec`
 * of `now` (unix seconds). Comparison is constant-time; any matching v1 is enough.
 */
export function verifySignature(
  header: string | null | undefined,
  body: string | Uint8Array,
  secret: string,
  toleranceSec: number = DEFAULT_TOLERANCE_SEC,
  now: number = Math.floor(Date.now() / 1000),
): boolean {
  if (!header) return false;
  let t: number | undefined;
  const candidates: Buffer[] = [];
  for (const part of header.split(",")) {
    const eq = part.indexOf("=");
    if (eq === -1) continue;
    const key = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (key === "t") {
      if (t !== undefined || !/^\d{1,15}$/.test(value)) return false;
      t = Number(value);
    } else if (key === "v1" && /^[0-9a-fA-F]{64}$/.test(value)) {
      candidates.push(Buffer.from(value, "hex"));
    }
  }
  if (t === undefined || candidates.length === 0) return false;
  if (Math.abs(now - t) > toleranceSec) return false;
  const expected = digest(secret, t, body);
  let matched = false;
  // Compare against every candidate so timing does not reveal which one matched.
  for (const candidate of candidates) {
    if (nodeCrypto().timingSafeEqual(candidate, expected)) matched = true;
  }
  return matched;
}
