// Device and user codes of the CLI sign-in (RFC 8628 §6.1). The user code is eight letters from the RFC's
// base-20 consonant alphabet (no vowels, so no words; no digits, so no 0/O or 1/I), shown as XXXX-XXXX:
// 20^8 ≈ 2.6·10^10 codes, each living 15 minutes. Both codes are stored only as SHA-256 hashes.
import { randomBase62, sha256hex } from "../../../crypto/hash.ts";
import { nodeCrypto } from "../../../crypto/node.ts";

export const USER_CODE_ALPHABET = "BCDFGHJKLMNPQRSTVWXZ";

export function newUserCode(): string {
  let out = "";
  while (out.length < 8) {
    for (const b of nodeCrypto().randomBytes(16)) {
      // 240 = 12·20: bytes above it are dropped, so every letter is equally likely.
      if (b < 240 && out.length < 8) out += USER_CODE_ALPHABET[b % 20];
    }
  }
  return `${out.slice(0, 4)}-${out.slice(4)}`;
}

/**
 * What a person typed, reduced to the eight code letters: case, spaces and dashes do not matter. Null when it
 * cannot be a code (so no lookup happens).
 */
export function normalizeUserCode(typed: string): string | null {
  const s = typed.toUpperCase().replace(/[\s-]/g, "");
  if (s.length !== 8) return null;
  for (const c of s) if (!USER_CODE_ALPHABET.includes(c)) return null;
  return s;
}

export const hashUserCode = (normalized: string) => sha256hex(`user_code:${normalized}`);

export const newDeviceCode = () => randomBase62(43);
export const hashDeviceCode = (code: string) => sha256hex(`device_code:${code}`);
