// Per-org data keys, wrapped by the master key and cached unwrapped in memory. Secrets are sealed with the
// org's data key, bound to table, row and column (ARCHITECTURE rule 6).
import type { Db, Tx } from "../db/index.ts";
import { ServiceError } from "../lib/errors.ts";
import { decrypt, encrypt } from "./aead.ts";
import type { MasterKeys } from "./master.ts";
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

export class Keyring {
  private readonly cache = new Map<string, Buffer>();
  constructor(readonly master: MasterKeys | null) {}

  private need(): MasterKeys {
    if (!this.master) throw keysUnavailable("no master key is configured (SVC_MASTER_KEYS)");
    return this.master;
  }

  /** Creates the org's data key; called in the transaction that creates the org. */
  async createDataKey(tx: Tx, orgId: string, now: number): Promise<void> {
    const master = this.need();
    const key = nodeCrypto().randomBytes(32);
    const { keyId, wrapped } = master.wrap(key, wrapAad(orgId));
    await tx
      .insertInto("org_keys")
      .values({ org_id: orgId, master_key_id: keyId, wrapped, created_at: now, rotated_at: null })
      .execute();
    this.cache.set(orgId, key);
  }

  async dataKey(db: Db | Tx, orgId: string): Promise<Buffer> {
    const hit = this.cache.get(orgId);
    if (hit) return hit;
    const master = this.need();
    const row = await db.selectFrom("org_keys").selectAll().where("org_id", "=", orgId).executeTakeFirst();
    if (!row) throw keysUnavailable(`org ${orgId} has no data key`);
    let key: Buffer;
    try {
      key = master.unwrap(row.master_key_id, row.wrapped, wrapAad(orgId));
    } catch (e) {
      throw keysUnavailable(`the data key of org ${orgId} does not unwrap (${(e as Error).message})`);
    }
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
  sealInstall(at: SealedAt, plaintext: string): string {
    const { keyId, wrapped } = this.need().wrap(Buffer.from(plaintext), sealAad(at));
    return `m1:${keyId}:${wrapped}`;
  }

  openInstall(at: SealedAt, sealed: string): string {
    const m = /^m1:([^:]+):(.+)$/s.exec(sealed);
    if (!m) throw new Error("unknown sealed value format");
    return this.need().unwrap(m[1]!, m[2]!, sealAad(at)).toString("utf8");
  }

  /** A key for one purpose derived from the primary master key (media links); cached. */
  derived(purpose: string): Buffer {
    const name = `derived:${purpose}`;
    let key = this.cache.get(name);
    if (!key) {
      const master = this.need();
      if (!master.derive) throw keysUnavailable("the master key service cannot derive keys");
      key = master.derive(purpose);
      this.cache.set(name, key);
    }
    return key;
  }

  forget(orgId: string): void {
    this.cache.delete(orgId);
  }

  /** Rewraps every data key under the primary master key (`svc admin keys rotate`). */
  async rotate(db: Db, now: number): Promise<{ rewrapped: number; failed: string[] }> {
    const master = this.need();
    const rows = await db.selectFrom("org_keys").selectAll().execute();
    let rewrapped = 0;
    const failed: string[] = [];
    for (const row of rows) {
      if (row.master_key_id === master.primaryId) continue;
      try {
        const key = master.unwrap(row.master_key_id, row.wrapped, wrapAad(row.org_id));
        const { keyId, wrapped } = master.wrap(key, wrapAad(row.org_id));
        await db
          .updateTable("org_keys")
          .set({ master_key_id: keyId, wrapped, rotated_at: now })
          .where("org_id", "=", row.org_id)
          .where("master_key_id", "=", row.master_key_id)
          .execute();
        rewrapped++;
      } catch {
        failed.push(row.org_id);
      }
    }
    // Install apps' secrets are sealed with the master key itself (sealInstall): rewrap them too.
    const apps = await db
      .selectFrom("developer_apps")
      .select(["id", "client_secret"])
      .where("org_id", "is", null)
      .execute();
    for (const a of apps) {
      if (a.client_secret.startsWith(`m1:${master.primaryId}:`)) continue;
      const at = { table: "developer_apps", row: a.id, column: "client_secret" };
      try {
        const resealed = this.sealInstall(at, this.openInstall(at, a.client_secret));
        await db
          .updateTable("developer_apps")
          .set({ client_secret: resealed })
          .where("id", "=", a.id)
          .where("client_secret", "=", a.client_secret)
          .execute();
        rewrapped++;
      } catch {
        failed.push(a.id);
      }
    }
    return { rewrapped, failed };
  }

  /** Which master key wraps how many data keys, and which data keys do not unwrap (`svc admin keys status`). */
  async status(db: Db): Promise<{
    primary: string | null;
    configured: string[];
    wraps: Record<string, number>;
    unreadable: string[];
  }> {
    const rows = await db.selectFrom("org_keys").selectAll().execute();
    const wraps: Record<string, number> = {};
    const unreadable: string[] = [];
    for (const row of rows) {
      wraps[row.master_key_id] = (wraps[row.master_key_id] ?? 0) + 1;
      try {
        if (!this.master) throw new Error("no master key");
        this.master.unwrap(row.master_key_id, row.wrapped, wrapAad(row.org_id));
      } catch {
        unreadable.push(row.org_id);
      }
    }
    return {
      primary: this.master?.primaryId ?? null,
      configured: [...(this.master?.ids ?? [])],
      wraps,
      unreadable,
    };
  }
}
