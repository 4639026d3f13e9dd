import { nodeCrypto } from "./node.ts";

export const sha256hex = (s: string | Uint8Array): string =>
  nodeCrypto().createHash("sha256").update(s).digest("hex");

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/** `n` random base62 characters, without modulo bias. */
export function randomBase62(n: number): string {
  let out = "";
  while (out.length < n) {
    for (const b of crypto.getRandomValues(new Uint8Array(n * 2))) {
      if (b < 248 && out.length < n) out += BASE62[b % 62];
    }
  }
  return out;
}

export function base62(num: number, width: number): string {
  let s = "";
  let n = num >>> 0;
  do {
    s = BASE62[n % 62] + s;
    n = Math.floor(n / 62);
  } while (n > 0);
  return s.padStart(width, "0");
}

/** Constant-time comparison of two strings (different lengths are unequal without early exit on content). */
export function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  if (x.length !== y.length) {
    nodeCrypto().timingSafeEqual(x, x);
    return false;
  }
  return nodeCrypto().timingSafeEqual(x, y);
}
