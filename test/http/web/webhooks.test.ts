// The webhooks pages in process: create (secret shown once, works as the endpoint's signing secret), edit, disable
// and enable, roll with an overlap, resend a delivery, delete; another org's and the other mode's endpoints look
// missing; a viewer reads but cannot change; a cross-site form changes nothing; markup renders as text.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { deliverDue } from "../../../src/queue/webhook-deliveries.ts";
import type { TestApp } from "../../helpers/app.ts";
import { TestBrowser, webApp } from "../../helpers/browser.ts";
import { describeEachDialect } from "../../helpers/db.ts";
import { member, tenant } from "../../helpers/factories.ts";
import { testEndpoint, testEvent } from "../../helpers/webhooks.ts";

const PASSWORD = "correct horse battery staple";
const MARKUP = `<img src=x onerror="alert(1)">&<b>`;
const form = (pairs: [string, string][]) => ({
  body: new URLSearchParams(pairs).toString(),
  headers: {
    "content-type": "application/x-www-form-urlencoded",
    "sec-fetch-site": "same-origin",
    origin: "http://localhost",
  },
});

describeEachDialect("dashboard webhooks", (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await webApp(dialect);
  });
  afterAll(() => t.close());

  test("create shows the secret once; edit, disable, enable, roll, resend, delete", async () => {
    const a = await tenant(t.app, "Hooks Org");
    const b = new TestBrowser(t);
    await b.signIn(a.email, PASSWORD);
    const empty = await b.get("/webhooks");
    expect(empty.status).toBe(200);
    expect(empty.html).toContain('id="webhooks-empty"');
    expect(empty.html).toContain('href="/webhooks"');

    const bad = await b.request(
      "POST",
      "/webhooks",
      form([
        ["_csrf", b.csrf],
        ["url", "ftp://example.com/x"],
        ["description", MARKUP],
      ]),
    );
    expect(bad.status).toBe(422);
    expect(bad.html).toContain('id="f-url-error"');
    expect(bad.html).not.toContain(MARKUP);
    expect((await t.request("GET", "/v1/webhook_endpoints", { key: a.testKey })).body.data).toHaveLength(0);

    const made = await b.request(
      "POST",
      "/webhooks",
      form([
        ["_csrf", b.csrf],
        ["url", "http://example.com/hook"],
        ["description", MARKUP],
        ["enabled_events", "post.created"],
        ["enabled_events", "post.failed"],
      ]),
    );
    expect(made.status).toBe(201);
    const secret = /id="webhook-secret-value">([^<]+)</.exec(made.html)?.[1];
    expect(secret).toStartWith("whsec_");
    expect(made.html).not.toContain(MARKUP);
    expect(made.html).toContain("&lt;img src=x onerror=&quot;alert(1)&quot;&gt;&amp;&lt;b&gt;");
    const [ep] = (await t.request("GET", "/v1/webhook_endpoints", { key: a.testKey })).body.data;
    expect(ep.enabled_events).toEqual(["post.created", "post.failed"]);
    expect(ep.livemode).toBe(false);
    // Shown once: the list and the endpoint's page never show it again.
    expect((await b.get("/webhooks")).html).not.toContain(secret!);
    const page = await b.get(`/webhooks/${ep.id}`);
    expect(page.status).toBe(200);
    expect(page.html).not.toContain(secret!);
    expect(page.html).toContain('id="deliveries-empty"');

    const edited = await b.request(
      "POST",
      `/webhooks/${ep.id}`,
      form([
        ["_csrf", b.csrf],
        ["url", "http://example.com/other"],
        ["description", "Orders"],
        ["enabled_events", "*"],
      ]),
    );
    expect(edited.status).toBe(303);
    let got = (await t.request("GET", `/v1/webhook_endpoints/${ep.id}`, { key: a.testKey })).body;
    expect(got.url).toBe("http://example.com/other");
    expect(got.enabled_events).toEqual(["*"]);

    const badEdit = await b.request(
      "POST",
      `/webhooks/${ep.id}`,
      form([
        ["_csrf", b.csrf],
        ["url", "http://user:pw@example.com/x"],
        ["description", "Orders"],
      ]),
    );
    expect(badEdit.status).toBe(422);
    expect(badEdit.html).toContain('id="f-url-error"');

    expect((await b.post(`/webhooks/${ep.id}/disable`, {})).status).toBe(303);
    got = (await t.request("GET", `/v1/webhook_endpoints/${ep.id}`, { key: a.testKey })).body;
    expect(got.status).toBe("disabled");
    expect((await b.get(`/webhooks/${ep.id}`)).html).toContain(">Enable<");
    expect((await b.post(`/webhooks/${ep.id}/enable`, {})).status).toBe(303);
    got = (await t.request("GET", `/v1/webhook_endpoints/${ep.id}`, { key: a.testKey })).body;
    expect(got.status).toBe("enabled");

    await b.get(`/webhooks/${ep.id}`);
    const rolled = await b.post(`/webhooks/${ep.id}/roll`, { overlap_hours: "1" });
    expect(rolled.status).toBe(200);
    const secret2 = /id="webhook-secret-value">([^<]+)</.exec(rolled.html)?.[1];
    expect(secret2).toStartWith("whsec_");
    expect(secret2).not.toBe(secret);

    await testEvent(t.app, a, { type: "post.created" });
    const withDelivery = await b.get(`/webhooks/${ep.id}`);
    const deliveryId = /id="delivery-(whdel_[A-Za-z0-9]+)"/.exec(withDelivery.html)?.[1];
    expect(deliveryId).toBeDefined();
    expect(withDelivery.html).toContain("post.created");
    const resent = await b.post(`/webhook-deliveries/${deliveryId}/resend`, {});
    expect(resent.status).toBe(303);
    expect(resent.location).toBe(`/webhooks/${ep.id}`);
    const audit = await t.request("GET", "/v1/audit_events", { key: a.testKey });
    expect(audit.body.data.map((x: { action: string }) => x.action)).toContain("webhook_delivery.resend");

    // A cross-site form changes nothing.
    const cross = await b.post(`/webhooks/${ep.id}/delete`, {}, { site: "cross-site" });
    expect(cross.status).toBe(403);
    expect((await t.request("GET", `/v1/webhook_endpoints/${ep.id}`, { key: a.testKey })).status).toBe(200);
    await b.get(`/webhooks/${ep.id}`);
    expect((await b.post(`/webhooks/${ep.id}/delete`, {})).status).toBe(303);
    expect((await t.request("GET", `/v1/webhook_endpoints/${ep.id}`, { key: a.testKey })).status).toBe(404);
  });

  test("another org's and the other mode's endpoints look missing; a viewer reads but cannot change", async () => {
    const a = await tenant(t.app);
    const other = await tenant(t.app);
    const theirs = await testEndpoint(t, other, { description: "theirs" });
    const live = await testEndpoint(t, a, { description: "live one" }, true);
    const b = new TestBrowser(t);
    await b.signIn(a.email, PASSWORD);
    expect((await b.get(`/webhooks/${theirs.id}`)).status).toBe(404);
    expect((await b.get(`/webhooks/${live.id}`)).status).toBe(404);
    expect((await b.get("/webhooks")).html).not.toContain("live one");
    await b.get("/webhooks");
    expect((await b.post(`/webhooks/${theirs.id}/delete`, {})).status).toBe(404);
    expect((await b.post(`/webhooks/${live.id}/disable`, {})).status).toBe(404);
    expect(
      (await t.request("GET", `/v1/webhook_endpoints/${theirs.id}`, { key: other.testKey })).body.status,
    ).toBe("enabled");
    // In live mode the live endpoint is there.
    await b.post("/mode", { livemode: "true" });
    expect((await b.get("/webhooks")).html).toContain("live one");
    expect((await b.get(`/webhooks/${live.id}`)).status).toBe(200);

    const mine = await testEndpoint(t, a, { description: "mine" });
    const email = `viewer-${Date.now()}@example.com`;
    await member(t.app, a.orgId, email, "viewer");
    const v = new TestBrowser(t);
    await v.signIn(email, PASSWORD);
    const seen = await v.get(`/webhooks/${mine.id}`);
    expect(seen.status).toBe(200);
    expect(seen.html).not.toContain('id="endpoint-actions"');
    expect(seen.html).not.toContain('id="endpoint-create"');
    expect((await v.post(`/webhooks/${mine.id}/delete`, {})).status).toBe(403);
    expect((await v.post("/webhooks", { url: "http://example.com/v" })).status).toBe(403);
  });

  test("a receiver's answer is shown as text in the delivery log", async () => {
    const receiver = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      fetch: () => new Response(`nope ${MARKUP}`, { status: 500 }),
    });
    const hooks = await webApp(dialect, { env: { SVC_ALLOW_PRIVATE_WEBHOOKS: "127.0.0.1" } });
    try {
      const a = await tenant(hooks.app);
      const ep = await testEndpoint(hooks, a, { url: `http://127.0.0.1:${receiver.port}/hook` });
      await testEvent(hooks.app, a, { type: "post.created" });
      expect(await deliverDue(hooks.app)).toBe(1);
      const b = new TestBrowser(hooks);
      await b.signIn(a.email, PASSWORD);
      const page = await b.get(`/webhooks/${ep.id}`);
      expect(page.html).toContain("HTTP 500");
      expect(page.html).not.toContain(MARKUP);
      expect(page.html).toContain("nope &lt;img src=x");
    } finally {
      await hooks.close();
      receiver.stop(true);
    }
  });
});
