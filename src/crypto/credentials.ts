// Credential formats (reference §1): API keys are prefix + 32 random base62 + a 6-char CRC32 checksum, so a
// mistyped key is refused without a lookup; user tokens and operator keys are prefix + 32 random characters.
// Only SHA-256 hashes are stored.
import { base62, randomBase62, sha256hex } from "./hash.ts";

export type CredentialKind = "api_key" | "user_token" | "operator_key";

const checksum = (body: string) => base62(Bun.hash.crc32(body), 6);

export function newApiKeySecret(livemode: boolean): string {
  const body = `${livemode ? "svc_live_" : "svc_test_"}${randomBase62(32)}`;
  return body + checksum(body);
}
export const newUserToken = () => `svc_user_${randomBase62(32)}`;
export const newOperatorKey = () => `svc_op_${randomBase62(32)}`;

export interface ParsedCredential {
  kind: CredentialKind;
  livemode: boolean | null;
  hash: string;
}

/** Recognises a bearer credential by shape; null when it cannot be one of ours. */
export function parseCredential(secret: string): ParsedCredential | null {
  const m = /^svc_(test|live)_([0-9A-Za-z]{32})([0-9A-Za-z]{6})$/.exec(secret);
  if (m) {
    if (checksum(`svc_${m[1]}_${m[2]}`) !== m[3]) return null;
    return { kind: "api_key", livemode: m[1] === "live", hash: sha256hex(secret) };
  }
  if (/^svc_user_[0-9A-Za-z]{32}$/.test(secret))
    return { kind: "user_token", livemode: null, hash: sha256hex(secret) };
  if (/^svc_op_[0-9A-Za-z]{32}$/.test(secret))
    return { kind: "operator_key", livemode: null, hash: sha256hex(secret) };
  return null;
}

/** The last characters, shown in lists so a person can tell keys apart. */
export const hintOf = (secret: string) => `…${secret.slice(-4)}`;
