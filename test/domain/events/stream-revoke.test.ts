// An open event stream holds only while its credential does: revoking or expiring the key, rolling it with no
// overlap, revoking a user token, disabling the person or removing them from the org ends the stream within
// seconds, also when the change is made by another process on the same database (two Apps here).
import { afterAll, beforeAll, expect, test } from "bun:test";
import { CREDENTIAL_CHECK_MS } from "../../../src/domain/events/stream.ts";
import { FakeClock } from "../../../src/lib/clock.ts";
import { type TestApp, testApp } from "../../helpers/app.ts";
import { describeEachDialect } from "../../helpers/db.ts";
import { ADMIN, INTEGRATION, key, member, type Tenant, tenant, userToken } from "../../helpers/factories.ts";
import { sse } from "../../helpers/sse.ts";

/** Within a credential check and a poll, with room for a busy machine. */
const WITHIN = CREDENTIAL_CHECK_MS + 3000;

describeEachDialect("event streams end with their credential", (dialect) => {
  let t: TestApp; // the process holding the streams
  let other: TestApp; // another process on the same database
  let a: Tenant;
  let clock: FakeClock;
  let server: ReturnType<typeof Bun.serve>;
  beforeAll(async () => {
    clock = new FakeClock(Date.now());
    t = await testApp(dialect, { clock });
    other = await testApp(dialect, { url: t.dbUrl, env: { SVC_MASTER_KEYS: t.masterKeys }, clock });
    a = await tenant(t.app);
    server = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      idleTimeout: 0,
      fetch: (req) => t.http.handle(req),
    });
  });
  afterAll(async () => {
    server.stop(true);
    await other.close();
    await t.close();
  });

  const open = async (credential: string) => {
    const s = await sse(`http://127.0.0.1:${server.port}/v1/events/stream`, {
      authorization: `Bearer ${credential}`,
    });
    expect(s.response.status).toBe(200);
    expect(await s.next()).toEqual({ retry: "3000", comments: [] });
    expect(await s.next()).toEqual({ comments: ["connected"] });
    return s;
  };
  const fullKey = (name: string) => key(t.app, a.orgId, { name, scopes: [...INTEGRATION, ...ADMIN] });
  const idOf = async (k: string) => (await t.request("GET", "/v1/me", { key: k })).body.api_key.id;

  test("revoked in this process: the stream ends at once; another key's stream goes on", async () => {
    const k = await fullKey("revoked here");
    const bystander = await open(a.testKey);
    const s = await open(k);
    const started = Date.now();
    expect((await t.request("POST", `/v1/api_keys/${await idOf(k)}/revoke`, { key: a.testKey })).status).toBe(
      200,
    );
    expect(await s.ends(WITHIN)).toBe(true);
    expect(Date.now() - started).toBeLessThan(1500);
    expect(await bystander.ends(500)).toBe(false);
    bystander.close();
  });

  test("revoked by another process: the stream ends within seconds", async () => {
    const k = await fullKey("revoked elsewhere");
    const s = await open(k);
    const r = await other.request("POST", `/v1/api_keys/${await idOf(k)}/revoke`, { key: a.testKey });
    expect(r.status).toBe(200);
    expect(await s.ends(WITHIN)).toBe(true);
  });

  test("an expiring key's stream ends when it expires; a roll with no overlap ends the old key's", async () => {
    const expiring = await key(t.app, a.orgId, {
      name: "expiring",
      scopes: ["events:read"],
      expires_at: new Date(clock.now() + 60_000).toISOString(),
    });
    const s = await open(expiring);
    expect(await s.ends(500)).toBe(false);
    clock.advance(61_000);
    expect(await s.ends(WITHIN)).toBe(true);

    const rolled = await fullKey("rolled");
    const s2 = await open(rolled);
    expect(
      (await other.request("POST", "/v1/api_keys/self/roll", { key: rolled, body: { overlap_hours: 0 } }))
        .status,
    ).toBe(201);
    expect(await s2.ends(WITHIN)).toBe(true);
  });

  test("a person's stream ends when the token is revoked, the person disabled or removed from the org", async () => {
    const cases: [string, (userId: string, tokenId: string) => Promise<unknown>][] = [
      [
        "token revoked",
        (_u, tok) =>
          other.app.db
            .updateTable("user_tokens")
            .set({ revoked_at: clock.now() })
            .where("id", "=", tok)
            .execute(),
      ],
      [
        "person disabled",
        (u) =>
          other.app.db.updateTable("users").set({ disabled_at: clock.now() }).where("id", "=", u).execute(),
      ],
      [
        "removed from the org",
        (u) =>
          other.app.db.deleteFrom("members").where("user_id", "=", u).where("org_id", "=", a.orgId).execute(),
      ],
    ];
    for (const [what, end] of cases) {
      const userId = await member(t.app, a.orgId, `${what.replace(/ /g, "-")}@example.com`, "admin");
      const tok = await userToken(t.app, userId);
      const s = await open(tok.secret);
      expect([what, await s.ends(300)]).toEqual([what, false]);
      await end(userId, tok.id);
      expect([what, await s.ends(WITHIN)]).toEqual([what, true]);
    }
  });
});
