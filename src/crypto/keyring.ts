// Per-org data keys, wrapped by the master key and cached unwrapped in memory. Secrets are sealed with the
// org's data key, bound to table, row and column (ARCHITECTURE rule 6). With the master key in a key service
// (Transit), a data key costs one round trip the first time this process needs it and none after: nothing is
// unwrapped at start, and a cached key keeps working while the service is unreachable. A failure is not cached, so
// keys_unavailable ends by itself once the service answers again.
import type { Db, Tx } from "../db/index.ts";
import { ServiceError } from "../lib/errors.ts";
import { decrypt, encrypt } from "./aead.ts";
import { KeyServiceUnavailable, type MasterKeys } from "./master.ts";
import { nodeCrypto } from "./node.ts";

export const keysUnavailable = (why: string) =>
  new ServiceError(503, "keys_unavailable", `The master key is not available: ${why}`, {
    headers: { "Retry-After": "30" },
  });

const wrapAad = (orgId: string) => `svc:data_key:${orgId}`;

export interface SealedAt {
  table: string;
  row: string;
  column: string;
}
const sealAad = (at: SealedAt) => `svc:seal:${at.table}:${at.row}:${at.column}`;

export type WrappedKind = "data_key" | "install_key" | "app_secret" | "totp_secret";

/** One value the master key wraps, as `svc admin keys status` lists it. */
export interface WrappedItem {
  kind: WrappedKind;
  /** The org, install key, app or user it belongs to. */
  id: string;
  keyId: string;
  unwraps: boolean;
  error?: string;
}

const installAad = (id: string) => `svc:install_key:${id}`;
const totpAad = (userId: string) => `svc:seal:user_totp:${userId}:secret`;
const appAt = (id: string): SealedAt => ({ table: "developer_apps", row: id, column: "client_secret" });

export class Keyring {
  private readonly cache = new Map<string, Buffer>();
  private readonly pending = new Map<string, Promise<Buffer>>();
  constructor(
    readonly master: MasterKeys | null,
    /** Where install keys live (the App's database); null in callers that never derive. */
    private readonly installDb: Db | null = null,
  ) {}

  private need(): MasterKeys {
    if (!this.master)
      throw keysUnavailable("no master key is configured (SVC_MASTER_KEYS or SVC_TRANSIT_ADDR)");
    return this.master;
  }

  /** Wraps with the primary master key; a key service that cannot be reached is keys_unavailable. */
  async wrapWithMaster(plaintext: Uint8Array, aad: string): Promise<{ keyId: string; wrapped: string }> {
    const master = this.need();
    try {
      return await master.wrap(plaintext, aad);
    } catch (e) {
      throw keysUnavailable((e as Error).message);
    }
  }

  async unwrapWithMaster(keyId: string, wrapped: string, aad: string, what: string): Promise<Buffer> {
    const master = this.need();
    try {
      return await master.unwrap(keyId, wrapped, aad);
    } catch (e) {
      throw keysUnavailable(`${what} does not unwrap (${(e as Error).message})`);
    }
  }

  /** Creates the org's data key; called in the transaction that creates the org. */
  async createDataKey(tx: Tx, orgId: string, now: number): Promise<void> {
    const key = nodeCrypto().randomBytes(32);
    const { keyId, wrapped } = await this.wrapWithMaster(key, wrapAad(orgId));
    await tx
      .insertInto("org_keys")
      .values({ org_id: orgId, master_key_id: keyId, wrapped, created_at: now, rotated_at: null })
      .execute();
    this.cache.set(orgId, key);
  }

  async dataKey(db: Db | Tx, orgId: string): Promise<Buffer> {
    const hit = this.cache.get(orgId);
    if (hit) return hit;
    // Requests for the same org while its key is being unwrapped share the one round trip.
    let p = this.pending.get(orgId);
    if (!p) {
      p = this.loadDataKey(db, orgId).finally(() => this.pending.delete(orgId));
      this.pending.set(orgId, p);
    }
    return p;
  }

  private async loadDataKey(db: Db | Tx, orgId: string): Promise<Buffer> {
    this.need();
    const row = await db.selectFrom("org_keys").selectAll().where("org_id", "=", orgId).executeTakeFirst();
    if (!row) throw keysUnavailable(`org ${orgId} has no data key`);
    const key = await this.unwrapWithMaster(
      row.master_key_id,
      row.wrapped,
      wrapAad(orgId),
      `the data key of org ${orgId}`,
    );
    this.cache.set(orgId, key);
    return key;
  }

  async seal(db: Db | Tx, orgId: string, at: SealedAt, plaintext: string): Promise<string> {
    return `v1:${encrypt(await this.dataKey(db, orgId), Buffer.from(plaintext), sealAad(at))}`;
  }

  async open(db: Db | Tx, orgId: string, at: SealedAt, sealed: string): Promise<string> {
    if (!sealed.startsWith("v1:")) throw new Error("unknown sealed value format");
    return decrypt(await this.dataKey(db, orgId), sealed.slice(3), sealAad(at)).toString("utf8");
  }

  /**
   * Seals a secret that belongs to no org (an install's developer app) with the primary master key itself, bound
   * to table, row and column like `seal`. `rotate` rewraps such values with the data keys.
   */
  async sealInstall(at: SealedAt, plaintext: string): Promise<string> {
    const { keyId, wrapped } = await this.wrapWithMaster(Buffer.from(plaintext), sealAad(at));
    return `m1:${keyId}:${wrapped}`;
  }

  async openInstall(at: SealedAt, sealed: string): Promise<string> {
    const m = /^m1:([^:]+):(.+)$/s.exec(sealed);
    if (!m) throw new Error("unknown sealed value format");
    return (await this.unwrapWithMaster(m[1]!, m[2]!, sealAad(at), `${at.table} ${at.row}`)).toString("utf8");
  }

  /** A person's TOTP secret (no org): `<keyId>:<wrapped>` under the master key. */
  async sealForUser(userId: string, plaintext: string): Promise<string> {
    const { keyId, wrapped } = await this.wrapWithMaster(Buffer.from(plaintext), totpAad(userId));
    return `${keyId}:${wrapped}`;
  }

  async openForUser(userId: string, sealed: string): Promise<string> {
    const i = sealed.indexOf(":");
    return (
      await this.unwrapWithMaster(sealed.slice(0, i), sealed.slice(i + 1), totpAad(userId), "a TOTP secret")
    ).toString("utf8");
  }

  /**
   * A key for one purpose (media links, pre-sessions), cached. From a local primary key it is derived directly (so
   * it changes when the primary does); a key service hands out no key material, so with Transit primary it is
   * derived from the install key `derive`, made once, wrapped by the master key and unwrapped on first use.
   */
  async derived(purpose: string): Promise<Buffer> {
    const name = `derived:${purpose}`;
    const hit = this.cache.get(name);
    if (hit) return hit;
    const master = this.need();
    const base =
      master.derive && master.kindOf(master.primaryId) === "local" ? null : await this.installKey("derive");
    const key = base
      ? Buffer.from(nodeCrypto().hkdfSync("sha256", base, "", `svc:derive:${purpose}`, 32))
      : master.derive!(purpose);
    this.cache.set(name, key);
    return key;
  }

  /**
   * The derived key when it needs no round trip (cached, or from a local primary key); callers that must stay
   * synchronous (a media link made inside an adapter) await `derived` first.
   */
  derivedNow(purpose: string): Buffer {
    const hit = this.cache.get(`derived:${purpose}`);
    if (hit) return hit;
    const master = this.need();
    if (master.derive && master.kindOf(master.primaryId) === "local") {
      const key = master.derive(purpose);
      this.cache.set(`derived:${purpose}`, key);
      return key;
    }
    throw keysUnavailable(`the key for ${purpose} is not loaded yet`);
  }

  private async installKey(id: string): Promise<Buffer> {
    const name = `install:${id}`;
    const hit = this.cache.get(name);
    if (hit) return hit;
    let p = this.pending.get(name);
    if (!p) {
      p = this.loadInstallKey(id).finally(() => this.pending.delete(name));
      this.pending.set(name, p);
    }
    return p;
  }

  private async loadInstallKey(id: string): Promise<Buffer> {
    const db = this.installDb;
    if (!db) throw keysUnavailable("no database for install keys");
    let row = await db.selectFrom("install_keys").selectAll().where("id", "=", id).executeTakeFirst();
    if (!row) {
      const fresh = nodeCrypto().randomBytes(32);
      const { keyId, wrapped } = await this.wrapWithMaster(fresh, installAad(id));
      // Several processes may make it at once: the first insert wins and everyone reads that one.
      await db
        .insertInto("install_keys")
        .values({ id, master_key_id: keyId, wrapped, created_at: Date.now(), rotated_at: null })
        .onConflict((oc) => oc.column("id").doNothing())
        .execute();
      row = await db.selectFrom("install_keys").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
    }
    const key = await this.unwrapWithMaster(
      row.master_key_id,
      row.wrapped,
      installAad(id),
      `install key ${id}`,
    );
    this.cache.set(`install:${id}`, key);
    return key;
  }

  forget(orgId: string): void {
    this.cache.delete(orgId);
  }

  /** Every value the master keys wrap, with its plain unwrap and rewrap, for rotate and status. */
  private async wrappedValues(db: Db) {
    const master = this.need();
    const out: {
      kind: WrappedKind;
      id: string;
      keyId: string;
      open: () => Promise<Buffer>;
      /** Stores the value wrapped anew, only if it is still the value read (a concurrent change wins). */
      store: (plain: Buffer, now: number) => Promise<void>;
    }[] = [];
    for (const row of await db.selectFrom("org_keys").selectAll().execute()) {
      out.push({
        kind: "data_key",
        id: row.org_id,
        keyId: row.master_key_id,
        open: () => master.unwrap(row.master_key_id, row.wrapped, wrapAad(row.org_id)),
        store: async (plain, now) => {
          const { keyId, wrapped } = await master.wrap(plain, wrapAad(row.org_id));
          await db
            .updateTable("org_keys")
            .set({ master_key_id: keyId, wrapped, rotated_at: now })
            .where("org_id", "=", row.org_id)
            .where("wrapped", "=", row.wrapped)
            .execute();
        },
      });
    }
    for (const row of await db.selectFrom("install_keys").selectAll().execute()) {
      out.push({
        kind: "install_key",
        id: row.id,
        keyId: row.master_key_id,
        open: () => master.unwrap(row.master_key_id, row.wrapped, installAad(row.id)),
        store: async (plain, now) => {
          const { keyId, wrapped } = await master.wrap(plain, installAad(row.id));
          await db
            .updateTable("install_keys")
            .set({ master_key_id: keyId, wrapped, rotated_at: now })
            .where("id", "=", row.id)
            .where("wrapped", "=", row.wrapped)
            .execute();
        },
      });
    }
    // Install apps' secrets are sealed with the master key itself (sealInstall).
    const apps = await db
      .selectFrom("developer_apps")
      .select(["id", "client_secret"])
      .where("org_id", "is", null)
      .execute();
    for (const a of apps) {
      const m = /^m1:([^:]+):(.+)$/s.exec(a.client_secret);
      if (!m) continue;
      out.push({
        kind: "app_secret",
        id: a.id,
        keyId: m[1]!,
        open: () => master.unwrap(m[1]!, m[2]!, sealAad(appAt(a.id))),
        store: async (plain) => {
          const { keyId, wrapped } = await master.wrap(plain, sealAad(appAt(a.id)));
          await db
            .updateTable("developer_apps")
            .set({ client_secret: `m1:${keyId}:${wrapped}` })
            .where("id", "=", a.id)
            .where("client_secret", "=", a.client_secret)
            .execute();
        },
      });
    }
    for (const t of await db.selectFrom("user_totp").select(["user_id", "secret"]).execute()) {
      const i = t.secret.indexOf(":");
      out.push({
        kind: "totp_secret",
        id: t.user_id,
        keyId: t.secret.slice(0, i),
        open: () => master.unwrap(t.secret.slice(0, i), t.secret.slice(i + 1), totpAad(t.user_id)),
        store: async (plain) => {
          const { keyId, wrapped } = await master.wrap(plain, totpAad(t.user_id));
          await db
            .updateTable("user_totp")
            .set({ secret: `${keyId}:${wrapped}` })
            .where("user_id", "=", t.user_id)
            .where("secret", "=", t.secret)
            .execute();
        },
      });
    }
    return out;
  }

  /**
   * Rewraps every data key, install key and master-sealed secret under the primary master key (`svc admin keys
   * rotate`); what does not unwrap, or cannot be rewrapped now (the key service unreachable), is listed in failed.
   */
  async rotate(db: Db, now: number): Promise<{ rewrapped: number; failed: string[] }> {
    const master = this.need();
    let rewrapped = 0;
    const failed: string[] = [];
    for (const v of await this.wrappedValues(db)) {
      if (v.keyId === master.primaryId) continue;
      try {
        await v.store(await v.open(), now);
        rewrapped++;
      } catch {
        failed.push(v.id);
      }
    }
    return { rewrapped, failed };
  }

  /**
   * What wraps what (`svc admin keys status`): per value its master key and whether it unwraps now; per master key
   * how many values it wraps and where it lives.
   */
  async status(db: Db): Promise<{
    primary: string | null;
    configured: string[];
    kinds: Record<string, "local" | "transit" | null>;
    wraps: Record<string, number>;
    unreadable: string[];
    items: WrappedItem[];
  }> {
    const wraps: Record<string, number> = {};
    const unreadable: string[] = [];
    const items: WrappedItem[] = [];
    const values = this.master ? await this.wrappedValues(db) : await this.unkeyedValues(db);
    for (const v of values) {
      wraps[v.keyId] = (wraps[v.keyId] ?? 0) + 1;
      let error: string | undefined;
      try {
        if (!this.master) throw new Error("no master key is configured");
        await v.open();
      } catch (e) {
        error = e instanceof KeyServiceUnavailable ? `unreachable: ${e.message}` : (e as Error).message;
        unreadable.push(v.id);
      }
      items.push({ kind: v.kind, id: v.id, keyId: v.keyId, unwraps: !error, ...(error ? { error } : {}) });
    }
    const configured = [...(this.master?.ids ?? [])];
    const kinds: Record<string, "local" | "transit" | null> = {};
    for (const id of new Set([...configured, ...Object.keys(wraps)]))
      kinds[id] = this.master?.kindOf(id) ?? null;
    return { primary: this.master?.primaryId ?? null, configured, kinds, wraps, unreadable, items };
  }

  /** What status lists when no master key is configured: the same values, none of which can be opened. */
  private async unkeyedValues(db: Db) {
    const rows = await db.selectFrom("org_keys").select(["org_id", "master_key_id"]).execute();
    const installs = await db.selectFrom("install_keys").select(["id", "master_key_id"]).execute();
    const none = () => Promise.reject(new Error("no master key is configured"));
    return [
      ...rows.map((r) => ({ kind: "data_key" as const, id: r.org_id, keyId: r.master_key_id, open: none })),
      ...installs.map((r) => ({
        kind: "install_key" as const,
        id: r.id,
        keyId: r.master_key_id,
        open: none,
      })),
    ];
  }
}
