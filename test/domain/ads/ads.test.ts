// Ad accounts end to end in test mode against the sandbox ad network: connecting (and every refusal, nothing
// stored), ads.collect reading 30 days first and re-reading 7 daily (late corrections overwrite), a refusing
// network marking the account needs_reauth and an outage retried, the summary checked against figures computed
// here from the sandbox's published formula, sealed credentials, and org and mode isolation. Both databases.
import { afterEach, beforeEach, expect, test } from "bun:test";
import { collectDueAdAccounts } from "../../../src/domain/ads/collect.ts";
import { FakeClock } from "../../../src/lib/clock.ts";
import { SANDBOX_CAMPAIGNS, sandboxAdDay } from "../../../src/platforms/ads/sandbox.ts";
import { type TestApp, testApp } from "../../helpers/app.ts";
import { describeEachDialect } from "../../helpers/db.ts";
import { key, type Tenant, tenant } from "../../helpers/factories.ts";
import { schemaErrors } from "../../helpers/schemas.ts";

const DAY = 86_400_000;
const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

describeEachDialect("ad accounts", (dialect) => {
  let t: TestApp;
  let a: Tenant;
  let clock: FakeClock;
  beforeEach(async () => {
    clock = new FakeClock(Date.parse("2026-03-10T12:00:00Z"));
    t = await testApp(dialect, { clock });
    a = await tenant(t.app);
  });
  afterEach(async () => {
    await t.close();
  });

  const connect = (body: unknown, k = a.testKey) => t.request("POST", "/v1/ad_accounts", { key: k, body });
  const count = async () =>
    Number(
      (
        await t.app.db
          .selectFrom("ad_accounts")
          .select((eb) => eb.fn.countAll().as("n"))
          .executeTakeFirstOrThrow()
      ).n,
    );

  test("networks are listed with their mode and connect fields", async () => {
    const r = await t.request("GET", "/v1/ad_networks", { key: a.testKey });
    expect(r.status).toBe(200);
    expect(r.body.data.map((n: { network: string; livemode: boolean }) => [n.network, n.livemode])).toEqual([
      ["sandbox", false],
      ["meta", true],
    ]);
    expect(schemaErrors("AdNetwork", r.body.data[1])).toBe("");
  });

  test("connecting refuses bad input with its code and stores nothing", async () => {
    const cases: [unknown, string, number, string?][] = [
      [{ brand: a.brandId, network: "tiktok" }, "network_unsupported", 422],
      [
        { brand: a.brandId, network: "meta", fields: { ad_account_id: "1", access_token: "x" } },
        "livemode_required",
        422,
      ],
      [{ brand: a.brandId, network: "sandbox", fields: { colour: "red" } }, "field_unknown", 422],
      [{ brand: a.brandId, network: "sandbox", fields: { simulate: "sometimes" } }, "connect_failed", 422],
      [{ brand: "brand_00000000000000000000000000", network: "sandbox" }, "resource_missing", 404],
    ];
    for (const [body, code, status] of cases) {
      const r = await connect(body);
      expect([r.status, r.body.code]).toEqual([status, code]);
    }
    const live = await connect({ brand: a.brandId, network: "sandbox" }, a.liveKey);
    expect([live.status, live.body.code]).toEqual([422, "testmode_required"]);
    const liveMeta = await connect({ brand: a.brandId, network: "meta" }, a.liveKey);
    expect([liveMeta.status, liveMeta.body.errors.map((e: { code: string }) => e.code)]).toEqual([
      422,
      ["field_required", "field_required"],
    ]);
    // ads:write is administrative: a key that lists only integration scopes lacks it.
    const reader = await key(t.app, a.orgId, { name: "reader", scopes: ["ads:read"] });
    const denied = await connect({ brand: a.brandId, network: "sandbox" }, reader);
    expect([denied.status, denied.body.code]).toEqual([403, "scope_missing"]);
    expect(await count()).toBe(0);

    const ok = await connect({
      brand: a.brandSlug,
      network: "sandbox",
      fields: { account_name: "Acme EU", currency: "EUR" },
    });
    expect(ok.status).toBe(201);
    expect(schemaErrors("AdAccount", ok.body)).toBe("");
    expect(ok.body).toMatchObject({
      network: "sandbox",
      account_id: "sbx-acme-eu",
      currency: "EUR",
      status: "active",
      livemode: false,
      collected_at: null,
    });
    const again = await connect({
      brand: a.brandId,
      network: "sandbox",
      fields: { account_name: "Acme EU" },
    });
    expect([again.status, again.body.code]).toEqual([409, "ad_account_connected"]);
    expect(await count()).toBe(1);
  });

  test("ads.collect reads 30 days, then re-reads 7 daily; the summary matches figures computed here", async () => {
    const acct = (await connect({ brand: a.brandId, network: "sandbox", fields: { account_name: "Main" } }))
      .body;
    expect(await collectDueAdAccounts(t.app)).toEqual({ read: 1, refused: 0, failed: 0 });
    // Not due again until a day has passed.
    expect((await collectDueAdAccounts(t.app)).read).toBe(0);
    const rows = await t.app.db.selectFrom("ad_daily").selectAll().execute();
    expect(rows).toHaveLength(30 * SANDBOX_CAMPAIGNS.length);
    const first = clock.now();
    const today = dayOf(first);
    const days = Array.from({ length: 30 }, (_, i) => dayOf(first - (29 - i) * DAY));
    expect([...new Set(rows.map((r) => r.day))].sort()).toEqual(days);

    // Independently: the sandbox's published formula, summed here per campaign.
    const expected = (now: number, readDays: string[][]) => {
      const by = new Map<string, number>();
      for (const [day, readAt] of readDays)
        for (let c = 0; c < 3; c++) {
          const d = sandboxAdDay("sbx-main", day!, c, Number(readAt));
          by.set(d.campaign_id, (by.get(d.campaign_id) ?? 0) + d.spend);
        }
      return [...by.entries()].sort((x, y) => y[1] - x[1]);
    };
    const summary = await t.request(
      "GET",
      `/v1/ads/summary?brand=${a.brandSlug}&since=${days[0]}&until=${today}`,
      {
        key: a.testKey,
      },
    );
    expect(summary.status).toBe(200);
    expect(schemaErrors("AdsSummary", summary.body)).toBe("");
    const want = expected(
      first,
      days.map((d) => [d, String(first)]),
    );
    expect(summary.body.data.map((r: { campaign: string; spend: number }) => [r.campaign, r.spend])).toEqual(
      want,
    );
    expect(summary.body.data[0].account).toBe(acct.id);
    expect(summary.body.totals).toEqual([
      {
        currency: "USD",
        spend: want.reduce((n, [, s]) => n + Number(s), 0),
        impressions: want.reduce((n, [, s]) => n + Number(s) * 3, 0),
        clicks: rows.reduce((n, r) => n + Number(r.clicks), 0),
      },
    ]);
    // Today was still growing when read.
    const todayRow = rows.find((r) => r.day === today && r.campaign_id === "sbx-main-c1")!;
    expect(Number(todayRow.spend)).toBe(sandboxAdDay("sbx-main", today, 0, first).spend);

    // A day later: only the last 7 days are read again, and the corrected figures overwrite.
    clock.advance(DAY);
    expect((await collectDueAdAccounts(t.app)).read).toBe(1);
    const after = await t.app.db.selectFrom("ad_daily").selectAll().execute();
    expect(after).toHaveLength(31 * 3);
    const second = clock.now();
    const corrected = after.find((r) => r.day === today && r.campaign_id === "sbx-main-c1")!;
    expect(Number(corrected.spend)).toBe(sandboxAdDay("sbx-main", today, 0, second).spend);
    expect(Number(corrected.spend)).toBeGreaterThan(Number(todayRow.spend));
    // A day 8 days back is not read again: it keeps the first read.
    const old = dayOf(second - 8 * DAY);
    const oldRow = after.find((r) => r.day === old && r.campaign_id === "sbx-main-c2")!;
    expect(Number(oldRow.spend)).toBe(sandboxAdDay("sbx-main", old, 1, first).spend);

    const byDay = await t.request(
      "GET",
      `/v1/ads/summary?group_by=day&since=${dayOf(second)}&until=${dayOf(second)}`,
      {
        key: a.testKey,
      },
    );
    const dayWant = [0, 1, 2].reduce(
      (n, c) => n + sandboxAdDay("sbx-main", dayOf(second), c, second).spend,
      0,
    );
    expect(byDay.body.data).toEqual([
      {
        day: dayOf(second),
        currency: "USD",
        spend: dayWant,
        impressions: dayWant * 3,
        clicks: expect.any(Number),
      },
    ]);
    const byAccount = await t.request("GET", `/v1/ads/summary?group_by=account&account=${acct.id}`, {
      key: a.testKey,
    });
    expect(byAccount.body.data.map((r: { account: string }) => r.account)).toEqual([acct.id]);
    const byBrand = await t.request("GET", "/v1/ads/summary?group_by=brand", { key: a.testKey });
    expect(byBrand.body.data.map((r: { brand: string }) => r.brand)).toEqual([a.brandId]);
  });

  test("a refusing network marks the account needs_reauth; an outage is retried later", async () => {
    const refused = (
      await connect({
        brand: a.brandId,
        network: "sandbox",
        fields: { account_name: "R", simulate: "refused" },
      })
    ).body;
    const down = (
      await connect({
        brand: a.brandId,
        network: "sandbox",
        fields: { account_name: "D", simulate: "unavailable" },
      })
    ).body;
    expect(await collectDueAdAccounts(t.app)).toEqual({ read: 0, refused: 1, failed: 1 });
    const r = (await t.request("GET", `/v1/ad_accounts/${refused.id}`, { key: a.testKey })).body;
    expect([r.status, r.status_note, r.next_collect_at]).toEqual([
      "needs_reauth",
      expect.stringContaining("revoked"),
      null,
    ]);
    const d = (await t.request("GET", `/v1/ad_accounts/${down.id}`, { key: a.testKey })).body;
    expect([d.status, Date.parse(d.next_collect_at) - clock.now()]).toEqual(["active", 3_600_000]);
    clock.advance(3_600_000);
    // Only the outage is tried again (needs_reauth waits for a person); its next wait doubles.
    expect(await collectDueAdAccounts(t.app)).toEqual({ read: 0, refused: 0, failed: 1 });
    const d2 = (await t.request("GET", `/v1/ad_accounts/${down.id}`, { key: a.testKey })).body;
    expect(Date.parse(d2.next_collect_at) - clock.now()).toBe(2 * 3_600_000);
    expect(await t.app.db.selectFrom("ad_daily").selectAll().execute()).toEqual([]);
  });

  test("summary windows and groups are checked", async () => {
    const bad: [string, string][] = [
      ["since=2025-01-01&until=2026-03-01", "window_invalid"],
      ["since=2026-03-02&until=2026-03-01", "window_invalid"],
      ["since=yesterday", "window_invalid"],
      ["group_by=mood", "group_by_invalid"],
    ];
    for (const [q, code] of bad) {
      const r = await t.request("GET", `/v1/ads/summary?${q}`, { key: a.testKey });
      expect([q, r.status, r.body.code]).toEqual([q, 422, code]);
    }
    const year = await t.request("GET", "/v1/ads/summary?since=2025-03-02&until=2026-03-01", {
      key: a.testKey,
    });
    expect(year.status).toBe(200);
    const unknown = await t.request("GET", "/v1/ads/summary?currency=USD", { key: a.testKey });
    expect([unknown.status, unknown.body.code]).toEqual([400, "parameter_unknown"]);
  });

  test("credentials are sealed; accounts and figures are isolated by org and mode; removing deletes the figures", async () => {
    const acct = (
      await connect({
        brand: a.brandId,
        network: "sandbox",
        fields: { account_name: "Sealed", simulate: "none" },
      })
    ).body;
    await collectDueAdAccounts(t.app);
    const b = await tenant(t.app);
    const path = `/v1/ad_accounts/${acct.id}`;
    for (const k of [b.testKey, a.liveKey]) {
      expect((await t.request("GET", path, { key: k })).status).toBe(404);
      expect((await t.request("DELETE", path, { key: k })).status).toBe(404);
      expect((await t.request("GET", "/v1/ad_accounts", { key: k })).body.data).toEqual([]);
      expect((await t.request("GET", "/v1/ads/summary", { key: k })).body.data).toEqual([]);
    }
    const other = await t.request("GET", `/v1/ads/summary?account=${acct.id}`, { key: b.testKey });
    expect(other.status).toBe(404);
    const list = await t.request("GET", "/v1/ad_accounts", { key: a.testKey });
    expect(list.body.data.map((x: { id: string }) => x.id)).toEqual([acct.id]);

    const del = await t.request("DELETE", path, { key: a.testKey });
    expect(del.body).toEqual({ id: acct.id, object: "ad_account", deleted: true });
    expect(await t.app.db.selectFrom("ad_daily").selectAll().execute()).toEqual([]);
    const audit = await t.app.db
      .selectFrom("audit_events")
      .select("action")
      .where("target", "=", acct.id)
      .execute();
    expect(audit.map((x) => x.action).sort()).toEqual(["ad_account.connect", "ad_account.remove"]);
  });
  test("a brand-limited key sees, connects and sums only its brand's accounts", async () => {
    const other = await t.request("POST", "/v1/brands", {
      key: a.testKey,
      body: { name: "Second", slug: "second" },
    });
    expect(other.status).toBe(201);
    const mine = (await connect({ brand: a.brandId, network: "sandbox", fields: { account_name: "First" } }))
      .body;
    const theirs = (
      await connect({ brand: other.body.id, network: "sandbox", fields: { account_name: "Second" } })
    ).body;
    await collectDueAdAccounts(t.app);
    const limited = await key(t.app, a.orgId, {
      name: "limited",
      scopes: ["ads:read", "ads:write"],
      brand: a.brandId,
    });
    const list = await t.request("GET", "/v1/ad_accounts", { key: limited });
    expect(list.body.data.map((x: { id: string }) => x.id)).toEqual([mine.id]);
    expect((await t.request("GET", `/v1/ad_accounts/${theirs.id}`, { key: limited })).status).toBe(404);
    const refused = await connect(
      { brand: "second", network: "sandbox", fields: { account_name: "Third" } },
      limited,
    );
    expect([refused.status, refused.body.code]).toEqual([404, "resource_missing"]);
    const sum = await t.request("GET", "/v1/ads/summary?group_by=account", { key: limited });
    expect(sum.body.data.map((r: { account: string }) => r.account)).toEqual([mine.id]);
  });
});
