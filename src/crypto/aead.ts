// AES-256-GCM with associated data: the AAD binds a ciphertext to where it belongs (a row's column, an org's
// data key), so a sealed value copied to another row or column does not open.
import { nodeCrypto } from "./node.ts";

const IV = 12;
const TAG = 16;

export function encrypt(key: Uint8Array, plaintext: Uint8Array, aad: string): string {
  const iv = nodeCrypto().randomBytes(IV);
  const c = nodeCrypto().createCipheriv("aes-256-gcm", key, iv);
  c.setAAD(Buffer.from(aad));
  const ct = Buffer.concat([c.update(plaintext), c.final()]);
  return Buffer.concat([iv, ct, c.getAuthTag()]).toString("base64");
}

export function decrypt(key: Uint8Array, sealed: string, aad: string): Buffer {
  const raw = Buffer.from(sealed, "base64");
  if (raw.length < IV + TAG) throw new Error("sealed value too short");
  const d = nodeCrypto().createDecipheriv("aes-256-gcm", key, raw.subarray(0, IV));
  d.setAAD(Buffer.from(aad));
  d.setAuthTag(raw.subarray(raw.length - TAG));
  return Buffer.concat([d.update(raw.subarray(IV, raw.length - TAG)), d.final()]);
}
