// Publishing capacity is shared between orgs, and each network call is bounded in total time (issue 23, item 20).
// One org's twelve Mastodon servers answer a status a byte at a time and never finish (hostile servers, as the
// probe ran them); another org's post due meanwhile must publish at once. The trickling calls are cut at the
// publish deadline, the servers see the connections closed, and the targets are queued again (Mastodon is
// idempotent), never left publishing.
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { adapterFor } from "../../../src/platforms/adapter-registry.ts";
import { NoAnswer, networkRequest } from "../../../src/platforms/plumbing/http.ts";
import { pickFair } from "../../../src/queue/publish/share.ts";
import { startPublishWorker } from "../../../src/queue/publish/worker.ts";
import type { TestApp } from "../../helpers/app.ts";
import { describeEachDialect } from "../../helpers/db.ts";
import { type Tenant, tenant } from "../../helpers/factories.ts";
import { connectLive, networkApp } from "../../helpers/networks.ts";
import { type Trickler, trickler } from "../../helpers/trickle.ts";

setDefaultTimeout(60_000);

/** Waits (up to 2 s) until the servers see every trickling connection closed. */
async function closed(servers: Trickler[]): Promise<void> {
  const open = () => servers.reduce((n, s) => n + s.open(), 0);
  for (let i = 0; i < 100 && open() > 0; i++) await Bun.sleep(20);
  expect(open()).toBe(0);
}

describeEachDialect("fair publishing capacity", (dialect) => {
  let t: TestApp;
  let slow: Tenant;
  let other: Tenant;
  const servers: Trickler[] = [];
  beforeAll(async () => {
    t = await networkApp(dialect);
    slow = await tenant(t.app, "Slow Servers");
    other = await tenant(t.app, "Other Org");
    for (let i = 0; i < 12; i++) servers.push(trickler(`bot${i}`));
  });
  afterAll(async () => {
    await t.close();
    for (const s of servers) s.stop();
  });

  test("a trickling answer is cut at the call's total bound, classified as a timeout the network may have acted on", async () => {
    const started = performance.now();
    const err = await networkRequest(t.app, {
      method: "POST",
      url: `${servers[0]!.url}/api/v1/statuses`,
      headers: { authorization: `Bearer ${servers[0]!.token}` },
      json: { status: "x" },
      timeoutMs: 600,
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NoAnswer);
    expect((err as NoAnswer).sent).toBe("maybe_sent");
    expect((err as NoAnswer).message).toBe(
      `${new URL(servers[0]!.url).origin} began its answer but did not finish it within 600 ms`,
    );
    expect(performance.now() - started).toBeLessThan(1500);
    // The server had sent bytes the whole time: only a total bound ends this, an idle timeout never would.
    expect(servers[0]!.bytesSent()).toBeGreaterThan(2);
    await closed([servers[0]!]);
  });

  test("one org's slow servers never hold every slot: another org's due post publishes at once", async () => {
    const channels = [];
    for (const s of servers)
      channels.push((await connectLive(t, slow, "mastodon", { instance: s.url, access_token: s.token })).id);
    const w = startPublishWorker(t.app, { adapterFor, pollMs: 50, timeoutMs: 8000 });
    try {
      const many = await t.request("POST", "/v1/posts", {
        key: slow.liveKey,
        body: { brand: slow.brandId, content: { body: "Into the slow servers" }, channels },
      });
      expect(many.status).toBe(201);
      // Wait until the slow org's publishes hold their slots (ten of them: its share of the worker).
      for (let i = 0; i < 250 && servers.reduce((n, s) => n + s.open(), 0) < 10; i++) await Bun.sleep(20);
      expect(servers.reduce((n, s) => n + s.open(), 0)).toBe(10);

      const started = performance.now();
      const due = await t.request("POST", "/v1/posts", {
        key: other.testKey,
        body: { brand: other.brandId, content: { body: "Due now, elsewhere" } },
      });
      expect(due.status).toBe(201);
      let status = "";
      while (performance.now() - started < 6000) {
        status = (await t.request("GET", `/v1/posts/${due.body.id}`, { key: other.testKey })).body.status;
        if (status === "published") break;
        await Bun.sleep(20);
      }
      expect(status).toBe("published");
      // While every one of the slow org's calls is still open: it did not wait for one of them to give up (they
      // are cut at 8 s).
      expect(servers.reduce((n, s) => n + s.open(), 0)).toBe(10);
      expect(performance.now() - started).toBeLessThan(5000);
    } finally {
      await w.stop();
    }
    // Every trickling call was cut at the publish deadline; none is still open.
    await closed(servers);
    const targets = await t.app.db
      .selectFrom("post_targets")
      .select(["status", "error_message"])
      .where("org_id", "=", slow.orgId)
      .execute();
    expect(targets).toHaveLength(12);
    // Cut calls are retried (Mastodon takes an idempotency key), never left publishing.
    expect(targets.filter((x) => x.status === "queued").length).toBe(12);
    const attempts = await t.app.db
      .selectFrom("post_attempts")
      .select(["outcome", "error_message"])
      .where("org_id", "=", slow.orgId)
      .execute();
    expect(attempts.length).toBeGreaterThanOrEqual(10);
    for (const a of attempts) expect(a.outcome).not.toBe("running");
  });
});

test("claims take turns by org, fewest in flight first, and give no org more than its share", () => {
  const c = (id: string, org: string, channel = id) => ({ id, org_id: org, channel_id: channel });
  // Due order: four of A's, then B's and C's.
  const found = [c("a1", "A"), c("a2", "A"), c("a3", "A"), c("a4", "A"), c("b1", "B"), c("c1", "C")];
  expect(pickFair(found, 10).map((x) => x.id)).toEqual(["a1", "b1", "c1", "a2", "a3", "a4"]);
  const share = { inFlight: new Map([["A", 8]]), perOrg: 10 };
  expect(pickFair(found, 3, share).map((x) => x.id)).toEqual(["b1", "c1", "a1"]);
  expect(pickFair(found, 10, share).map((x) => x.id)).toEqual(["b1", "c1", "a1", "a2"]);
  // One target per channel, whatever the org.
  expect(pickFair([c("a1", "A", "ch"), c("b1", "B", "ch")], 10).map((x) => x.id)).toEqual(["a1"]);
  // One org alone keeps due order.
  expect(pickFair(found.slice(0, 4), 2).map((x) => x.id)).toEqual(["a1", "a2"]);
});
