// The report's newsletters section: the brand's issues that went out in the period, with the counts their
// providers reported summed over each issue's mail accounts, beside the previous period; computed again here from
// what was seeded. Issues of another brand, of the other mode, not sent, or outside both periods do not count. A key
// without newsletters:read sees null. Both databases.
import { afterEach, beforeEach, expect, test } from "bun:test";
import type { IssueStatus } from "../../../src/db/tables/newsletters.ts";
import { FakeClock } from "../../../src/lib/clock.ts";
import { newId } from "../../../src/lib/ids.ts";
import { type TestApp, testApp } from "../../helpers/app.ts";
import { describeEachDialect } from "../../helpers/db.ts";
import { key, type Tenant, tenant } from "../../helpers/factories.ts";
import { schemaErrors } from "../../helpers/schema.ts";

// March 2026 in UTC, and February before it (28 days: the previous period is the 31 days before 1 March).
const SINCE = Date.parse("2026-03-01T00:00:00Z");
const UNTIL = Date.parse("2026-04-01T00:00:00Z");
const PREV = SINCE - (UNTIL - SINCE);

describeEachDialect("report: newsletters section", (dialect) => {
  let t: TestApp;
  let a: Tenant;
  const clock = new FakeClock(Date.parse("2026-04-10T12:00:00Z"));
  beforeEach(async () => {
    t = await testApp(dialect, { clock });
    a = await tenant(t.app);
    const r = await t.request("POST", `/v1/brands/${a.brandId}`, {
      key: a.testKey,
      body: { timezone: "UTC" },
    });
    expect(r.status).toBe(200);
  });
  afterEach(async () => {
    await t.close();
  });

  let accounts = 0;
  async function mailAccount(brandId: string): Promise<string> {
    const r = await t.request("POST", "/v1/mail_accounts", {
      key: a.testKey,
      body: {
        brand: brandId,
        provider: "sandbox",
        from_name: "News",
        from_email: "news@example.com",
        fields: { account: `report-${++accounts}` },
      },
    });
    expect(r.status).toBe(201);
    return r.body.id;
  }

  type Results = { sent: number; opens: number; clicks: number; unsubscribes: number; bounces: number };
  /** An issue as newsletters.handoff and newsletters.read leave it: its deliveries, each with its results. */
  async function issue(o: {
    brandId?: string;
    livemode?: boolean;
    status?: IssueStatus;
    sendAt: number;
    subject: string;
    deliveries: { account: string; results: Results | null }[];
  }): Promise<string> {
    const id = newId("nl");
    const now = clock.now();
    const livemode = o.livemode ? 1 : 0;
    await t.app.db
      .insertInto("newsletters")
      .values({
        id,
        org_id: a.orgId,
        livemode,
        brand_id: o.brandId ?? a.brandId,
        status: (o.status ?? "sent") as IssueStatus,
        subject: o.subject,
        preview_text: "",
        body: "Hello",
        send_at: o.sendAt,
        handoff_due_at: null,
        handoff_lease_until: null,
        approval_required: 0,
        reviewed_by: null,
        reviewed_by_key: null,
        reviewed_at: null,
        review_note: null,
        created_by_user: null,
        created_by_key: null,
        created_at: now,
        updated_at: now,
      })
      .execute();
    let position = 0;
    for (const d of o.deliveries)
      await t.app.db
        .insertInto("newsletter_deliveries")
        .values({
          id: newId("nldel"),
          newsletter_id: id,
          org_id: a.orgId,
          livemode,
          mail_account_id: d.account,
          position: position++,
          audiences: "[]",
          status: "sent",
          campaign_id: `campaign-${position}`,
          handoff_started_at: o.sendAt - 86400_000,
          error: null,
          results: d.results ? JSON.stringify(d.results) : null,
          results_next_at: null,
          created_at: now,
          updated_at: now,
        })
        .execute();
    return id;
  }

  const res = (n: number): Results => ({
    sent: 1000 * n,
    opens: 400 * n,
    clicks: 50 * n,
    unsubscribes: 2 * n,
    bounces: 3 * n,
  });

  test("issues sent in the month and the month before, their providers' counts summed per issue", async () => {
    const m1 = await mailAccount(a.brandId);
    const m2 = await mailAccount(a.brandId);
    const march = await issue({
      sendAt: SINCE,
      subject: "March <b>news</b>",
      deliveries: [
        { account: m1, results: res(1) },
        { account: m2, results: res(2) },
      ],
    });
    // Sent through one of its two accounts; the other's results are not read yet.
    const partly = await issue({
      sendAt: UNTIL - 1,
      status: "partially_sent",
      subject: "Late March",
      deliveries: [
        { account: m1, results: res(5) },
        { account: m2, results: null },
      ],
    });
    await issue({ sendAt: PREV, subject: "February", deliveries: [{ account: m1, results: res(4) }] });
    // None of these count: not sent yet, the period's end, before the previous period, another brand.
    await issue({ sendAt: SINCE + 86400_000, status: "scheduled", subject: "x", deliveries: [] });
    await issue({ sendAt: UNTIL, subject: "x", deliveries: [{ account: m1, results: res(100) }] });
    await issue({ sendAt: PREV - 1, subject: "x", deliveries: [{ account: m1, results: res(100) }] });
    const other = await t.request("POST", "/v1/brands", {
      key: a.testKey,
      body: { name: "Other", slug: "other-news", timezone: "UTC" },
    });
    const m3 = await mailAccount(other.body.id);
    await issue({
      brandId: other.body.id,
      sendAt: SINCE,
      subject: "x",
      deliveries: [{ account: m3, results: res(100) }],
    });

    const r = await t.request("GET", `/v1/reports?brand=${a.brandSlug}&month=2026-03`, { key: a.testKey });
    expect(r.status).toBe(200);
    expect(schemaErrors("Report", r.body)).toBeNull();
    const n = r.body.sections.newsletters;
    const figure = (f: keyof Results) => ({ value: res(1)[f] + res(2)[f] + res(5)[f], previous: res(4)[f] });
    expect(n.issues).toEqual({ value: 2, previous: 1 });
    for (const f of ["sent", "opens", "clicks", "unsubscribes", "bounces"] as const)
      expect(n[f]).toEqual(figure(f));
    expect(n.list.map((x: { id: string }) => x.id)).toEqual([march, partly]);
    expect(n.list[0]).toEqual({
      id: march,
      subject: "March <b>news</b>",
      send_at: new Date(SINCE).toISOString(),
      ...res(3),
    });
  });

  test("null when the brand sent nothing in either period, and for a key without newsletters:read", async () => {
    const empty = await t.request("GET", `/v1/reports?brand=${a.brandSlug}&month=2026-03`, {
      key: a.testKey,
    });
    expect(empty.body.sections.newsletters).toBeNull();
    const m1 = await mailAccount(a.brandId);
    await issue({ sendAt: SINCE, subject: "March", deliveries: [{ account: m1, results: res(1) }] });
    const reader = await key(t.app, a.orgId, { name: "reader", scopes: ["brands:read", "posts:read"] });
    const r = await t.request("GET", `/v1/reports?brand=${a.brandSlug}&month=2026-03`, { key: reader });
    expect(r.status).toBe(200);
    expect(r.body.sections.newsletters).toBeNull();
    const full = await t.request("GET", `/v1/reports?brand=${a.brandSlug}&month=2026-03`, { key: a.testKey });
    expect(full.body.sections.newsletters.issues).toEqual({ value: 1, previous: 0 });
  });
});
