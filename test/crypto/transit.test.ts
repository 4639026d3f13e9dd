// The master key in a Transit key service, against a local Transit stand-in validated against Vault's published
// description (Vault and OpenBao are neither Debian nor npm packages, so neither can run here): data keys wrapped by
// encrypt and unwrapped by decrypt only; nothing at start and no round trip once a data key is cached; cached keys
// keep working while Transit is down and uncached ones answer keys_unavailable until it is back; the documented move
// from a local key to Transit with `svc admin keys rotate|status`; a role login with a projected-token file,
// logged in again before the token expires.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { randomBytes } from "node:crypto";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type ConfigError, loadConfig } from "../../src/app/config.ts";
import { FakeClock } from "../../src/lib/clock.ts";
import type { ServiceError } from "../../src/lib/errors.ts";
import { type TestApp, testApp } from "../helpers/app.ts";
import { cli } from "../helpers/cli.ts";
import { describeEachDialect } from "../helpers/db.ts";
import { tenant } from "../helpers/factories.ts";
import { startVault, type VaultStandIn } from "../stand-ins/vault.ts";

const at = { table: "channels", row: "chan_0000000000000000000000000a", column: "access_token" };
const TRANSIT_ID = "transit/transit/svc";
const POLICY = ["transit/encrypt/svc", "transit/decrypt/svc"];

async function failure(p: Promise<unknown>): Promise<ServiceError> {
  try {
    await p;
  } catch (e) {
    return e as ServiceError;
  }
  throw new Error("expected a failure");
}

const transitOps = (v: VaultStandIn) => v.requests.map((r) => `${r.method} ${r.path}`);

describeEachDialect("master key in Transit", (dialect) => {
  let vault: VaultStandIn;
  const apps: TestApp[] = [];
  let env: Record<string, string>;
  const open = async (opts: Parameters<typeof testApp>[1]) => {
    const x = await testApp(dialect, opts);
    apps.push(x);
    return x;
  };

  beforeAll(async () => {
    vault = await startVault();
    vault.createKey("svc");
    env = {
      SVC_MASTER_KEYS: "",
      SVC_DATA_DIR: mkdtempSync(join(tmpdir(), "svc-transit-data-")),
      SVC_TRANSIT_ADDR: vault.url,
      SVC_TRANSIT_KEY: "svc",
      SVC_TRANSIT_TOKEN: vault.issueToken(POLICY),
    };
  });
  afterAll(async () => {
    for (const x of apps) await x.close();
    vault.stop();
  });

  test("data keys are wrapped by Transit's encrypt and unwrapped by its decrypt, nothing else", async () => {
    const t = await open({ env });
    const before = vault.requests.length;
    const a = await tenant(t.app, "Transit Org");
    const row = await t.app.db
      .selectFrom("org_keys")
      .selectAll()
      .where("org_id", "=", a.orgId)
      .executeTakeFirstOrThrow();
    expect(row.master_key_id).toBe(TRANSIT_ID);
    expect(row.wrapped).toMatch(/^vault:v1:[A-Za-z0-9+/]+=*$/);
    const sealed = await t.app.keys.seal(t.app.db, a.orgId, at, "token-123");
    expect(await t.app.keys.open(t.app.db, a.orgId, at, sealed)).toBe("token-123");
    // Another process unwraps the org's key with one decrypt, then needs Transit no more.
    const other = await open({ url: t.dbUrl, env });
    expect(await other.app.keys.open(other.app.db, a.orgId, at, sealed)).toBe("token-123");
    for (let i = 0; i < 5; i++) await other.app.keys.open(other.app.db, a.orgId, at, sealed);
    expect(transitOps(vault).slice(before)).toEqual([
      "POST /transit/encrypt/svc",
      "POST /transit/decrypt/svc",
    ]);
    // The token travels in X-Vault-Token; the data key's place is bound as associated data.
    const enc = vault.requests[before]!;
    expect(enc.headers["x-vault-token"]).toBe(env.SVC_TRANSIT_TOKEN);
    expect(Buffer.from((enc.body as { associated_data: string }).associated_data, "base64").toString()).toBe(
      `svc:data_key:${a.orgId}`,
    );
    // A wrapped key copied to another org does not unwrap there.
    const b = await tenant(t.app, "Transit Other");
    await t.app.db
      .updateTable("org_keys")
      .set({ wrapped: row.wrapped })
      .where("org_id", "=", b.orgId)
      .execute();
    const fresh = await open({ url: t.dbUrl, env });
    const e = await failure(fresh.app.keys.seal(fresh.app.db, b.orgId, at, "x"));
    expect([e.status, e.code]).toEqual([503, "keys_unavailable"]);
    expect(vault.problems).toEqual([]);
  });

  test("lazy: no Transit call at start with many orgs; one decrypt per org on first use, none after", async () => {
    const t = await open({ env });
    const orgs = [];
    for (let i = 0; i < 8; i++) orgs.push(await tenant(t.app, `Lazy ${i}`));
    const before = vault.requests.length;
    const cold = await open({ url: t.dbUrl, env });
    expect((await cold.request("GET", "/readyz")).status).toBe(200);
    expect(vault.requests.length).toBe(before);
    // A route that opens a secret: creating a webhook endpoint seals its signing secret with the data key.
    const made = await cold.request("POST", "/v1/webhook_endpoints", {
      key: orgs[3]!.testKey,
      body: { url: "https://example.com/hook" },
    });
    expect(made.status).toBe(201);
    expect(transitOps(vault).slice(before)).toEqual(["POST /transit/decrypt/svc"]);
    for (let i = 0; i < 5; i++)
      expect(
        (
          await cold.request("POST", "/v1/webhook_endpoints", {
            key: orgs[3]!.testKey,
            body: { url: `https://example.com/hook${i}` },
          })
        ).status,
      ).toBe(201);
    expect(vault.requests.length).toBe(before + 1);
  });

  test("Transit down: cached data keys keep working, uncached ones are keys_unavailable until it is back", async () => {
    const t = await open({ env });
    const warm = await tenant(t.app, "Warm");
    const coldOrg = await tenant(t.app, "Cold");
    const proc = await open({ url: t.dbUrl, env });
    const hook = (key: string, n: string) =>
      proc.request("POST", "/v1/webhook_endpoints", { key, body: { url: `https://example.com/${n}` } });
    expect((await hook(warm.testKey, "w0")).status).toBe(201);
    vault.down();
    try {
      expect((await hook(warm.testKey, "w1")).status).toBe(201);
      const refused = await hook(coldOrg.testKey, "c1");
      expect([refused.status, refused.body.code]).toEqual([503, "keys_unavailable"]);
      expect(refused.headers.get("retry-after")).toBe("30");
      // Nothing half-written.
      const rows = await proc.app.db
        .selectFrom("webhook_endpoints")
        .select("id")
        .where("org_id", "=", coldOrg.orgId)
        .execute();
      expect(rows).toEqual([]);
      // A new org needs a new data key: refused the same way.
      const e = await failure(tenant(proc.app, "Born offline"));
      expect(e.code).toBe("keys_unavailable");
      // Reading what needs no secret still works.
      expect((await proc.request("GET", "/v1/brands", { key: coldOrg.testKey })).status).toBe(200);
    } finally {
      await vault.up();
    }
    // Back by itself: no restart, no cached failure.
    expect((await hook(coldOrg.testKey, "c2")).status).toBe(201);
    expect(vault.problems).toEqual([]);
  });

  test("with Transit primary, derived keys come from an install key wrapped by Transit", async () => {
    const t = await open({ env });
    const k1 = await t.app.keys.derived("media-links");
    expect(k1.length).toBe(32);
    const row = await t.app.db.selectFrom("install_keys").selectAll().executeTakeFirstOrThrow();
    expect([row.id, row.master_key_id]).toEqual(["derive", TRANSIT_ID]);
    // Another process gets the same derived key (it unwraps the same install key).
    const other = await open({ url: t.dbUrl, env });
    expect((await other.app.keys.derived("media-links")).equals(k1)).toBe(true);
    expect((await other.app.keys.derived("dashboard-pre-sessions")).equals(k1)).toBe(false);
    // The dashboard's sign-in page works (its pre-session is signed with a derived key).
    const page = await other.request("GET", "/signin");
    expect(page.status).toBe(200);
  });

  test("moving from a local key to Transit, step by step as documented", async () => {
    const local = `k1:${randomBytes(32).toString("base64")}`;
    const before = await open({ env: { SVC_MASTER_KEYS: local } });
    const x = await tenant(before.app, "Mover X");
    const y = await tenant(before.app, "Mover Y");
    const sx = await before.app.keys.seal(before.app.db, x.orgId, at, "x-secret");
    const sy = await before.app.keys.seal(before.app.db, y.orgId, at, "y-secret");
    const totp = await before.app.keys.sealForUser(x.userId, "JBSWY3DPEHPK3PXP");
    await before.app.db
      .insertInto("user_totp")
      .values({ user_id: x.userId, secret: totp, enabled_at: 1, last_step: null, created_at: 1 })
      .execute();

    // 1. Configure Transit while keeping the local key: Transit is primary, the local key still unwraps.
    const both = await open({ url: before.dbUrl, env: { ...env, SVC_MASTER_KEYS: local } });
    let s = await both.app.keys.status(both.app.db);
    expect(s.primary).toBe(TRANSIT_ID);
    expect(s.kinds).toEqual({ [TRANSIT_ID]: "transit", k1: "local" });
    expect(s.wraps).toEqual({ k1: 3 });
    expect(s.unreadable).toEqual([]);
    expect(await both.app.keys.open(both.app.db, x.orgId, at, sx)).toBe("x-secret");
    // A new org is wrapped by Transit at once.
    const z = await tenant(both.app, "Mover Z");

    // 2. `svc admin keys rotate` rewraps every data key (and the TOTP secret) to Transit.
    const c = cli();
    const adminEnv = {
      SVC_DATABASE_URL: before.dbUrl,
      SVC_DATA_DIR: mkdtempSync(join(tmpdir(), "svc-transit-")),
      SVC_MASTER_KEYS: local,
      SVC_TRANSIT_ADDR: vault.url,
      SVC_TRANSIT_KEY: "svc",
      SVC_TRANSIT_TOKEN: env.SVC_TRANSIT_TOKEN!,
    };
    try {
      const rotated = await c.run(["admin", "keys", "rotate"], { env: adminEnv });
      expect(rotated.err).toBe("");
      expect(rotated.out).toContain(`Rewrapped 3 data key(s) under ${TRANSIT_ID}.`);
      // 3. `svc admin keys status`: the local key wraps nothing, every value unwraps.
      const status = await c.run(["admin", "keys", "status", "--all"], { env: adminEnv });
      expect(status.code).toBe(0);
      const lines = status.out.split("\n");
      expect(lines.find((l) => l.startsWith(TRANSIT_ID))).toMatch(
        /transit\s+yes\s+yes\s+3 org data keys, 1 TOTP secret\s+all/,
      );
      expect(lines.find((l) => l.startsWith("k1"))).toMatch(/^k1\s+local\s+yes\s+nothing/);
      expect(status.out).toContain("Every data key unwraps.");
      expect(status.out).toContain(`org data key\t${x.orgId}\t${TRANSIT_ID}\tyes`);
    } finally {
      c.cleanup();
    }
    s = await both.app.keys.status(both.app.db);
    expect(s.wraps).toEqual({ [TRANSIT_ID]: 4 });

    // 4. Remove the local key: everything opens with Transit alone.
    const after = await open({ url: before.dbUrl, env });
    expect(await after.app.keys.open(after.app.db, x.orgId, at, sx)).toBe("x-secret");
    expect(await after.app.keys.open(after.app.db, y.orgId, at, sy)).toBe("y-secret");
    expect(
      await after.app.keys.openForUser(
        x.userId,
        (await after.app.db.selectFrom("user_totp").select("secret").executeTakeFirstOrThrow()).secret,
      ),
    ).toBe("JBSWY3DPEHPK3PXP");
    expect((await after.app.keys.status(after.app.db)).unreadable).toEqual([]);
    expect(z.orgId).toMatch(/^org_/);
    expect(vault.problems).toEqual([]);
  });

  test("status says which values do not unwrap while Transit is unreachable; rotate lists them", async () => {
    const t = await open({ env });
    const a = await tenant(t.app, "Status Org");
    const proc = await open({ url: t.dbUrl, env });
    vault.down();
    try {
      const s = await proc.app.keys.status(proc.app.db);
      const item = s.items.find((i) => i.id === a.orgId)!;
      expect(item.unwraps).toBe(false);
      expect(item.error).toMatch(/^unreachable: Transit at .* is unreachable/);
    } finally {
      await vault.up();
    }
    expect((await proc.app.keys.status(proc.app.db)).items.find((i) => i.id === a.orgId)!.unwraps).toBe(true);
  });

  test("a role login with a projected service-account token file, logged in again before the token expires", async () => {
    const dir = mkdtempSync(join(tmpdir(), "svc-sa-"));
    const jwtFile = join(dir, "token");
    writeFileSync(jwtFile, "eyJhbGciOiJSUzI1NiJ9.sa-token-1.sig\n");
    vault.addRole("kubernetes", "svc", {
      jwts: ["eyJhbGciOiJSUzI1NiJ9.sa-token-1.sig"],
      paths: POLICY,
      ttlS: 60,
    });
    const roleEnv = {
      SVC_MASTER_KEYS: "",
      SVC_DATA_DIR: env.SVC_DATA_DIR!,
      SVC_TRANSIT_ADDR: vault.url,
      SVC_TRANSIT_KEY: "svc",
      SVC_TRANSIT_ROLE: "svc",
      SVC_TRANSIT_JWT_FILE: jwtFile,
    };
    // The App's clock is a fake one, so "two thirds of the lease" passes without waiting; the service keeps real time.
    const clock = new FakeClock(Date.now());
    const t = await open({ env: roleEnv, clock });
    const first = vault.logins.length;
    const a = await tenant(t.app, "Role Org");
    expect(vault.logins.slice(first).map((l) => [l.mount, l.role])).toEqual([["kubernetes", "svc"]]);
    const loginReq = vault.requests.find((r) => r.path === "/auth/kubernetes/login")!;
    expect(loginReq.body).toEqual({ role: "svc", jwt: "eyJhbGciOiJSUzI1NiJ9.sa-token-1.sig" });
    // The kubelet rotates the projected token; the service accepts only the new one from now on.
    writeFileSync(jwtFile, "eyJhbGciOiJSUzI1NiJ9.sa-token-2.sig\n");
    vault.addRole("kubernetes", "svc", {
      jwts: ["eyJhbGciOiJSUzI1NiJ9.sa-token-2.sig"],
      paths: POLICY,
      ttlS: 60,
    });
    // Within the lease the token is reused: no new login.
    await tenant(t.app, "Role Org 1b");
    expect(vault.logins.length).toBe(first + 1);
    // Past two thirds of the 60 s lease, before it ends: the next call logs in again first, with the new file.
    clock.advance(41_000);
    await tenant(t.app, "Role Org 2");
    expect(vault.logins.length).toBe(first + 2);
    const second = vault.logins[first + 1]!;
    expect(second.token).not.toBe(vault.logins[first]!.token);
    // The first token had not expired yet when it was replaced: the service still accepts it.
    const stillValid = await fetch(`${vault.url}/v1/transit/encrypt/svc`, {
      method: "POST",
      headers: { "x-vault-token": vault.logins[first]!.token, "content-type": "application/json" },
      body: JSON.stringify({ plaintext: Buffer.from("x").toString("base64") }),
    });
    expect(stillValid.status).toBe(200);
    // The org's key unwraps in a new process through its own login.
    const other = await open({ url: t.dbUrl, env: roleEnv });
    expect(
      await other.app.keys.open(other.app.db, a.orgId, at, await t.app.keys.seal(t.app.db, a.orgId, at, "r")),
    ).toBe("r");
    // A revoked token is replaced by a new login on the next call.
    vault.revokeToken(second.token);
    await tenant(t.app, "Role Org 3");
    expect(vault.logins.length).toBe(first + 4);
    // The JWT auth method at its own mount.
    vault.addRole("jwt", "svc-jwt", {
      jwts: ["eyJhbGciOiJSUzI1NiJ9.sa-token-2.sig"],
      paths: POLICY,
      ttlS: 60,
    });
    const viaJwt = await open({
      env: { ...roleEnv, SVC_TRANSIT_ROLE: "svc-jwt", SVC_TRANSIT_AUTH_PATH: "jwt" },
    });
    await tenant(viaJwt.app, "Jwt Org");
    expect(vault.logins.at(-1)!.mount).toBe("jwt");
    expect(vault.problems).toEqual([]);
  });
});

describe("Transit configuration", () => {
  const problems = (env: Record<string, string>) => {
    try {
      loadConfig({ SVC_DATABASE_URL: "sqlite::memory:", ...env });
      return [];
    } catch (e) {
      return (e as ConfigError).problems;
    }
  };
  test("the variables, their defaults and one clear message per mistake", () => {
    const c = loadConfig({
      SVC_DATABASE_URL: "sqlite::memory:",
      SVC_TRANSIT_ADDR: "https://vault.internal:8200",
      SVC_TRANSIT_KEY: "svc",
      SVC_TRANSIT_ROLE: "svc",
    });
    expect(c.transit).toEqual({
      addr: "https://vault.internal:8200",
      key: "svc",
      mount: "transit",
      token: null,
      role: "svc",
      jwtFile: "/var/run/secrets/kubernetes.io/serviceaccount/token",
      authPath: "kubernetes",
    });
    const dir = mkdtempSync(join(tmpdir(), "svc-tok-"));
    writeFileSync(join(dir, "t"), "hvs.fromfile\n");
    expect(
      loadConfig({
        SVC_DATABASE_URL: "sqlite::memory:",
        SVC_TRANSIT_ADDR: "http://127.0.0.1:8200",
        SVC_TRANSIT_KEY: "svc",
        SVC_TRANSIT_MOUNT: "kms/",
        SVC_TRANSIT_TOKEN_FILE: join(dir, "t"),
      }).transit,
    ).toMatchObject({ token: "hvs.fromfile", mount: "kms" });
    expect(problems({ SVC_TRANSIT_ADDR: "http://x:8200", SVC_TRANSIT_KEY: "svc" })).toEqual([
      "SVC_TRANSIT_ADDR: Transit needs SVC_TRANSIT_TOKEN (or _FILE) or a role login (SVC_TRANSIT_ROLE)",
    ]);
    expect(
      problems({
        SVC_TRANSIT_ADDR: "http://x:8200",
        SVC_TRANSIT_KEY: "svc",
        SVC_TRANSIT_TOKEN: "t",
        SVC_TRANSIT_ROLE: "r",
      }),
    ).toEqual(["SVC_TRANSIT_TOKEN and SVC_TRANSIT_ROLE are both set; set one"]);
    expect(problems({ SVC_TRANSIT_KEY: "svc", SVC_TRANSIT_TOKEN: "t" })).toEqual([
      "SVC_TRANSIT_ADDR: the Transit service's address is needed with SVC_TRANSIT_KEY",
    ]);
    expect(problems({ SVC_TRANSIT_ROLE: "svc" })).toEqual([
      "SVC_TRANSIT_ROLE: set SVC_TRANSIT_ADDR and SVC_TRANSIT_KEY with it",
    ]);
    expect(
      problems({ SVC_TRANSIT_ADDR: "http://x:8200", SVC_TRANSIT_KEY: "a b", SVC_TRANSIT_TOKEN: "t" }),
    ).toEqual(['SVC_TRANSIT_KEY: expected the Transit key\'s name, got "a b"']);
  });
});
