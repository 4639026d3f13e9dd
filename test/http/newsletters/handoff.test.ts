// The hand-off (newsletters.handoff): one day before send_at (at once when sooner) each delivery becomes one
// scheduled campaign at its provider, exactly once: a provider 5xx and a connection cut after the provider stored
// the campaign leave a state that retries without a duplicate; a worker killed (SIGKILL) while Brevo holds its
// answer leaves one campaign, found again by its marker. Afterwards moving and canceling reach the provider; a
// partly handed-off issue refuses changes (issue_partly_sent); a running hand-off holds them (handoff_in_progress).
import { afterAll, beforeAll, expect, test } from "bun:test";
import { handOffDue } from "../../../src/domain/newsletters/handoff.ts";
import { readResults } from "../../../src/domain/newsletters/read-results.ts";
import { sandboxCampaigns as campaignStore } from "../../../src/domain/newsletters/sandbox-campaigns.ts";
import { FakeClock } from "../../../src/lib/clock.ts";
import { brevoMail } from "../../../src/platforms/mail/brevo.ts";
import { type TestApp, testApp } from "../../helpers/app.ts";
import { describeEachDialect } from "../../helpers/db.ts";
import { key, type Tenant, tenant } from "../../helpers/factories.ts";
import { type BrevoStandIn, startBrevo } from "../../stand-ins/brevo.ts";
import { expectClean } from "../../stand-ins/server.ts";

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;

describeEachDialect("newsletter hand-off", (dialect) => {
  let t: TestApp;
  let a: Tenant;
  let brevo: BrevoStandIn;
  let author: string;
  let authorLive: string;
  const clock = new FakeClock(Date.now());
  beforeAll(async () => {
    brevo = await startBrevo();
    t = await testApp(dialect, {
      clock,
      env: { SVC_ALLOW_PRIVATE_NETWORKS: "true", SVC_PROVIDER_ORIGINS: `brevo=${brevo.url}` },
    });
    a = await tenant(t.app);
    author = await key(t.app, a.orgId, { name: "author", scopes: ["newsletters:read", "newsletters:write"] });
    authorLive = await key(
      t.app,
      a.orgId,
      { name: "author", scopes: ["newsletters:read", "newsletters:write"] },
      true,
    );
    await post(`/v1/brands/${a.brandId}/email_theme`, { postal_address: "Acme Ltd, 1 Main Street, London" });
  });
  afterAll(async () => {
    brevo.stop();
    await t.close();
  });

  function post(path: string, body?: unknown, k = a.testKey) {
    return t.request("POST", path, { key: k, body: body ?? {} });
  }
  const at = (ms: number) => new Date(clock.now() + ms).toISOString();

  async function sandboxAccount(name: string, extra: Record<string, string> = {}) {
    const r = await post("/v1/mail_accounts", {
      brand: a.brandId,
      provider: "sandbox",
      from_name: "Acme",
      from_email: "news@acme.example",
      default_audiences: ["everyone"],
      fields: { account: name, ...extra },
    });
    expect(r.status).toBe(201);
    return r.body.id as string;
  }
  async function brevoAccount(email: string) {
    const acct = brevo.addAccount({ email, lists: ["All"] });
    const r = await post(
      "/v1/mail_accounts",
      {
        brand: a.brandId,
        provider: "brevo",
        from_name: "Acme",
        from_email: "news@acme.example",
        default_audiences: [String(acct.lists[0]!.id)],
        fields: { api_key: acct.apiKey },
      },
      a.liveKey,
    );
    expect(r.status).toBe(201);
    return { acct, id: r.body.id as string };
  }
  async function scheduled(accounts: string[], sendIn: number, k = author) {
    const d = await post(
      "/v1/newsletters",
      {
        brand: a.brandId,
        subject: "Hello",
        body: "Hi [there](https://acme.example/)",
        deliveries: accounts.map((m) => ({ mail_account: m })),
      },
      k,
    );
    expect(d.status).toBe(201);
    const s = await post(`/v1/newsletters/${d.body.id}/schedule`, { send_at: at(sendIn) }, k);
    expect(s.status).toBe(200);
    return d.body.id as string;
  }
  const issue = async (id: string, k = a.testKey) =>
    (await t.request("GET", `/v1/newsletters/${id}`, { key: k })).body;
  const sandboxCampaigns = (marker: string) =>
    t.app.db.selectFrom("sandbox_mail_campaigns").selectAll().where("marker", "=", marker).execute();

  test("sandbox: handed off one day before send_at, once; moving and canceling reach it; then sent", async () => {
    const m = await sandboxAccount("handoff");
    const id = await scheduled([m], 3 * DAY);
    await handOffDue(t.app);
    expect((await issue(id)).deliveries[0].status).toBe("queued");
    clock.advance(2 * DAY);
    await handOffDue(t.app);
    const handed = await issue(id);
    expect(handed.deliveries[0].status).toBe("handed_off");
    const marker = handed.deliveries[0].id;
    const [c] = await sandboxCampaigns(marker);
    expect(c).toMatchObject({
      status: "scheduled",
      send_at: Date.parse(handed.send_at),
      audiences: '["everyone"]',
    });
    expect(handed.deliveries[0].campaign_id).toBe(c!.id);
    await handOffDue(t.app);
    expect(await sandboxCampaigns(marker)).toHaveLength(1);

    const unschedule = await post(`/v1/newsletters/${id}/unschedule`, {}, author);
    expect([unschedule.status, unschedule.body.code]).toEqual([409, "issue_not_scheduled"]);
    const later = at(DAY + 30 * MIN);
    const moved = await post(`/v1/newsletters/${id}/schedule`, { send_at: later }, author);
    expect(moved.status).toBe(200);
    expect((await sandboxCampaigns(marker))[0]!.send_at).toBe(Date.parse(later));

    // A second issue goes out: once its time passes it is sent.
    const soon = await scheduled([m], 10 * MIN);
    await handOffDue(t.app);
    expect((await issue(soon)).deliveries[0].status).toBe("handed_off");
    clock.advance(11 * MIN);
    await handOffDue(t.app);
    const sent = await issue(soon);
    expect(sent.status).toBe("sent");
    expect(sent.deliveries[0].status).toBe("sent");
    // Results: read an hour after sending, then 1, 3, 7 and 30 days after; counts only.
    expect(sent.deliveries[0].results).toBeNull();
    expect(await readResults(t.app)).toBe(0);
    clock.advance(HOUR);
    expect(await readResults(t.app)).toBeGreaterThanOrEqual(1);
    const withResults = (await issue(soon)).deliveries[0].results;
    expect(withResults).toMatchObject({ sent: 1200, opens: 480, clicks: 96, unsubscribes: 6, bounces: 12 });
    expect(withResults.read_at).toBe(new Date(clock.now()).toISOString());
    expect(await readResults(t.app)).toBe(0);
    for (const day of [1, 3, 7, 30]) {
      clock.set(Date.parse(sent.send_at) + day * DAY);
      expect(await readResults(t.app)).toBeGreaterThanOrEqual(1);
    }
    clock.advance(400 * DAY);
    expect(await readResults(t.app)).toBe(0);
    const c2 = await post(`/v1/newsletters/${soon}/cancel`, {}, author);
    expect([c2.status, c2.body.code]).toEqual([409, "issue_not_cancelable"]);

    const canceled = await post(`/v1/newsletters/${id}/cancel`, {}, author);
    expect(canceled.body.status).toBe("canceled");
    expect((await sandboxCampaigns(marker))[0]!.status).toBe("canceled");
  });

  test("sandbox failure simulation: every hand-off fails, the delivery stays queued and is retried", async () => {
    const m = await sandboxAccount("down", { simulate_handoff: "unavailable" });
    const id = await scheduled([m], 10 * MIN);
    const run = await handOffDue(t.app);
    expect(run.retry).toBeGreaterThanOrEqual(1);
    const got = await issue(id);
    expect(got.status).toBe("scheduled");
    expect(got.deliveries[0]).toMatchObject({ status: "queued", campaign_id: null });
    expect(got.deliveries[0].error).toContain("simulate_handoff");
  });

  test("Brevo: a 5xx and a cut connection retry without a duplicate; partly handed off refuses changes", async () => {
    const one = await brevoAccount("one@client.example");
    const two = await brevoAccount("two@client.example");
    const id = await scheduled([one.id, two.id], 30 * MIN, authorLive);
    // The first create meets a 5xx (nothing stored), the second is stored and its answer cut off.
    brevo.fail("server_error", 1, (r) => r.method === "POST" && r.path === "/emailCampaigns");
    brevo.fail("reset_after_read", 1, (r) => r.method === "POST" && r.path === "/emailCampaigns");
    await handOffDue(t.app);
    let got = await issue(id, a.liveKey);
    expect(got.deliveries.map((d: { status: string }) => d.status)).toEqual(["queued", "queued"]);
    expect(one.acct.campaigns).toHaveLength(0);
    expect(two.acct.campaigns).toHaveLength(1);

    // Retried a minute later: the first is created, the second found by its marker.
    await handOffDue(t.app);
    expect(one.acct.campaigns).toHaveLength(0);
    clock.advance(MIN + 1000);
    brevo.fail("server_error", 1, (r) => r.method === "POST" && r.path === "/emailCampaigns");
    await handOffDue(t.app);
    got = await issue(id, a.liveKey);
    expect(got.deliveries.map((d: { status: string }) => d.status)).toEqual(["queued", "handed_off"]);
    expect(got.deliveries[1].campaign_id).toBe(String(two.acct.campaigns[0]!.id));
    expect(two.acct.campaigns).toHaveLength(1);

    // Half with the providers: changes wait.
    const move = await post(`/v1/newsletters/${id}/schedule`, { send_at: at(DAY) }, authorLive);
    expect([move.status, move.body.code]).toEqual([409, "issue_partly_sent"]);
    const cancel = await post(`/v1/newsletters/${id}/cancel`, {}, authorLive);
    expect([cancel.status, cancel.body.code]).toEqual([409, "issue_partly_sent"]);

    clock.advance(MIN + 1000);
    await handOffDue(t.app);
    got = await issue(id, a.liveKey);
    expect(got.deliveries.map((d: { status: string }) => d.status)).toEqual(["handed_off", "handed_off"]);
    expect(one.acct.campaigns).toHaveLength(1);
    expect(two.acct.campaigns).toHaveLength(1);
    expect(one.acct.campaigns[0]!.tag).toBe(got.deliveries[0].id);

    // Afterwards moving and canceling reach Brevo.
    const later = at(2 * DAY);
    expect((await post(`/v1/newsletters/${id}/schedule`, { send_at: later }, authorLive)).status).toBe(200);
    expect(one.acct.campaigns[0]!.scheduledAt).toBe(new Date(later).toISOString());
    expect(two.acct.campaigns[0]!.scheduledAt).toBe(new Date(later).toISOString());
    // Results are Brevo's global counts of the campaign (read by newsletters.read once sent).
    Object.assign(one.acct.campaigns[0]!.stats, {
      sent: 900,
      uniqueViews: 300,
      uniqueClicks: 40,
      unsubscriptions: 3,
      hardBounces: 4,
      softBounces: 5,
    });
    const creds = { settings: {}, secrets: { api_key: one.acct.apiKey } };
    const res = await brevoMail.results(t.app, creds, String(one.acct.campaigns[0]!.id), {
      accountId: one.id,
      sandbox: campaignStore(t.app),
    });
    expect(res).toEqual({
      kind: "ok",
      value: { sent: 900, opens: 300, clicks: 40, unsubscribes: 3, bounces: 9 },
    });
    expect((await post(`/v1/newsletters/${id}/cancel`, {}, authorLive)).body.status).toBe("canceled");
    expect([one.acct.campaigns[0]!.status, two.acct.campaigns[0]!.status]).toEqual([
      "suspended",
      "suspended",
    ]);
    expectClean(brevo);
  });

  test("a hand-off under way holds changes: handoff_in_progress", async () => {
    const b = await brevoAccount("slow@client.example");
    const id = await scheduled([b.id], 30 * MIN, authorLive);
    brevo.fail({ slowMs: 1500 }, 1, (r) => r.method === "POST" && r.path === "/emailCampaigns");
    const running = handOffDue(t.app);
    while (!b.acct.campaigns.length) await Bun.sleep(20);
    const move = await post(`/v1/newsletters/${id}/schedule`, { send_at: at(DAY) }, authorLive);
    expect([move.status, move.body.code]).toEqual([409, "handoff_in_progress"]);
    const un = await post(`/v1/newsletters/${id}/unschedule`, {}, authorLive);
    expect([un.status, un.body.code]).toEqual([409, "handoff_in_progress"]);
    await running;
    expect((await issue(id, a.liveKey)).deliveries[0].status).toBe("handed_off");
    expect(b.acct.campaigns).toHaveLength(1);
    expectClean(brevo);
  });

  test("kill test: a worker killed while Brevo holds its answer; exactly one campaign per delivery", async () => {
    // The child runs on the real clock: the fake one is put back to it, so both see the issue due.
    clock.set(Date.now());
    const one = await brevoAccount("kill1@client.example");
    const two = await brevoAccount("kill2@client.example");
    const id = await scheduled([one.id, two.id], 30 * MIN, authorLive);
    brevo.fail({ slowMs: 30_000 }, 1, (r) => r.method === "POST" && r.path === "/emailCampaigns");
    const proc = Bun.spawn(["bun", "test/e2e/newsletters-handoff-worker.ts"], {
      env: {
        ...process.env,
        SVC_DATABASE_URL: t.dbUrl,
        SVC_MASTER_KEYS: t.masterKeys,
        SVC_BASE_URL: "http://localhost:8080",
        SVC_LOG_LEVEL: "error",
        SVC_ALLOW_PRIVATE_NETWORKS: "true",
        SVC_PROVIDER_ORIGINS: `brevo=${brevo.url}`,
      },
      stdout: "pipe",
      stderr: "inherit",
    });
    // Brevo has stored the first campaign and holds its answer: the worker dies there.
    const deadline = Date.now() + 20_000;
    while (one.acct.campaigns.length === 0 && Date.now() < deadline) await Bun.sleep(20);
    expect(one.acct.campaigns).toHaveLength(1);
    proc.kill("SIGKILL");
    await proc.exited;
    let got = await issue(id, a.liveKey);
    expect(got.deliveries.map((d: { status: string }) => d.status)).toEqual(["queued", "queued"]);

    // Another run while the dead worker's lease lasts takes nothing; after it, the work is finished once.
    await handOffDue(t.app);
    expect(one.acct.campaigns.length + two.acct.campaigns.length).toBe(1);
    clock.advance(6 * MIN);
    await handOffDue(t.app);
    got = await issue(id, a.liveKey);
    expect(got.deliveries.map((d: { status: string }) => d.status)).toEqual(["handed_off", "handed_off"]);
    expect(one.acct.campaigns).toHaveLength(1);
    expect(two.acct.campaigns).toHaveLength(1);
    expect(got.deliveries[0].campaign_id).toBe(String(one.acct.campaigns[0]!.id));
    expectClean(brevo);
  }, 60_000);
});
