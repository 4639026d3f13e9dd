// Meta's Marketing API against its stand-in (validated against Meta's AdAccount/AdsInsights node descriptions):
// connecting checks the token and reads the account's name and currency, ads.collect reads campaign insights per
// day (30 days, then 7; paged), spend in the currency's main unit becomes minor units (JPY has none), late
// corrections overwrite, and Meta's documented failures are classified: a revoked token (190) marks the account
// needs_reauth, throttling (17) and server errors (2) are retried, an unknown account (100/33) refuses the
// connection. Both databases.
import { afterAll, afterEach, beforeAll, beforeEach, expect, test } from "bun:test";
import { collectDueAdAccounts } from "../../../src/domain/ads/collect.ts";
import { FakeClock } from "../../../src/lib/clock.ts";
import type { TestApp } from "../../helpers/app.ts";
import { testApp } from "../../helpers/app.ts";
import { describeEachDialect } from "../../helpers/db.ts";
import { type Tenant, tenant } from "../../helpers/factories.ts";
import { type MetaAccount, type MetaStandIn, startMetaAds } from "../../stand-ins/meta-ads.ts";
import { expectClean } from "../../stand-ins/server.ts";

const DAY = 86_400_000;
const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

let meta: MetaStandIn;
beforeAll(async () => {
  meta = await startMetaAds();
});
afterAll(() => meta.stop());

describeEachDialect("Meta ads", (dialect) => {
  let t: TestApp;
  let a: Tenant;
  const clock = new FakeClock(Date.parse("2026-03-10T12:00:00Z"));
  beforeEach(async () => {
    clock.set(Date.parse("2026-03-10T12:00:00Z"));
    // The fake clock drives ads.collect's windows; the stand-in is reached through SVC_PROVIDER_ORIGINS.
    t = await testApp(dialect, {
      clock,
      env: { SVC_ALLOW_PRIVATE_NETWORKS: "true", SVC_PROVIDER_ORIGINS: `meta=${meta.url}` },
    });
    a = await tenant(t.app);
    meta.accounts.clear();
    meta.ranges.length = 0;
    meta.requests.length = 0;
    meta.runningPolls = 0;
    meta.failNextJob = false;
  });
  afterEach(async () => {
    expectClean(meta);
    await t.close();
  });

  /** An account with `campaigns` campaigns and figures for every day of the last 40. */
  function seed(id: string, currency: string, campaigns: number): MetaAccount {
    const acct: MetaAccount = {
      id,
      name: `Acme ${currency}`,
      currency,
      token: `EAAG${id}`,
      campaigns: Array.from({ length: campaigns }, (_, i) => ({ id: `2385${i}`, name: `Campaign ${i}` })),
      days: new Map(),
    };
    for (let d = 0; d < 40; d++)
      for (const [i, c] of acct.campaigns.entries()) {
        const spend =
          currency === "JPY"
            ? String(1000 + i * 10 + d)
            : `${10 + i}.${String((d * 7) % 100).padStart(2, "0")}`;
        acct.days.set(`${dayOf(clock.now() - d * DAY)}|${c.id}`, {
          spend,
          impressions: 100 + d,
          clicks: i + d,
        });
      }
    meta.accounts.set(id, acct);
    return acct;
  }
  const connect = (fields: Record<string, string>) =>
    t.request("POST", "/v1/ad_accounts", {
      key: a.liveKey,
      body: { brand: a.brandId, network: "meta", fields },
    });

  test("connecting: a wrong token, an unknown account and an outage are refused, nothing stored; the token is sealed", async () => {
    const acct = seed("act_1001", "USD", 2);
    const wrong = await connect({ ad_account_id: "1001", access_token: "EAAGnope" });
    expect([wrong.status, wrong.body.code, wrong.body.errors[0].detail.reason]).toEqual([
      422,
      "connect_failed",
      expect.stringContaining("Error validating access token"),
    ]);
    const unknown = await connect({ ad_account_id: "999", access_token: acct.token });
    expect([unknown.status, unknown.body.code]).toEqual([422, "connect_failed"]);
    meta.fail("server_error");
    const down = await connect({ ad_account_id: "1001", access_token: acct.token });
    expect([down.status, down.body.code]).toEqual([503, "provider_unavailable"]);
    expect(await t.app.db.selectFrom("ad_accounts").selectAll().execute()).toEqual([]);

    const ok = await connect({ ad_account_id: "1001", access_token: acct.token });
    expect(ok.status).toBe(201);
    expect(ok.body).toMatchObject({
      network: "meta",
      account_id: "act_1001",
      name: "Acme USD",
      currency: "USD",
      livemode: true,
    });
    expect(ok.body.settings).toEqual({ ad_account_id: "1001" });
    expect(JSON.stringify(ok.body)).not.toContain(acct.token);
    const row = await t.app.db.selectFrom("ad_accounts").selectAll().executeTakeFirstOrThrow();
    expect(row.secrets).not.toBeNull();
    expect(row.secrets!).not.toContain(acct.token);
    const again = await connect({ ad_account_id: "act_1001", access_token: acct.token });
    expect([again.status, again.body.code]).toEqual([409, "ad_account_connected"]);
  });

  test("ads.collect reads 30 days of campaign insights (paged), in minor units; then 7, overwriting corrections", async () => {
    const usd = seed("act_2002", "USD", 20);
    const jpy = seed("act_3003", "JPY", 1);
    const u = (await connect({ ad_account_id: "2002", access_token: usd.token })).body;
    await connect({ ad_account_id: "3003", access_token: jpy.token });
    expect(await collectDueAdAccounts(t.app)).toEqual({ read: 2, refused: 0, failed: 0 });
    const today = dayOf(clock.now());
    const since = dayOf(clock.now() - 29 * DAY);
    expect(meta.ranges[0]).toEqual({ since, until: today });
    // Each read is an asynchronous report run: started, polled until completed, then read in pages of 500
    // (30 days × 20 campaigns = 600 rows: two pages).
    const started = meta.requests.filter((r) => r.method === "POST" && r.path.endsWith("/insights"));
    expect(started.map((r) => r.path)).toEqual(["/v25.0/act_2002/insights", "/v25.0/act_3003/insights"]);
    expect(
      meta.requests.filter((r) => /^\/v25\.0\/\d+\/insights$/.test(r.path) && r.query.after).length,
    ).toBe(1);

    // Independently: Meta's decimal strings summed here, as cents (USD) and yen (JPY).
    const minor = (s: string, digits: number) => Math.round(Number(s) * 10 ** digits);
    const expectFor = (acct: MetaAccount, digits: number, from: string, to: string) => {
      let spend = 0;
      for (const [k, d] of acct.days) {
        const day = k.split("|")[0]!;
        if (day >= from && day <= to) spend += minor(d.spend, digits);
      }
      return spend;
    };
    const summary = await t.request("GET", `/v1/ads/summary?group_by=account&since=${since}&until=${today}`, {
      key: a.liveKey,
    });
    expect(summary.body.totals).toEqual([
      expect.objectContaining({ currency: "JPY", spend: expectFor(jpy, 0, since, today) }),
      expect.objectContaining({ currency: "USD", spend: expectFor(usd, 2, since, today) }),
    ]);
    const campaigns = await t.request("GET", `/v1/ads/summary?account=${u.id}&since=${since}`, {
      key: a.liveKey,
    });
    expect(campaigns.body.data).toHaveLength(20);
    expect(campaigns.body.data[0]).toMatchObject({
      campaign: "238519",
      campaign_name: "Campaign 19",
      account: u.id,
    });

    // Meta corrects yesterday; a day later the last 7 days are read again and the correction wins.
    const yesterday = dayOf(clock.now() - DAY);
    usd.days.set(`${yesterday}|23850`, { spend: "99.99", impressions: 1, clicks: 1 });
    clock.advance(DAY);
    expect((await collectDueAdAccounts(t.app)).read).toBe(2);
    expect(meta.ranges.at(-1)).toEqual({ since: dayOf(clock.now() - 6 * DAY), until: dayOf(clock.now()) });
    const fixed = await t.app.db
      .selectFrom("ad_daily")
      .select("spend")
      .where("account_id", "=", u.id)
      .where("day", "=", yesterday)
      .where("campaign_id", "=", "23850")
      .executeTakeFirstOrThrow();
    expect(Number(fixed.spend)).toBe(9999);
  });

  test("a report run still running is polled until it completes; a failed run is retried later", async () => {
    const acct = seed("act_5005", "GBP", 2);
    const r = (await connect({ ad_account_id: "5005", access_token: acct.token })).body;
    meta.failNextJob = true;
    expect((await collectDueAdAccounts(t.app)).failed).toBe(1);
    const got = (await t.request("GET", `/v1/ad_accounts/${r.id}`, { key: a.liveKey })).body;
    expect([got.status, Date.parse(got.next_collect_at) - clock.now()]).toEqual(["active", 3_600_000]);
    clock.advance(3_600_000);
    meta.runningPolls = 1;
    expect((await collectDueAdAccounts(t.app)).read).toBe(1);
    const polls = meta.requests.filter((q) => /^\/v25\.0\/\d+$/.test(q.path));
    // The failed run polled once; the next one twice (running, then completed).
    expect(polls).toHaveLength(3);
    expect(
      (await t.app.db.selectFrom("ad_daily").selectAll().where("account_id", "=", r.id).execute()).length,
    ).toBe(60);
  });

  test("documented failures: a revoked token marks needs_reauth; throttling and server errors are retried", async () => {
    const acct = seed("act_4004", "EUR", 1);
    const r = (await connect({ ad_account_id: "4004", access_token: acct.token })).body;
    meta.fail("rate_limited");
    expect(await collectDueAdAccounts(t.app)).toEqual({ read: 0, refused: 0, failed: 1 });
    let got = (await t.request("GET", `/v1/ad_accounts/${r.id}`, { key: a.liveKey })).body;
    expect([got.status, Date.parse(got.next_collect_at) - clock.now()]).toEqual(["active", 3_600_000]);
    clock.advance(3_600_000);
    meta.fail("server_error");
    expect((await collectDueAdAccounts(t.app)).failed).toBe(1);
    clock.advance(2 * 3_600_000);
    expect((await collectDueAdAccounts(t.app)).read).toBe(1);
    clock.advance(DAY);
    meta.fail("revoked");
    expect((await collectDueAdAccounts(t.app)).refused).toBe(1);
    got = (await t.request("GET", `/v1/ad_accounts/${r.id}`, { key: a.liveKey })).body;
    expect([got.status, got.status_note]).toEqual([
      "needs_reauth",
      expect.stringContaining("Session has expired"),
    ]);
    clock.advance(DAY);
    expect(await collectDueAdAccounts(t.app)).toEqual({ read: 0, refused: 0, failed: 0 });
  });
});
