// Token renewal against a real authorization server (oidc-provider, refresh tokens rotate and a reused one is
// refused and ends the grant): channels.refresh renews tokens expiring within 7 days and stores the rotated
// refresh token with the new access token; two workers renewing one channel at once make one token request;
// publishing renews a token expiring within 5 minutes; a revoked grant or a removed app makes the channel
// needs_reauth with channel.needs_reauth.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { createApp } from "../../../src/domain/apps/create.ts";
import { deleteApp } from "../../../src/domain/apps/delete.ts";
import { openSecrets } from "../../../src/domain/channels/fields.ts";
import { renewBeforePublish, renewDueTokens, renewToken } from "../../../src/domain/connect/renew.ts";
import { type TestApp, testApp } from "../../helpers/app.ts";
import { describeEachDialect } from "../../helpers/db.ts";
import { type Tenant, tenant } from "../../helpers/factories.ts";
import { type OAuthServer, oauthServer } from "../../helpers/oauth-server.ts";
import { personActor } from "../../helpers/person.ts";
import { signedInChannel as signedIn } from "../../helpers/signin.ts";

const CLIENT = { clientId: "renew-client", clientSecret: "renew-secret" };
const HOUR = 3600_000;

describeEachDialect("token renewal", (dialect) => {
  let t: TestApp;
  let auth: OAuthServer;
  let a: Tenant;
  let appId: string;
  let accounts = 0;

  beforeAll(async () => {
    auth = await oauthServer();
    await auth.start({ ...CLIENT, redirectUri: "http://localhost:8080/connect/x/callback" });
    t = await testApp(dialect, {
      env: {
        SVC_PROVIDER_ORIGINS: `x.auth=${auth.url},x.token=${auth.url}`,
        SVC_ALLOW_PRIVATE_NETWORKS: "true",
      },
    });
    a = await tenant(t.app, "Renew Co");
    const actor = await personActor(t.app, a.userId, a.orgId, true);
    appId = (
      await createApp(t.app, actor, {
        provider: "x",
        name: "Renew app",
        client_id: CLIENT.clientId,
        client_secret: CLIENT.clientSecret,
      })
    ).id;
  });
  afterAll(async () => {
    await t.close();
    await auth.close();
  });

  /** A channel connected by signing in (as the account choice leaves it) whose token expires in `expiresInMs`. */
  const signedInChannel = (expiresInMs: number, app = appId) =>
    signedIn(t, a, auth, {
      appId: app,
      clientId: CLIENT.clientId,
      account: `acct${++accounts}`,
      expiresInMs,
    });

  const secretsOf = async (id: string) =>
    openSecrets(
      t.app,
      await t.app.db.selectFrom("channels").selectAll().where("id", "=", id).executeTakeFirstOrThrow(),
    );
  const grantOf = (id: string) =>
    t.app.db.selectFrom("channel_grants").selectAll().where("channel_id", "=", id).executeTakeFirstOrThrow();

  test("channels.refresh renews a token expiring within 7 days and keeps the rotated refresh token; the old one is refused by the server", async () => {
    const soon = await signedInChannel(3 * 24 * HOUR);
    const later = await signedInChannel(30 * 24 * HOUR);
    const laterBefore = await secretsOf(later.id);
    const counts = await renewDueTokens(t.app);
    expect(counts.renewed).toBeGreaterThanOrEqual(1);
    const after = await secretsOf(soon.id);
    expect(after.access_token).not.toBe(soon.tokens.access_token);
    expect(after.refresh_token).not.toBe(soon.tokens.refresh_token);
    expect(await auth.accountOf(after.access_token!)).toBe(soon.account);
    const g = await grantOf(soon.id);
    expect(Math.abs(g.token_expires_at! - (Date.now() + 2 * HOUR))).toBeLessThan(60_000);
    expect(g.refreshed_at).not.toBeNull();
    // A token with 30 days left is left alone.
    expect(await secretsOf(later.id)).toEqual(laterBefore);
    // The stored refresh token is the one that works: renewing again succeeds (it rotates once more).
    expect((await renewToken(t.app, soon.id, 7 * 24 * HOUR)).kind).toBe("renewed");
    // The server refuses the first refresh token, now used: svc must never send it again.
    const reuse = await fetch(`${auth.url}/2/oauth2/token`, {
      method: "POST",
      headers: {
        authorization: `Basic ${btoa(`${CLIENT.clientId}:${CLIENT.clientSecret}`)}`,
        "content-type": "application/x-www-form-urlencoded",
      },
      body: new URLSearchParams({ grant_type: "refresh_token", refresh_token: soon.tokens.refresh_token }),
    });
    expect(reuse.status).toBe(400);
    expect(((await reuse.json()) as { error: string }).error).toBe("invalid_grant");
  });

  test("two workers renewing one channel at once: one token request, the other sees it renewed; no refresh token used twice", async () => {
    const ch = await signedInChannel(HOUR);
    // A second App is a second worker with connections of its own. No lock is held while the network answers
    // (the renewal claims the channel, then asks), so on SQLite too both run in this one thread.
    const second = await testApp(dialect, {
      url: t.dbUrl,
      env: {
        SVC_MASTER_KEYS: t.masterKeys,
        SVC_PROVIDER_ORIGINS: `x.auth=${auth.url},x.token=${auth.url}`,
        SVC_ALLOW_PRIVATE_NETWORKS: "true",
      },
    });
    try {
      const granted = auth.tokenAnswers.granted;
      const refused = auth.tokenAnswers.refused.length;
      // Each worker found the channel due with the expiry it read, as channels.refresh and publishing do.
      const seen = (await grantOf(ch.id)).token_expires_at;
      const results = await Promise.all([
        renewToken(t.app, ch.id, 7 * 24 * HOUR, seen),
        renewToken(second.app, ch.id, 7 * 24 * HOUR, seen),
        renewToken(t.app, ch.id, 7 * 24 * HOUR, seen),
      ]);
      expect(results.map((r) => r.kind).sort()).toEqual(["fresh", "fresh", "renewed"]);
      expect(auth.tokenAnswers.granted - granted).toBe(1);
      expect(auth.tokenAnswers.refused.length - refused).toBe(0);
      const s = await secretsOf(ch.id);
      expect(await auth.accountOf(s.access_token!)).toBe(ch.account);
    } finally {
      await second.close();
    }
  });

  test("channels.refresh stores each renewal under its own claim: a channel reconnected while the network answered keeps the reconnect's tokens, the others store theirs", async () => {
    const chans = [
      await signedInChannel(HOUR),
      await signedInChannel(HOUR),
      await signedInChannel(HOUR),
      await signedInChannel(HOUR),
    ];
    const target = chans[1]!;
    // The person reconnects the channel while the network is answering its renewal: the answer waits until the
    // reconnect has stored its sign-in (a new grant, no claim on it).
    let reconnected: Awaited<ReturnType<typeof signedInChannel>> | null = null;
    let armed = true;
    auth.beforeTokenAnswer = async (refreshToken) => {
      if (!armed || refreshToken !== target.tokens.refresh_token) return;
      armed = false;
      reconnected = await signedIn(t, a, auth, {
        appId,
        clientId: CLIENT.clientId,
        account: target.account,
        expiresInMs: 3 * HOUR,
      });
    };
    const counts = await renewDueTokens(t.app).finally(() => {
      auth.beforeTokenAnswer = null;
    });
    expect(armed).toBe(false);
    const r = reconnected as Awaited<ReturnType<typeof signedInChannel>> | null;
    expect(r?.id).toBe(target.id);
    expect(counts.renewed).toBeGreaterThanOrEqual(chans.length - 1);
    // The reconnect's tokens stand; the renewal's were dropped, and nothing of it is left on the grant.
    const kept = await secretsOf(target.id);
    expect(kept.access_token).toBe(r!.tokens.access_token);
    expect(kept.refresh_token).toBe(r!.tokens.refresh_token);
    const g = await grantOf(target.id);
    expect(g.renew_claim).toBeNull();
    expect(g.refreshed_at).toBeNull();
    expect(Math.abs(g.token_expires_at! - (Date.now() + 3 * HOUR))).toBeLessThan(60_000);
    // Every other channel stored its own renewal: the rotated tokens, the server's new expiry, the claim cleared.
    for (const c of chans.filter((c) => c !== target)) {
      const s = await secretsOf(c.id);
      expect(s.refresh_token).not.toBe(c.tokens.refresh_token);
      expect(await auth.accountOf(s.access_token!)).toBe(c.account);
      const cg = await grantOf(c.id);
      expect(cg.renew_claim).toBeNull();
      expect(cg.refreshed_at).not.toBeNull();
      expect(Math.abs(cg.token_expires_at! - (Date.now() + 2 * HOUR))).toBeLessThan(60_000);
    }
    // No grant was ended by a refresh token sent twice: the reconnect's token works, and all four stay active.
    expect(await auth.accountOf(kept.access_token!)).toBe(target.account);
    const statuses = await t.app.db
      .selectFrom("channels")
      .select("status")
      .where(
        "id",
        "in",
        chans.map((c) => c.id),
      )
      .execute();
    expect(statuses.map((s) => s.status)).toEqual(["active", "active", "active", "active"]);
  });

  test("publishing renews a token expiring within 5 minutes first, and leaves one with an hour left", async () => {
    const ch = await signedInChannel(3 * 60_000);
    const r = await renewBeforePublish(t.app, ch.id, "x");
    expect(r.kind).toBe("renewed");
    if (r.kind !== "renewed") return;
    const opened = JSON.parse(
      await t.app.keys.open(
        t.app.db,
        a.orgId,
        { table: "channels", row: ch.id, column: "secrets" },
        r.secrets,
      ),
    );
    expect(await auth.accountOf(opened.access_token)).toBe(ch.account);
    const hour = await signedInChannel(HOUR);
    const granted = auth.tokenAnswers.granted;
    expect((await renewBeforePublish(t.app, hour.id, "x")).kind).toBe("fresh");
    expect(auth.tokenAnswers.granted).toBe(granted);
    // Other networks' channels are not looked at.
    expect(await renewBeforePublish(t.app, "chan_00000000000000000000000000", "bluesky")).toEqual({
      kind: "fresh",
      secrets: null,
    });
  });

  test("a revoked grant makes the channel needs_reauth with channel.needs_reauth; so does a removed app, at renewal only", async () => {
    const revoked = await signedInChannel(HOUR);
    await auth.revokeGrants(revoked.account);
    const r = await renewToken(t.app, revoked.id, 7 * 24 * HOUR);
    expect(r.kind).toBe("refused");
    const row = await t.app.db
      .selectFrom("channels")
      .selectAll()
      .where("id", "=", revoked.id)
      .executeTakeFirstOrThrow();
    expect(row.status).toBe("needs_reauth");
    expect(row.status_note).toContain("invalid_grant");
    const events = await t.app.db
      .selectFrom("events")
      .select(["type", "data"])
      .where("type", "=", "channel.needs_reauth")
      .execute();
    expect(events.some((e) => e.data.includes(revoked.id))).toBe(true);

    // Removing the app leaves the channel working until its token needs renewal.
    const actor = await personActor(t.app, a.userId, a.orgId, true);
    const other = (
      await createApp(t.app, actor, {
        provider: "x",
        name: "Short-lived app",
        client_id: CLIENT.clientId,
        client_secret: CLIENT.clientSecret,
      })
    ).id;
    const viaOther = await signedInChannel(2 * 24 * HOUR, other);
    await deleteApp(t.app, actor, other);
    expect((await renewToken(t.app, viaOther.id, 5 * 60_000)).kind).toBe("fresh");
    const still = await t.app.db
      .selectFrom("channels")
      .selectAll()
      .where("id", "=", viaOther.id)
      .executeTakeFirstOrThrow();
    expect(still.status).toBe("active");
    const gone = await renewToken(t.app, viaOther.id, 7 * 24 * HOUR);
    expect(gone.kind).toBe("refused");
    if (gone.kind === "refused") expect(gone.message).toContain("was removed");
    const after = await t.app.db
      .selectFrom("channels")
      .selectAll()
      .where("id", "=", viaOther.id)
      .executeTakeFirstOrThrow();
    expect(after.status).toBe("needs_reauth");
  });
});
