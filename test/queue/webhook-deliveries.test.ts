// Webhook deliveries end to end against a real receiver on loopback: the outbox, signatures checked by the
// receiver's own code, failures and the retry schedule, timeouts, redirects, the address guard, secret rolls,
// the worker's concurrency, and the webhook tasks.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import type { App } from "../../src/app/context.ts";
import { recordEvent } from "../../src/domain/events/record.ts";
import { DELIVERY_TIMEOUT_MS } from "../../src/domain/webhooks/deliver.ts";
import { FakeClock } from "../../src/lib/clock.ts";
import { guardedRequest } from "../../src/net/guarded.ts";
import { tasks } from "../../src/queue/registry.ts";
import { eventsPrune } from "../../src/queue/tasks/events-prune.ts";
import { webhooksDisableFailing } from "../../src/queue/tasks/webhooks-disable-failing.ts";
import { webhooksReclaim } from "../../src/queue/tasks/webhooks-reclaim.ts";
import { ensureTaskRows, runTask } from "../../src/queue/tasks.ts";
import { claimDeliveries } from "../../src/queue/webhook-claim.ts";
import { DeliveryWorker, deliverDue } from "../../src/queue/webhook-deliveries.ts";
import { type TestApp, testApp } from "../helpers/app.ts";
import { dialects } from "../helpers/db.ts";
import { type Tenant, tenant } from "../helpers/factories.ts";
import { type Receiver, receiverVerifies, startReceiver } from "../helpers/receiver.ts";
import { schemaErrors } from "../helpers/schema.ts";
import { testEndpoint, testEvent } from "../helpers/webhooks.ts";

const MIN = 60_000;
let rx: Receiver;
let elsewhere: Receiver; // on 127.0.0.2, which the allow setting does not cover
beforeAll(() => {
  rx = startReceiver();
  elsewhere = startReceiver("127.0.0.2");
});
afterAll(() => {
  rx.stop();
  elsewhere.stop();
});

async function deliveriesOf(app: App, endpointId: string) {
  return app.db
    .selectFrom("webhook_deliveries")
    .selectAll()
    .where("endpoint_id", "=", endpointId)
    .orderBy("id")
    .execute();
}

let fire = 1;
async function run(app: App, task: (typeof tasks)[number]) {
  await ensureTaskRows(app, [task]);
  expect(await runTask(app, task, fire++)).toBe(true);
}

for (const dialect of dialects) {
  describe(`webhook deliveries (${dialect})`, () => {
    let t: TestApp;
    let a: Tenant;
    let clock: FakeClock;
    beforeAll(async () => {
      clock = new FakeClock(Date.now());
      t = await testApp(dialect, { clock, env: { SVC_ALLOW_PRIVATE_WEBHOOKS: "127.0.0.1" } });
      a = await tenant(t.app);
    });
    afterAll(() => t.close());
    // Each test starts with no endpoints, so one test's leftovers never reach another's receiver.
    beforeEach(async () => {
      await t.app.db.deleteFrom("webhook_endpoints").where("org_id", "=", a.orgId).execute();
    });

    const endpoint = (path: string, body: Record<string, unknown> = {}) =>
      testEndpoint(t, a, { url: `${rx.url}${path}`, ...body });

    test("the registry runs the webhook tasks and the delivery loop", async () => {
      const { workerLoops } = await import("../../src/queue/registry.ts");
      expect(tasks.map((x) => x.name)).toEqual(
        expect.arrayContaining(["webhooks.reclaim", "webhooks.disable_failing", "events.prune"]),
      );
      expect(workerLoops.map((l) => l.name)).toContain("webhooks.deliver");
    });

    test("outbox: one delivery per enabled, subscribed endpoint of the event's org and mode", async () => {
      const b = await tenant(t.app);
      const all = await endpoint("/ok");
      const published = await endpoint("/ok", { enabled_events: ["post.published"] });
      const off = await endpoint("/ok");
      await t.request("POST", `/v1/webhook_endpoints/${off.id}`, {
        key: a.testKey,
        body: { disabled: true },
      });
      const live = await testEndpoint(t, a, {}, true);
      const otherOrg = await testEndpoint(t, b, { url: `${rx.url}/ok` });

      const created = await testEvent(t.app, a, { type: "post.created" });
      const pub = await testEvent(t.app, a, { type: "post.published" });
      const liveEv = await testEvent(t.app, a, { type: "post.created", livemode: true });
      const eventsOf = async (id: string) => (await deliveriesOf(t.app, id)).map((d) => d.event_id);
      expect(await eventsOf(all.id)).toEqual([created.id, pub.id]);
      expect(await eventsOf(published.id)).toEqual([pub.id]);
      expect(await eventsOf(off.id)).toEqual([]);
      expect(await eventsOf(live.id)).toEqual([liveEv.id]);
      expect(await eventsOf(otherOrg.id)).toEqual([]);
      const d = (await deliveriesOf(t.app, all.id))[0]!;
      expect([d.status, d.attempts, d.event_type, d.next_attempt_at]).toEqual([
        "pending",
        0,
        "post.created",
        created.created_at,
      ]);

      // Written in the event's transaction: a change that rolls back leaves neither.
      await expect(
        t.app.db.transaction().execute(async (tx) => {
          await recordEvent(
            tx,
            t.app,
            { orgId: a.orgId, livemode: false, requestId: null },
            "post.failed",
            {},
          );
          throw new Error("the change failed");
        }),
      ).rejects.toThrow("the change failed");
      expect((await deliveriesOf(t.app, all.id)).map((x) => x.event_type)).not.toContain("post.failed");
      // Clean up so later tests deliver only their own.
      for (const id of [all.id, published.id, off.id, live.id])
        await t.request("DELETE", `/v1/webhook_endpoints/${id}`, {
          key: id === live.id ? a.liveKey : a.testKey,
        });
    });

    test("a delivery is a signed POST of the event; the receiver verifies it; any 2xx succeeds", async () => {
      rx.reset();
      const ep = await endpoint("/ok");
      const ev = await testEvent(t.app, a, { type: "post.published", object: { id: "post_1", text: "hé" } });
      expect(await deliverDue(t.app)).toBe(1);
      expect(rx.received).toHaveLength(1);
      const got = rx.received[0]!;
      const [d] = await deliveriesOf(t.app, ep.id);
      expect(got.headers.get("content-type")).toBe("application/json");
      expect(got.headers.get("user-agent")).toBe("svc-webhooks/1");
      expect(got.headers.get("svc-event-id")).toBe(ev.id);
      expect(got.headers.get("svc-delivery-id")).toBe(d!.id);
      const nowSec = Math.floor(clock.now() / 1000);
      expect(receiverVerifies(got.headers.get("svc-signature"), got.body, ep.secret, nowSec)).toBe(true);
      expect(receiverVerifies(got.headers.get("svc-signature"), got.body, "whsec_wrong", nowSec)).toBe(false);
      expect(receiverVerifies(got.headers.get("svc-signature"), `${got.body} `, ep.secret, nowSec)).toBe(
        false,
      );
      // Stale signatures are rejected by receivers after 5 minutes.
      expect(receiverVerifies(got.headers.get("svc-signature"), got.body, ep.secret, nowSec + 301)).toBe(
        false,
      );
      const viaApi = await t.request("GET", `/v1/events/${ev.id}`, { key: a.testKey });
      expect(JSON.parse(got.body)).toEqual(viaApi.body);
      expect(JSON.parse(got.body).data.object.text).toBe("hé");

      const list = await t.request("GET", `/v1/webhook_endpoints/${ep.id}/deliveries`, { key: a.testKey });
      expect(schemaErrors("WebhookDeliveryList", list.body)).toBeNull();
      expect(list.body.data[0]).toMatchObject({
        id: d!.id,
        event: ev.id,
        event_type: "post.published",
        status: "succeeded",
        attempts: 1,
        response_status: 200,
        response_body: "ok",
        error: null,
        next_attempt_at: null,
      });
      expect(list.body.data[0].duration_ms).toBeGreaterThanOrEqual(0);
      const attempts = await t.app.db
        .selectFrom("webhook_attempts")
        .selectAll()
        .where("delivery_id", "=", d!.id)
        .execute();
      expect(attempts.map((x) => [x.attempt, x.response_status, x.response_body])).toEqual([[1, 200, "ok"]]);
      await t.request("DELETE", `/v1/webhook_endpoints/${ep.id}`, { key: a.testKey });
    });

    test("failures log status and the first 1 KiB, retry on the schedule for up to 72 h, then fail", async () => {
      const ep = await endpoint("/fail");
      await testEvent(t.app, a);
      const delays: number[] = [];
      for (let i = 0; i < 30; i++) {
        const before = clock.now();
        expect(await deliverDue(t.app)).toBe(1);
        const [d] = await deliveriesOf(t.app, ep.id);
        expect(d!.response_status).toBe(500);
        expect(Buffer.byteLength(d!.response_body!)).toBeLessThanOrEqual(1024 + 2);
        expect(d!.response_body!.startsWith("\uFFFDaaa")).toBe(true);
        expect(d!.response_body!.length).toBe(1024);
        if (d!.status === "failed") break;
        expect(d!.status).toBe("pending");
        delays.push(Math.round((d!.next_attempt_at! - before) / MIN));
        clock.set(d!.next_attempt_at!);
      }
      expect(delays).toEqual([1, 5, 15, 30, 60, 120, 240, 480, 480, 480, 480, 480, 480, 480, 480]);
      const [d] = await deliveriesOf(t.app, ep.id);
      expect([d!.status, d!.attempts, d!.next_attempt_at]).toEqual(["failed", 16, null]);
      // The last attempt happened within 72 h of creation; the next would have been past it.
      expect(d!.last_attempt_at! - d!.created_at).toBeLessThanOrEqual(72 * 60 * MIN);
      expect(d!.last_attempt_at! + 480 * MIN - d!.created_at).toBeGreaterThan(72 * 60 * MIN);
      const logged = await t.app.db
        .selectFrom("webhook_attempts")
        .select("attempt")
        .where("delivery_id", "=", d!.id)
        .execute();
      expect(logged).toHaveLength(16);
      await t.request("DELETE", `/v1/webhook_endpoints/${ep.id}`, { key: a.testKey });
    });

    test("a receiver that does not answer in time fails the attempt with a timeout", async () => {
      expect(DELIVERY_TIMEOUT_MS).toBe(10_000);
      const ep = await endpoint("/slow?ms=3000");
      await testEvent(t.app, a);
      const started = performance.now();
      await deliverDue(t.app, { timeoutMs: 300 });
      expect(performance.now() - started).toBeLessThan(2500);
      const [d] = await deliveriesOf(t.app, ep.id);
      expect(d!.status).toBe("pending");
      expect(d!.response_status).toBeNull();
      expect(d!.error).toStartWith("timeout:");
      await t.request("DELETE", `/v1/webhook_endpoints/${ep.id}`, { key: a.testKey });
    });

    test("a redirect to a private address is not followed and reaches nothing", async () => {
      elsewhere.reset();
      const ep = await endpoint(`/redirect?to=${encodeURIComponent(`${elsewhere.url}/stolen`)}`);
      await testEvent(t.app, a);
      await deliverDue(t.app);
      const [d] = await deliveriesOf(t.app, ep.id);
      expect([d!.status, d!.response_status]).toEqual(["pending", 302]);
      expect(d!.error).toContain("do not follow redirects");
      expect(elsewhere.received).toHaveLength(0);
      // Were it followed, the guard would refuse the hop: 127.0.0.2 is outside the allow setting.
      await expect(
        guardedRequest({
          method: "POST",
          url: `${rx.url}/redirect?to=${encodeURIComponent(`${elsewhere.url}/stolen`)}`,
          allow: "127.0.0.1",
          followRedirects: true,
        }),
      ).rejects.toMatchObject({ kind: "blocked_address" });
      expect(elsewhere.received).toHaveLength(0);
      await t.request("DELETE", `/v1/webhook_endpoints/${ep.id}`, { key: a.testKey });
    });

    test("roll overlap: both secrets sign until the overlap ends, then only the new one", async () => {
      const ep = await endpoint("/ok");
      const rolled = await t.request("POST", `/v1/webhook_endpoints/${ep.id}/roll_secret`, {
        key: a.testKey,
        body: { overlap_hours: 1 },
      });
      const fresh = rolled.body.secret as string;
      rx.reset();
      const ev = await testEvent(t.app, a);
      await deliverDue(t.app);
      const one = rx.received[0]!;
      const sig = one.headers.get("svc-signature")!;
      expect(sig.split(",").filter((p) => p.startsWith("v1="))).toHaveLength(2);
      const now = () => Math.floor(clock.now() / 1000);
      expect(receiverVerifies(sig, one.body, ep.secret, now())).toBe(true);
      expect(receiverVerifies(sig, one.body, fresh, now())).toBe(true);

      clock.advance(61 * MIN);
      const [d] = await deliveriesOf(t.app, ep.id);
      expect(d!.event_id).toBe(ev.id);
      const resend = await t.request("POST", `/v1/webhook_deliveries/${d!.id}/resend`, { key: a.testKey });
      expect([resend.status, resend.body.status]).toEqual([202, "pending"]);
      expect(schemaErrors("WebhookDelivery", resend.body)).toBeNull();
      await deliverDue(t.app);
      const two = rx.received[1]!;
      const sig2 = two.headers.get("svc-signature")!;
      expect(sig2.split(",").filter((p) => p.startsWith("v1="))).toHaveLength(1);
      expect(receiverVerifies(sig2, two.body, ep.secret, now())).toBe(false);
      expect(receiverVerifies(sig2, two.body, fresh, now())).toBe(true);
      const [after] = await deliveriesOf(t.app, ep.id);
      expect([after!.status, after!.attempts]).toEqual(["succeeded", 2]);
      await t.request("DELETE", `/v1/webhook_endpoints/${ep.id}`, { key: a.testKey });
    });

    test("the worker keeps up to 20 deliveries in flight and delivers every one", async () => {
      const ep = await endpoint("/slow?ms=151");
      rx.reset();
      // All 45 are due before the worker starts, so it has more than 20 to take at once whatever the machine's speed.
      for (let i = 0; i < 45; i++) await testEvent(t.app, a);
      const worker = new DeliveryWorker(t.app, { pollMs: 50 }).start();
      try {
        const deadline = Date.now() + 15_000;
        let done = 0;
        while (Date.now() < deadline) {
          done = (await deliveriesOf(t.app, ep.id)).filter((d) => d.status === "succeeded").length;
          if (done === 45) break;
          await Bun.sleep(50);
        }
        expect(done).toBe(45);
      } finally {
        await worker.stop();
      }
      expect(rx.received).toHaveLength(45);
      expect(rx.maxConcurrent.get("/slow?ms=151")).toBe(20);
      await t.request("DELETE", `/v1/webhook_endpoints/${ep.id}`, { key: a.testKey });
    });

    test("a suspended org's deliveries wait and go out once it is active again", async () => {
      const ep = await endpoint("/ok");
      rx.reset();
      await testEvent(t.app, a);
      await t.app.db.updateTable("orgs").set({ status: "suspended" }).where("id", "=", a.orgId).execute();
      try {
        expect(await claimDeliveries(t.app, 20)).toEqual([]);
        await deliverDue(t.app);
        expect(rx.received).toHaveLength(0);
        expect((await deliveriesOf(t.app, ep.id)).map((d) => d.status)).toEqual(["pending"]);
      } finally {
        await t.app.db.updateTable("orgs").set({ status: "active" }).where("id", "=", a.orgId).execute();
      }
      await deliverDue(t.app);
      expect((await deliveriesOf(t.app, ep.id)).map((d) => d.status)).toEqual(["succeeded"]);
      await t.request("DELETE", `/v1/webhook_endpoints/${ep.id}`, { key: a.testKey });
    });

    test("webhooks.reclaim logs a lost worker's attempt and schedules the delivery again", async () => {
      const ep = await endpoint("/ok");
      await testEvent(t.app, a);
      const claimed = await claimDeliveries(t.app, 20);
      expect(claimed.map((c) => c.status)).toEqual(["delivering"]);
      await run(t.app, webhooksReclaim); // lease still running: untouched
      expect((await deliveriesOf(t.app, ep.id))[0]!.status).toBe("delivering");
      clock.advance(61_000);
      await run(t.app, webhooksReclaim);
      const [d] = await deliveriesOf(t.app, ep.id);
      expect([d!.status, d!.attempts, d!.lease_owner]).toEqual(["pending", 1, null]);
      expect(d!.error).toStartWith("worker_lost");
      expect(d!.next_attempt_at).toBe(clock.now() + MIN);
      clock.advance(MIN);
      await deliverDue(t.app);
      expect((await deliveriesOf(t.app, ep.id))[0]!.status).toBe("succeeded");
      await t.request("DELETE", `/v1/webhook_endpoints/${ep.id}`, { key: a.testKey });
    });

    test("webhooks.disable_failing: 72 h of failures disables the endpoint, tells the others, audits", async () => {
      const failing = await endpoint("/fail");
      const watcher = await endpoint("/ok", { enabled_events: ["webhook_endpoint.disabled"] });
      await testEvent(t.app, a);
      await deliverDue(t.app);
      const since = clock.now();
      clock.set(since + 71 * 60 * MIN);
      await run(t.app, webhooksDisableFailing);
      expect(
        (await t.request("GET", `/v1/webhook_endpoints/${failing.id}`, { key: a.testKey })).body.status,
      ).toBe("enabled");
      clock.set(since + 72 * 60 * MIN + 1);
      await run(t.app, webhooksDisableFailing);
      const ep = await t.request("GET", `/v1/webhook_endpoints/${failing.id}`, { key: a.testKey });
      expect([ep.body.status, ep.body.disabled_reason]).toEqual(["disabled", "failing"]);
      const events = await t.request("GET", "/v1/events?type=webhook_endpoint.disabled", { key: a.testKey });
      expect(events.body.data).toHaveLength(1);
      expect(events.body.data[0].data.object).toMatchObject({ id: failing.id, status: "disabled" });
      // The disabled endpoint gets no delivery of it; the watcher does.
      const toFailing = await deliveriesOf(t.app, failing.id);
      expect(toFailing.map((d) => d.event_type)).toEqual(["post.created"]);
      rx.reset();
      await deliverDue(t.app);
      expect(rx.received.map((r) => JSON.parse(r.body).type)).toEqual(["webhook_endpoint.disabled"]);
      expect((await deliveriesOf(t.app, watcher.id))[0]!.status).toBe("succeeded");
      const audit = await t.request("GET", "/v1/audit_events?limit=100", { key: a.testKey });
      const row = audit.body.data.find(
        (e: { action: string; target: string }) =>
          e.action === "webhook_endpoint.disable" && e.target === failing.id,
      );
      expect(row.detail.reason).toBe("failing");
      // Enabling again starts a fresh count.
      const on = await t.request("POST", `/v1/webhook_endpoints/${failing.id}`, {
        key: a.testKey,
        body: { disabled: false },
      });
      expect(on.body.status).toBe("enabled");
      const fresh = await t.app.db
        .selectFrom("webhook_endpoints")
        .select("failing_since")
        .where("id", "=", failing.id)
        .executeTakeFirstOrThrow();
      expect(fresh.failing_since).toBeNull();
      for (const id of [failing.id, watcher.id])
        await t.request("DELETE", `/v1/webhook_endpoints/${id}`, { key: a.testKey });
    });

    test("a success ends the failure streak", async () => {
      const ep = await endpoint("/fail");
      await testEvent(t.app, a);
      await deliverDue(t.app);
      const streak = async () =>
        (
          await t.app.db
            .selectFrom("webhook_endpoints")
            .select("failing_since")
            .where("id", "=", ep.id)
            .executeTakeFirstOrThrow()
        ).failing_since;
      expect(await streak()).toBe(clock.now());
      await t.request("POST", `/v1/webhook_endpoints/${ep.id}`, {
        key: a.testKey,
        body: { url: `${rx.url}/ok` },
      });
      clock.advance(2 * MIN);
      await deliverDue(t.app);
      expect(await streak()).toBeNull();
      await t.request("DELETE", `/v1/webhook_endpoints/${ep.id}`, { key: a.testKey });
    });

    test("events.prune drops events and deliveries older than 30 days", async () => {
      const ep = await endpoint("/ok");
      const old = await testEvent(t.app, a);
      clock.advance(31 * 24 * 60 * MIN);
      const recent = await testEvent(t.app, a);
      await run(t.app, eventsPrune);
      expect((await t.request("GET", `/v1/events/${old.id}`, { key: a.testKey })).status).toBe(404);
      expect((await t.request("GET", `/v1/events/${recent.id}`, { key: a.testKey })).status).toBe(200);
      expect((await deliveriesOf(t.app, ep.id)).map((d) => d.event_id)).toEqual([recent.id]);
      await t.request("DELETE", `/v1/webhook_endpoints/${ep.id}`, { key: a.testKey });
    });
  });

  describe(`the address guard without SVC_ALLOW_PRIVATE_WEBHOOKS (${dialect})`, () => {
    test("a hostname resolving to 127.0.0.1 is refused at connection time, naming the setting", async () => {
      const t = await testApp(dialect);
      try {
        const a = await tenant(t.app);
        rx.reset();
        // Creation refuses localhost now; a name whose answer changed since it was saved (DNS rebinding) is
        // what the connection-time check still stops.
        const ep = await testEndpoint(t, a);
        await t.app.db
          .updateTable("webhook_endpoints")
          .set({ url: `http://localhost:${rx.port}/ok` })
          .where("id", "=", ep.id)
          .execute();
        await testEvent(t.app, a);
        await deliverDue(t.app);
        const [d] = await deliveriesOf(t.app, ep.id);
        expect([d!.status, d!.response_status]).toEqual(["pending", null]);
        expect(d!.error).toStartWith("blocked_address:");
        expect(d!.error).toContain("resolves to a non-public address (loopback)");
        expect(d!.error).toContain("SVC_ALLOW_PRIVATE_WEBHOOKS");
        expect(rx.received).toHaveLength(0);
      } finally {
        await t.close();
      }
    });
  });
}
