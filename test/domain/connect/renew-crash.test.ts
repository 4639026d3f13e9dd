// Never lose a refresh token, never send one twice, proven with real processes: a worker running channels.refresh
// is killed (SIGKILL) while the token endpoint holds its requests, then another run finishes.
// - Killed before the network acted on the requests (the connection dropped first): the stored refresh tokens are
//   the old ones, still good; the dead worker's claims keep other workers off until their lease lapses, then the
//   next run renews every channel once, and no refresh token reaches the network twice.
// - Killed after the network rotated the tokens but before its answers arrived: svc never learned the new ones.
//   The next run (after the lease) sends each old token once; the network refuses it, the channel becomes
//   needs_reauth with channel.needs_reauth, and nothing is sent again: one sign-in, never a reconnect loop.
// The token endpoint is a stand-in written from RFC 6749 §6 as X and oidc-provider behave: each refresh token works
// once, and a reused one is refused (invalid_grant) and counted.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { randomBytes } from "node:crypto";
import type { Subprocess } from "bun";
import { createApp as createSvcApp } from "../../../src/app/context.ts";
import { silentLogger } from "../../../src/app/log.ts";
import { openDatabase } from "../../../src/db/index.ts";
import { createApp } from "../../../src/domain/apps/create.ts";
import { openSecrets } from "../../../src/domain/channels/fields.ts";
import { RENEW_LEASE_MS, RENEWAL_LANES, renewDueTokens } from "../../../src/domain/connect/renew.ts";
import { FakeClock } from "../../../src/lib/clock.ts";
import { type TestApp, testApp } from "../../helpers/app.ts";
import { describeEachDialect } from "../../helpers/db.ts";
import { type Tenant, tenant } from "../../helpers/factories.ts";
import type { OAuthServer } from "../../helpers/oauth-server.ts";
import { personActor } from "../../helpers/person.ts";
import { signedInChannel } from "../../helpers/signin.ts";

const CLIENT = { clientId: "crash-client", clientSecret: "crash-secret" };
const DAY = 24 * 3600_000;

/**
 * A rotating token endpoint. `hold`: "before" keeps each request unanswered and untouched until the client hangs
 * up (the network never acted on it); "after" rotates at once and then keeps the answer (the network acted).
 */
function tokenEndpoint() {
  const valid = new Set<string>();
  const sent = new Map<string, number>();
  const state = { hold: null as null | "before" | "after", held: 0, granted: 0, refused: 0 };
  const issue = () => {
    const t = randomBytes(24).toString("base64url");
    valid.add(t);
    return t;
  };
  const answer = (rt: string) => {
    sent.set(rt, (sent.get(rt) ?? 0) + 1);
    if (!valid.delete(rt)) {
      state.refused++;
      return Response.json(
        { error: "invalid_grant", error_description: "refresh token reused" },
        { status: 400 },
      );
    }
    state.granted++;
    return Response.json({
      access_token: randomBytes(24).toString("base64url"),
      refresh_token: issue(),
      token_type: "bearer",
      expires_in: 30 * 24 * 3600,
      scope: "tweet.read tweet.write users.read offline.access",
    });
  };
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    idleTimeout: 0,
    async fetch(req) {
      const rt = new URLSearchParams(await req.text()).get("refresh_token") ?? "";
      if (state.hold === "before") {
        state.held++;
        // Untouched until the client hangs up: the network never saw a usable request.
        await new Promise((r) => req.signal.addEventListener("abort", r));
        return new Response(null, { status: 499 });
      }
      if (state.hold === "after") {
        const a = answer(rt);
        state.held++;
        await new Promise((r) => req.signal.addEventListener("abort", r));
        return a;
      }
      return answer(rt);
    },
  });
  return {
    url: `http://127.0.0.1:${server.port}`,
    state,
    /** How many times each refresh token reached the endpoint. */
    sent,
    isValid: (rt: string) => valid.has(rt),
    issue: async () => ({ access_token: randomBytes(24).toString("base64url"), refresh_token: issue() }),
    stop: () => server.stop(true),
  };
}

describeEachDialect("token renewal across a killed worker", (dialect) => {
  let t: TestApp;
  let a: Tenant;
  let ep: ReturnType<typeof tokenEndpoint>;
  let appId: string;
  let accounts = 0;
  let env: Record<string, string>;

  beforeAll(async () => {
    ep = tokenEndpoint();
    env = { SVC_PROVIDER_ORIGINS: `x.auth=${ep.url},x.token=${ep.url}`, SVC_ALLOW_PRIVATE_NETWORKS: "true" };
    t = await testApp(dialect, { env });
    a = await tenant(t.app, "Crash Co");
    const actor = await personActor(t.app, a.userId, a.orgId, true);
    appId = (await createApp(t.app, actor, { provider: "x", name: "Crash app", ...fields() })).id;
  });
  afterAll(async () => {
    await t.close();
    ep.stop();
  });
  const fields = () => ({ client_id: CLIENT.clientId, client_secret: CLIENT.clientSecret });

  /** `n` channels whose tokens expire in two days, each with a refresh token the endpoint issued. */
  async function channels(n: number) {
    const out: { id: string; refresh: string }[] = [];
    for (let i = 0; i < n; i++) {
      const ch = await signedInChannel(t, a, { issue: ep.issue } as unknown as OAuthServer, {
        appId,
        clientId: CLIENT.clientId,
        account: `crash${++accounts}`,
        expiresInMs: 2 * DAY,
      });
      out.push({ id: ch.id, refresh: ch.tokens.refresh_token });
    }
    return out;
  }

  const stored = async (id: string) => {
    const row = await t.app.db
      .selectFrom("channels")
      .selectAll()
      .where("id", "=", id)
      .executeTakeFirstOrThrow();
    return { status: row.status, refresh: (await openSecrets(t.app, row)).refresh_token! };
  };

  async function killDuringRun(hold: "before" | "after", expected: number) {
    ep.state.hold = hold;
    ep.state.held = 0;
    const proc: Subprocess<"ignore", "pipe", "inherit"> = Bun.spawn(["bun", "test/e2e/renew-worker.ts"], {
      env: {
        ...process.env,
        ...env,
        SVC_DATABASE_URL: t.dbUrl,
        SVC_MASTER_KEYS: t.masterKeys,
        SVC_LOG_LEVEL: "error",
      },
      stdout: "pipe",
      stderr: "inherit",
    });
    for (let i = 0; i < 2400 && ep.state.held < expected; i++) await Bun.sleep(25);
    // No more than the renewals run at once reach the network while they are held.
    await Bun.sleep(200);
    expect(ep.state.held).toBe(expected);
    proc.kill("SIGKILL");
    await proc.exited;
    ep.state.hold = null;
  }

  /** A run of channels.refresh in this process whose clock is `aheadMs` ahead (past the dead worker's lease). */
  async function runLater(aheadMs: number) {
    const later = createSvcApp(t.app.config, {
      database: openDatabase(t.dbUrl),
      log: silentLogger,
      clock: new FakeClock(Date.now() + aheadMs),
    });
    try {
      return await renewDueTokens(later, 500);
    } finally {
      await later.close();
    }
  }

  test("killed before the network acted: the old refresh tokens stay, the claims hold off others until the lease lapses, then each channel is renewed once", async () => {
    // More channels than renewals run at once: some are claimed but not yet asked for when the worker dies.
    const chs = await channels(RENEWAL_LANES + 2);
    await killDuringRun("before", RENEWAL_LANES);
    for (const c of chs) {
      expect(await stored(c.id)).toEqual({ status: "active", refresh: c.refresh });
      expect(ep.isValid(c.refresh)).toBe(true);
    }
    // The dead worker's claims are live: a run now sends nothing for these channels.
    const granted = ep.state.granted;
    const now = await renewDueTokens(t.app, 500);
    expect(now.renewed).toBe(0);
    expect(ep.state.granted).toBe(granted);
    for (const c of chs) expect(ep.sent.get(c.refresh)).toBeUndefined();
    // Past the lease: each is renewed once with its stored refresh token, and keeps the rotated one.
    const after = await runLater(RENEW_LEASE_MS + 60_000);
    expect(after.renewed).toBe(chs.length);
    expect(after.refused).toBe(0);
    for (const c of chs) {
      expect(ep.sent.get(c.refresh)).toBe(1);
      const s = await stored(c.id);
      expect(s.status).toBe("active");
      expect(s.refresh).not.toBe(c.refresh);
      expect(ep.isValid(s.refresh)).toBe(true);
    }
    expect(ep.state.refused).toBe(0);
  }, 120_000);

  test("killed after the network rotated: each old token is sent once more, refused, and the channel asks for a sign-in (channel.needs_reauth) with nothing sent again", async () => {
    const chs = await channels(RENEWAL_LANES);
    const refusedBefore = ep.state.refused;
    await killDuringRun("after", RENEWAL_LANES);
    // The network rotated; svc never received the answers, so the rows hold the old tokens (nothing half-written).
    for (const c of chs) expect(await stored(c.id)).toEqual({ status: "active", refresh: c.refresh });
    const after = await runLater(RENEW_LEASE_MS + 60_000);
    expect(after.refused).toBe(chs.length);
    expect(ep.state.refused - refusedBefore).toBe(chs.length);
    for (const c of chs) {
      expect(ep.sent.get(c.refresh)).toBe(2);
      expect((await stored(c.id)).status).toBe("needs_reauth");
    }
    const events = await t.app.db
      .selectFrom("events")
      .select("data")
      .where("type", "=", "channel.needs_reauth")
      .execute();
    for (const c of chs) expect(events.filter((e) => e.data.includes(c.id))).toHaveLength(1);
    // No loop: later runs leave them alone.
    expect(await runLater(2 * RENEW_LEASE_MS)).toEqual({ fresh: 0, renewed: 0, refused: 0, unavailable: 0 });
    for (const c of chs) expect(ep.sent.get(c.refresh)).toBe(2);
  }, 120_000);
});
