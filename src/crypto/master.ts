// Master keys wrap the per-org data keys and never touch tenant data directly. Local keys come from
// SVC_MASTER_KEYS (`id:base64key,…`, primary first); a Transit key service is another MasterKeys (transit.ts), and
// MasterKeySet puts the two together with Transit primary. Wrapping is async because Transit is a network call.
import { decrypt, encrypt } from "./aead.ts";
import { nodeCrypto } from "./node.ts";

export interface MasterKeys {
  /** The key new wraps use. */
  readonly primaryId: string;
  readonly ids: readonly string[];
  wrap(dataKey: Uint8Array, aad: string): Promise<{ keyId: string; wrapped: string }>;
  unwrap(keyId: string, wrapped: string, aad: string): Promise<Buffer>;
  /**
   * A key for one purpose (signing media links), derived from the primary key when that is a local key; it changes
   * when that does. A key service gives out no key material, so with Transit primary the keyring derives from an
   * install secret wrapped like a data key instead.
   */
  derive?(purpose: string): Buffer;
  /** Where a key lives, for `svc admin keys status`: "local" or "transit". */
  kindOf(keyId: string): "local" | "transit" | null;
}

/** Thrown when the key service cannot be reached or refuses: the keyring answers keys_unavailable. */
export class KeyServiceUnavailable extends Error {}

const ID = /^[A-Za-z0-9_.-]{1,64}$/;

export function parseMasterKeys(value: string): { id: string; key: Buffer }[] {
  const out: { id: string; key: Buffer }[] = [];
  for (const part of value
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean)) {
    const i = part.indexOf(":");
    const id = part.slice(0, i);
    const key = Buffer.from(part.slice(i + 1), "base64");
    if (i <= 0 || !ID.test(id))
      throw new Error(
        `master key ${JSON.stringify(id || part.slice(0, 8))}: the id must be 1-64 letters, digits, _ . -`,
      );
    if (key.length !== 32)
      throw new Error(`master key ${id}: expected 32 bytes of base64, got ${key.length} bytes`);
    if (out.some((k) => k.id === id)) throw new Error(`master key ${id}: listed twice`);
    out.push({ id, key });
  }
  if (out.length === 0) throw new Error("no master key in the value");
  return out;
}

export class LocalMasterKeys implements MasterKeys {
  private readonly keys: Map<string, Buffer>;
  readonly primaryId: string;
  readonly ids: readonly string[];
  constructor(list: { id: string; key: Buffer }[]) {
    this.keys = new Map(list.map((k) => [k.id, k.key]));
    this.ids = list.map((k) => k.id);
    this.primaryId = list[0]!.id;
  }
  async wrap(dataKey: Uint8Array, aad: string) {
    return { keyId: this.primaryId, wrapped: encrypt(this.keys.get(this.primaryId)!, dataKey, aad) };
  }
  kindOf(keyId: string) {
    return this.keys.has(keyId) ? ("local" as const) : null;
  }
  async unwrap(keyId: string, wrapped: string, aad: string): Promise<Buffer> {
    const key = this.keys.get(keyId);
    if (!key) throw new Error(`master key ${keyId} is not configured`);
    return decrypt(key, wrapped, aad);
  }
  derive(purpose: string): Buffer {
    return Buffer.from(
      nodeCrypto().hkdfSync("sha256", this.keys.get(this.primaryId)!, "", `svc:derive:${purpose}`, 32),
    );
  }
}

/**
 * Transit as primary with the local keys beside it: new wraps go to Transit, and a data key still wrapped by a
 * local key unwraps with it until `svc admin keys rotate` has moved it (the documented move to Transit).
 */
export class MasterKeySet implements MasterKeys {
  readonly primaryId: string;
  readonly ids: readonly string[];
  constructor(
    private readonly primary: MasterKeys,
    private readonly others: MasterKeys | null,
  ) {
    this.primaryId = primary.primaryId;
    this.ids = [...primary.ids, ...(others?.ids ?? [])];
  }
  wrap(dataKey: Uint8Array, aad: string) {
    return this.primary.wrap(dataKey, aad);
  }
  unwrap(keyId: string, wrapped: string, aad: string): Promise<Buffer> {
    if (this.primary.kindOf(keyId)) return this.primary.unwrap(keyId, wrapped, aad);
    if (this.others?.kindOf(keyId)) return this.others.unwrap(keyId, wrapped, aad);
    return Promise.reject(new Error(`master key ${keyId} is not configured`));
  }
  kindOf(keyId: string) {
    return this.primary.kindOf(keyId) ?? this.others?.kindOf(keyId) ?? null;
  }
}

/** `svc admin keys generate --id <id>`: a new key line. */
export const generateMasterKey = (id: string): string => {
  if (!ID.test(id)) throw new Error("the id must be 1-64 letters, digits, _ . -");
  return `${id}:${nodeCrypto().randomBytes(32).toString("base64")}`;
};
