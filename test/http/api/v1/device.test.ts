// CLI sign-in by device authorization (RFC 8628): the CLI starts, the person approves on /device in sudo mode (or
// denies), the CLI polls and collects a user token once. Every refusal has its RFC code, with the RFC's `error`.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { listUserTokens, revokeUserToken } from "../../../../src/domain/identity/auth/user-token-service.ts";
import {
  approveDeviceAuthorization,
  denyDeviceAuthorization,
  findDeviceAuthorization,
  PENDING_PER_ADDRESS,
} from "../../../../src/domain/identity/devices/service.ts";
import { FakeClock } from "../../../../src/lib/clock.ts";
import { ServiceError } from "../../../../src/lib/errors.ts";
import { type TestApp, testApp } from "../../../helpers/app.ts";
import { describeEachDialect } from "../../../helpers/db.ts";
import { member, type Tenant, tenant, userToken } from "../../../helpers/factories.ts";
import { personActor } from "../../../helpers/person.ts";
import { type SmtpReceiver, smtpReceiver } from "../../../helpers/smtp.ts";

async function refused(p: Promise<unknown>): Promise<ServiceError> {
  try {
    await p;
  } catch (e) {
    if (e instanceof ServiceError) return e;
    throw e;
  }
  throw new Error("expected a ServiceError");
}

describeEachDialect("device sign-in", (dialect) => {
  let t: TestApp;
  let a: Tenant;
  let smtp: SmtpReceiver;
  const clock = new FakeClock();
  beforeAll(async () => {
    smtp = await smtpReceiver();
    t = await testApp(dialect, { clock, env: smtp.env });
    a = await tenant(t.app, "Device Org");
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  const start = (body: unknown) => t.request("POST", "/v1/auth/device", { body });
  const poll = (device_code: string) => t.request("POST", "/v1/auth/device/token", { body: { device_code } });

  test("start answers a device code, a XXXX-XXXX user code, the /device page, 900 s and 5 s", async () => {
    const r = await start({ device_name: "laptop", livemode: true });
    expect(r.status).toBe(200);
    expect(r.headers.get("cache-control")).toBe("no-store");
    expect(r.body.user_code).toMatch(/^[BCDFGHJKLMNPQRSTVWXZ]{4}-[BCDFGHJKLMNPQRSTVWXZ]{4}$/);
    expect(r.body.verification_uri).toBe("http://localhost:8080/device");
    expect(r.body.expires_in).toBe(900);
    expect(r.body.interval).toBe(5);
    expect(r.body.device_code.length).toBeGreaterThanOrEqual(40);
    expect(r.body).not.toHaveProperty("verification_uri_complete");
    // Only hashes are stored.
    const rows = await t.app.db.selectFrom("device_authorizations").selectAll().execute();
    const flat = JSON.stringify(rows);
    expect(flat).not.toContain(r.body.device_code);
    expect(flat).not.toContain(r.body.user_code.replace("-", ""));
  });

  test("one client address may have at most 10 pending sign-ins; another address is not held up", async () => {
    const from = (ip: string) => (i: number) =>
      t.http
        .handle(
          new Request("http://localhost/v1/auth/device", {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify({ device_name: `cli ${i}` }),
          }),
          ip,
        )
        .then(async (r) => ({
          status: r.status,
          headers: r.headers,
          body: (await r.json()) as { code: string },
        }));
    const flood = from("203.0.113.90");
    const statuses: number[] = [];
    for (let i = 0; i < 15; i++) statuses.push((await flood(i)).status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(PENDING_PER_ADDRESS);
    expect(statuses.slice(PENDING_PER_ADDRESS).every((s) => s === 429)).toBe(true);
    const over = await flood(99);
    expect(over.body.code).toBe("rate_limited");
    expect(Number(over.headers.get("retry-after"))).toBeGreaterThan(0);
    const pending = await t.app.db
      .selectFrom("device_authorizations")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("client_ip", "=", "203.0.113.90")
      .executeTakeFirstOrThrow();
    expect(Number(pending.n)).toBe(PENDING_PER_ADDRESS);
    expect((await from("203.0.113.91")(0)).status).toBe(200);
    // Once they end (15 minutes), the address may start again.
    clock.advance(15 * 60_000 + 1);
    expect((await flood(100)).status).toBe(200);
  });

  test("bad device names and bodies are refused", async () => {
    for (const device_name of ["", "x".repeat(101), "   "]) {
      const r = await start({ device_name });
      expect(r.status).toBe(422);
      expect(r.body.code).toBe("device_name_invalid");
      expect(r.body.error).toBe("invalid_request");
      expect(r.headers.get("content-type")).toBe("application/json");
    }
    expect((await start({ device_name: "x", extra: 1 })).body.code).toBe("parameter_unknown");
    expect((await start({ device_name: 5 })).body.code).toBe("parameter_invalid");
    expect((await start({})).body.code).toBe("parameter_missing");
    expect((await t.request("POST", "/v1/auth/device", { raw: "{" })).body.code).toBe("json_invalid");
    expect((await t.request("POST", "/v1/auth/device?x=1", { body: { device_name: "a" } })).body.code).toBe(
      "parameter_unknown",
    );
    expect((await t.request("GET", "/v1/auth/device")).status).toBe(405);
    // Text no database stores, and a body that is not JSON or a form.
    expect((await start({ device_name: "a\u0000b" })).body).toMatchObject({
      code: "parameter_invalid",
      error: "invalid_request",
    });
    const plain = await t.request("POST", "/v1/auth/device", {
      raw: JSON.stringify({ device_name: "x" }),
      headers: { "content-type": "text/plain" },
    });
    expect([plain.status, plain.body.code]).toEqual([400, "json_invalid"]);
  });

  test("approve in sudo mode: the CLI collects a token once, in the mode it asked for; a notice is mailed", async () => {
    const s = await start({ device_name: "<b>ci</b> box", livemode: true });
    const pending = await poll(s.body.device_code);
    expect(pending.status).toBe(400);
    expect(pending.headers.get("content-type")).toBe("application/json");
    expect(pending.body).toMatchObject({
      error: "authorization_pending",
      code: "authorization_pending",
      status: 400,
    });
    expect(typeof pending.body.request_id).toBe("string");

    const owner = await personActor(t.app, a.userId, a.orgId);
    const seen = await findDeviceAuthorization(t.app, owner, s.body.user_code.toLowerCase());
    expect(seen).toMatchObject({ device_name: "<b>ci</b> box", livemode: true, status: "pending" });

    // No recent password confirmation: refused, nothing changes.
    const noSudo = await refused(
      approveDeviceAuthorization(t.app, owner, { userCode: s.body.user_code, confirmedAt: null }),
    );
    expect(noSudo.code).toBe("reauthentication_required");
    const stale = await refused(
      approveDeviceAuthorization(t.app, owner, {
        userCode: s.body.user_code,
        confirmedAt: clock.now() - 11 * 60_000,
      }),
    );
    expect(stale.code).toBe("reauthentication_required");

    const ok = await approveDeviceAuthorization(t.app, owner, {
      userCode: s.body.user_code,
      confirmedAt: clock.now() - 60_000,
    });
    expect(ok.status).toBe("approved");
    // The same code typed twice.
    const twice = await refused(
      approveDeviceAuthorization(t.app, owner, { userCode: s.body.user_code, confirmedAt: clock.now() }),
    );
    expect(twice.code).toBe("invalid_grant");
    expect((await refused(denyDeviceAuthorization(t.app, owner, { userCode: s.body.user_code }))).code).toBe(
      "invalid_grant",
    );

    clock.advance(5_000);
    const got = await poll(s.body.device_code);
    expect(got.status).toBe(200);
    expect(got.body.object).toBe("user_token");
    expect(got.body.token_type).toBe("bearer");
    expect(got.body.access_token).toMatch(/^svc_user_[0-9A-Za-z]{32}$/);
    expect(got.body.user_token).toMatchObject({ name: "<b>ci</b> box", livemode: true });

    const me = await t.request("GET", "/v1/me", { key: got.body.access_token });
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ livemode: true, role: "owner", user: { id: a.userId } });

    // Collected once: the device code is spent.
    const again = await poll(s.body.device_code);
    expect(again.body).toMatchObject({ status: 400, error: "invalid_grant", code: "invalid_grant" });

    const mail = await smtp.waitFor(a.email, /A CLI signed in as you/);
    expect(mail.text).toContain("&lt;b&gt;ci&lt;/b&gt; box");
    expect(mail.text).not.toContain('<b>ci</b> box"</p>');
    expect(mail.text).toContain("live mode");

    const logged = await t.app.db
      .selectFrom("request_log")
      .selectAll()
      .where("user_token_id", "=", got.body.user_token.id)
      .where("path", "=", "/v1/auth/device/token")
      .execute();
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatchObject({ org_id: a.orgId, livemode: 1, status: 200 });

    const audit = await t.app.db
      .selectFrom("audit_events")
      .selectAll()
      .where("action", "=", "device.approve")
      .execute();
    expect(audit.length).toBe(1);
    expect(audit[0]!.user_id).toBe(a.userId);
  });

  test("polling faster than the interval answers slow_down, and the interval grows by 5 s", async () => {
    const s = await start({ device_name: "fast" });
    expect((await poll(s.body.device_code)).body.error).toBe("authorization_pending");
    clock.advance(2_000);
    const slow = await poll(s.body.device_code);
    expect(slow.body).toMatchObject({ error: "slow_down", code: "slow_down" });
    clock.advance(6_000); // 6 s < the new 10 s interval
    expect((await poll(s.body.device_code)).body.error).toBe("slow_down");
    clock.advance(15_000);
    expect((await poll(s.body.device_code)).body.error).toBe("authorization_pending");
  });

  test("denied: access_denied", async () => {
    const s = await start({ device_name: "stolen?" });
    const owner = await personActor(t.app, a.userId, a.orgId);
    await denyDeviceAuthorization(t.app, owner, { userCode: s.body.user_code });
    clock.advance(5_000);
    expect((await poll(s.body.device_code)).body).toMatchObject({
      error: "access_denied",
      code: "access_denied",
    });
    clock.advance(5_000);
    expect((await poll(s.body.device_code)).body.error).toBe("access_denied");
  });

  test("after 15 minutes: approval refused with expired_token, and the CLI gets expired_token", async () => {
    const s = await start({ device_name: "slow" });
    const owner = await personActor(t.app, a.userId, a.orgId);
    clock.advance(15 * 60_000);
    const late = await refused(
      approveDeviceAuthorization(t.app, owner, { userCode: s.body.user_code, confirmedAt: clock.now() }),
    );
    expect(late.code).toBe("expired_token");
    expect((await poll(s.body.device_code)).body).toMatchObject({
      error: "expired_token",
      code: "expired_token",
    });
  });

  test("unknown and malformed codes", async () => {
    const owner = await personActor(t.app, a.userId, a.orgId);
    expect((await poll("nope")).body).toMatchObject({ error: "invalid_grant", code: "invalid_grant" });
    const missing = await t.request("POST", "/v1/auth/device/token", { body: {} });
    expect(missing.body).toMatchObject({ error: "invalid_request", code: "parameter_missing" });
    expect((await refused(findDeviceAuthorization(t.app, owner, "BCDF-GHJK"))).code).toBe("resource_missing");
    expect((await refused(findDeviceAuthorization(t.app, owner, "<script>"))).code).toBe("user_code_invalid");
    expect((await refused(findDeviceAuthorization(t.app, owner, "AAAA-AAAA"))).code).toBe(
      "user_code_invalid",
    );
  });

  test("a form-encoded OAuth request works the same (client_id, grant_type accepted)", async () => {
    const res = await t.http.handle(
      new Request("http://localhost/v1/auth/device", {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: "client_id=svc-cli&device_name=form&livemode=false",
      }),
    );
    expect(res.status).toBe(200);
    const body = (await res.json()) as { device_code: string };
    const tok = await t.http.handle(
      new Request("http://localhost/v1/auth/device/token", {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: `grant_type=${encodeURIComponent("urn:ietf:params:oauth:grant-type:device_code")}&device_code=${body.device_code}&client_id=svc-cli`,
      }),
    );
    expect(tok.status).toBe(400);
    expect(((await tok.json()) as { error: string }).error).toBe("authorization_pending");
    const wrongGrant = await t.http.handle(
      new Request("http://localhost/v1/auth/device/token", {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: `grant_type=password&device_code=${body.device_code}`,
      }),
    );
    expect(((await wrongGrant.json()) as { error: string }).error).toBe("invalid_request");
  });

  test("DELETE /v1/auth/token signs the calling token out; keys cannot use it", async () => {
    const tok = await userToken(t.app, a.userId);
    const r = await t.request("DELETE", "/v1/auth/token", { key: tok.secret });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ id: tok.id, object: "user_token", deleted: true });
    const after = await t.request("GET", "/v1/me", { key: tok.secret });
    expect(after.status).toBe(401);
    expect(after.body.code).toBe("user_token_invalid");
    const key = await t.request("DELETE", "/v1/auth/token", { key: a.testKey });
    expect(key.status).toBe(403);
  });

  test("a token unused for a year stops working", async () => {
    const tok = await userToken(t.app, a.userId);
    expect((await t.request("GET", "/v1/me", { key: tok.secret })).status).toBe(200);
    clock.advance(366 * 86400_000);
    const r = await t.request("GET", "/v1/me", { key: tok.secret });
    expect(r.status).toBe(401);
    expect(r.body.code).toBe("user_token_invalid");
  });

  test("the Devices page lists only the person's own tokens; another's reads as missing", async () => {
    const otherId = await member(t.app, a.orgId, `other-${dialect}@example.com`, "editor");
    const mine = await userToken(t.app, a.userId, { name: "mine" });
    const theirs = await userToken(t.app, otherId, { name: "theirs" });
    const owner = await personActor(t.app, a.userId, a.orgId);
    const list = await listUserTokens(t.app, owner);
    expect(list.data.map((x) => x.id)).toContain(mine.id);
    expect(list.data.map((x) => x.id)).not.toContain(theirs.id);
    expect(JSON.stringify(list)).not.toContain(mine.secret);
    expect((await refused(revokeUserToken(t.app, owner, theirs.id))).code).toBe("resource_missing");
    expect((await t.request("GET", "/v1/me", { key: theirs.secret })).status).toBe(200);
    await revokeUserToken(t.app, owner, mine.id);
    expect((await t.request("GET", "/v1/me", { key: mine.secret })).body.code).toBe("user_token_invalid");
  });
});
