// Master keys, per-org data keys and sealed values: sealing binds a value to its row and column, a missing master
// key refuses only what needs it, rotation moves every data key to a new master key, and status finds data keys
// nothing configured can unwrap. Then the credential formats.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { randomBytes } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  hintOf,
  newApiKeySecret,
  newOperatorKey,
  newUserToken,
  parseCredential,
} from "../../src/crypto/credentials.ts";
import { sha256hex } from "../../src/crypto/hash.ts";
import { bootstrap } from "../../src/domain/bootstrap/service.ts";
import { ServiceError } from "../../src/lib/errors.ts";
import { type TestApp, testApp } from "../helpers/app.ts";
import { describeEachDialect } from "../helpers/db.ts";
import { type Tenant, tenant } from "../helpers/factories.ts";

const masterKey = (id: string) => `${id}:${randomBytes(32).toString("base64")}`;
const at = { table: "channels", row: "chan_0000000000000000000000000a", column: "access_token" };

/** The rejection of a promise, so its fields can be asserted. */
async function failure(p: Promise<unknown>): Promise<Error> {
  try {
    await p;
  } catch (e) {
    return e as Error;
  }
  throw new Error("expected a failure");
}

describeEachDialect("keyring", (dialect) => {
  const apps: TestApp[] = [];
  const open = async (opts: Parameters<typeof testApp>[1]) => {
    const x = await testApp(dialect, opts);
    apps.push(x);
    return x;
  };
  let t: TestApp;
  let a: Tenant;
  beforeAll(async () => {
    t = await open({});
    a = await tenant(t.app, "Sealed Org");
  });
  afterAll(async () => {
    for (const x of apps) await x.close();
  });

  test("a sealed value opens again, also in another process with the same master keys", async () => {
    const sealed = await t.app.keys.seal(t.app.db, a.orgId, at, "token-123");
    expect(sealed).toMatch(/^v1:[A-Za-z0-9+/]+=*$/);
    expect(sealed).not.toContain("token-123");
    expect(await t.app.keys.open(t.app.db, a.orgId, at, sealed)).toBe("token-123");
    // Sealing twice gives different ciphertexts (a fresh IV each time).
    expect(await t.app.keys.seal(t.app.db, a.orgId, at, "token-123")).not.toBe(sealed);
    // A second App has no cached data key: it unwraps the org's key with the master key.
    const other = await open({ url: t.dbUrl, env: { SVC_MASTER_KEYS: t.masterKeys } });
    expect(await other.app.keys.open(other.app.db, a.orgId, at, sealed)).toBe("token-123");
  });

  test("a sealed value moved to another row, column or org does not open", async () => {
    const sealed = await t.app.keys.seal(t.app.db, a.orgId, at, "secret");
    const k = t.app.keys;
    expect(
      await failure(k.open(t.app.db, a.orgId, { ...at, row: "chan_0000000000000000000000000b" }, sealed)),
    ).toBeInstanceOf(Error);
    expect(
      await failure(k.open(t.app.db, a.orgId, { ...at, column: "refresh_token" }, sealed)),
    ).toBeInstanceOf(Error);
    expect(
      await failure(k.open(t.app.db, a.orgId, { ...at, table: "webhook_endpoints" }, sealed)),
    ).toBeInstanceOf(Error);
    const b = await tenant(t.app, "Other Sealed Org");
    expect(await failure(k.open(t.app.db, b.orgId, at, sealed))).toBeInstanceOf(Error);
    expect(await failure(k.open(t.app.db, a.orgId, at, "v0:abc"))).toHaveProperty(
      "message",
      "unknown sealed value format",
    );
    // Still opens where it belongs.
    expect(await k.open(t.app.db, a.orgId, at, sealed)).toBe("secret");
  });

  test("without a master key, sealing answers keys_unavailable (503) and everything else works", async () => {
    const sealed = await t.app.keys.seal(t.app.db, a.orgId, at, "secret");
    const dataDir = mkdtempSync(join(tmpdir(), "svc-nokey-"));
    const bare = await open({ url: t.dbUrl, env: { SVC_MASTER_KEYS: "", SVC_DATA_DIR: dataDir } });
    expect(bare.app.keys.master).toBeNull();

    const e = await failure(bare.app.keys.seal(bare.app.db, a.orgId, at, "x"));
    expect(e).toBeInstanceOf(ServiceError);
    expect([(e as ServiceError).status, (e as ServiceError).code]).toEqual([503, "keys_unavailable"]);
    expect((e as ServiceError).headers).toEqual({ "Retry-After": "30" });
    expect(((await failure(bare.app.keys.open(bare.app.db, a.orgId, at, sealed))) as ServiceError).code).toBe(
      "keys_unavailable",
    );
    // A new org needs a data key, so bootstrap is refused, and leaves nothing behind.
    const boot = await failure(
      bootstrap(bare.app, { email: "new@example.com", org: "Keyless", password: "long enough pw" }),
    );
    expect((boot as ServiceError).code).toBe("keys_unavailable");
    const orgs = await bare.app.db.selectFrom("orgs").select("id").where("name", "=", "Keyless").execute();
    expect(orgs).toEqual([]);

    // Everything that needs no secret keeps working.
    expect((await bare.request("GET", "/v1/me", { key: a.testKey })).status).toBe(200);
    expect((await bare.request("GET", "/v1/brands", { key: a.testKey })).body.data.length).toBe(1);
    const made = await bare.request("POST", "/v1/brands", {
      key: a.testKey,
      body: { name: "Keyless brand" },
    });
    expect(made.status).toBe(201);
    expect((await bare.request("GET", "/readyz")).status).toBe(200);
    const status = await bare.app.keys.status(bare.app.db);
    expect(status.primary).toBeNull();
    expect(status.unreadable.length).toBeGreaterThan(0);
  });

  test("rotation: a new primary plus the old key, rotate, then the old key can go", async () => {
    const k1 = await open({});
    const x = await tenant(k1.app, "Rotate X");
    const y = await tenant(k1.app, "Rotate Y");
    const sx = await k1.app.keys.seal(k1.app.db, x.orgId, at, "x-secret");
    const sy = await k1.app.keys.seal(k1.app.db, y.orgId, at, "y-secret");
    const oldId = k1.masterKeys.split(":")[0]!;
    expect(oldId).toBe("k1");

    const k2line = masterKey("k2");
    const both = await open({ url: k1.dbUrl, env: { SVC_MASTER_KEYS: `${k2line},${k1.masterKeys}` } });
    expect(await both.app.keys.status(both.app.db)).toMatchObject({
      primary: "k2",
      configured: ["k2", "k1"],
      wraps: { k1: 2 },
      unreadable: [],
    });
    const r = await both.app.keys.rotate(both.app.db, both.app.clock.now());
    expect(r).toEqual({ rewrapped: 2, failed: [] });
    // The old key wraps nothing now.
    expect(await both.app.keys.status(both.app.db)).toMatchObject({
      primary: "k2",
      configured: ["k2", "k1"],
      wraps: { k2: 2 },
      unreadable: [],
    });
    // Rotating again has nothing to do.
    expect(await both.app.keys.rotate(both.app.db, both.app.clock.now())).toEqual({
      rewrapped: 0,
      failed: [],
    });

    // Remove the old key: everything still opens.
    const onlyNew = await open({ url: k1.dbUrl, env: { SVC_MASTER_KEYS: k2line } });
    expect(await onlyNew.app.keys.open(onlyNew.app.db, x.orgId, at, sx)).toBe("x-secret");
    expect(await onlyNew.app.keys.open(onlyNew.app.db, y.orgId, at, sy)).toBe("y-secret");
    expect((await onlyNew.app.keys.status(onlyNew.app.db)).unreadable).toEqual([]);
    const rows = await onlyNew.app.db
      .selectFrom("org_keys")
      .select(["master_key_id", "rotated_at"])
      .execute();
    expect(rows.map((row) => row.master_key_id)).toEqual(["k2", "k2"]);
    expect(rows.every((row) => typeof row.rotated_at === "number")).toBe(true);

    // A process that only knows the old key can no longer unwrap them.
    const onlyOld = await open({ url: k1.dbUrl, env: { SVC_MASTER_KEYS: k1.masterKeys } });
    const e = (await failure(onlyOld.app.keys.open(onlyOld.app.db, x.orgId, at, sx))) as ServiceError;
    expect([e.status, e.code]).toEqual([503, "keys_unavailable"]);
    expect((await onlyOld.app.keys.status(onlyOld.app.db)).unreadable.sort()).toEqual(
      [x.orgId, y.orgId].sort(),
    );
  });

  test("status lists a data key that no configured master key unwraps; rotate reports it", async () => {
    const base = await open({});
    const known = await tenant(base.app, "Known");
    // Another deployment (master key k9) created an org in the same database.
    const stray = await open({ url: base.dbUrl, env: { SVC_MASTER_KEYS: masterKey("k9") } });
    const lost = await tenant(stray.app, "Lost");
    const s = await base.app.keys.status(base.app.db);
    expect(s.wraps).toEqual({ k1: 1, k9: 1 });
    expect(s.unreadable).toEqual([lost.orgId]);
    const r = await base.app.keys.rotate(base.app.db, base.app.clock.now());
    expect(r).toEqual({ rewrapped: 0, failed: [lost.orgId] });
    // The readable org is unaffected.
    expect(
      await base.app.keys.open(
        base.app.db,
        known.orgId,
        at,
        await base.app.keys.seal(base.app.db, known.orgId, at, "ok"),
      ),
    ).toBe("ok");
  });
});

describe("credential formats", () => {
  test("API keys: prefix, 32 random base62, 6-char CRC32 checksum; a typo fails the checksum", () => {
    const secret = newApiKeySecret(false);
    expect(secret).toMatch(/^svc_test_[0-9A-Za-z]{38}$/);
    expect(parseCredential(secret)).toEqual({ kind: "api_key", livemode: false, hash: sha256hex(secret) });
    expect(parseCredential(newApiKeySecret(true))?.livemode).toBe(true);
    // Change one character of the random part: same shape, wrong checksum.
    const i = 15;
    const typo = secret.slice(0, i) + (secret[i] === "a" ? "b" : "a") + secret.slice(i + 1);
    expect(typo).toMatch(/^svc_test_[0-9A-Za-z]{38}$/);
    expect(parseCredential(typo)).toBeNull();
    // Swapping the mode invalidates the checksum too.
    expect(parseCredential(secret.replace("svc_test_", "svc_live_"))).toBeNull();
    expect(parseCredential(`${secret}x`)).toBeNull();
    expect(parseCredential(secret.slice(0, -1))).toBeNull();
  });

  test("user tokens and operator keys are recognised by prefix; unknown shapes are not credentials", () => {
    const tok = newUserToken();
    expect(parseCredential(tok)).toEqual({ kind: "user_token", livemode: null, hash: sha256hex(tok) });
    const op = newOperatorKey();
    expect(parseCredential(op)?.kind).toBe("operator_key");
    expect(parseCredential("svc_user_short")).toBeNull();
    expect(parseCredential("Bearer svc_test_x")).toBeNull();
    expect(parseCredential("")).toBeNull();
  });

  test("the hint is the last four characters", () => {
    const secret = newApiKeySecret(true);
    expect(hintOf(secret)).toBe(`…${secret.slice(-4)}`);
    expect(hintOf("svc_user_abcdefghijklmnopqrstuvwxyz012345")).toBe("…2345");
  });
});
