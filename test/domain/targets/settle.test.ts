// Settling uncertain outcomes for a network that does not dedupe but lets svc look for the post (`find`): a small
// stateful network in the test keeps what it was sent, can lose its answers, and answers look-ups after a
// consistency window. Found -> published; not found after the window -> queued again and sent once; a look-up
// that fails -> needs_attention as before; a worker that died mid-publish -> reclaimed, looked for, not resent.
// Each decision is on the attempt. Both databases.
import { afterEach, beforeEach, expect, test } from "bun:test";
import { FakeClock } from "../../../src/lib/clock.ts";
import type { Adapter } from "../../../src/platforms/adapter.ts";
import { adapterFor as registry } from "../../../src/platforms/adapter-registry.ts";
import { claimTargets } from "../../../src/queue/publish/claim.ts";
import { startPublishWorker } from "../../../src/queue/publish/worker.ts";
import { reclaimExpired } from "../../../src/queue/tasks/publish-reclaim.ts";
import { type TestApp, testApp } from "../../helpers/app.ts";
import { describeEachDialect } from "../../helpers/db.ts";
import { type Tenant, tenant } from "../../helpers/factories.ts";

/** A network that keeps posts by target; `loseAnswer` drops the next answer after storing (or not storing). */
function network() {
  const posts = new Map<string, { text: string; at: number }[]>();
  const state = { loseAnswer: null as null | "after_store" | "before_store", findFails: false, publishes: 0 };
  const adapter: Adapter = {
    provider: "sandbox",
    idempotent: false,
    consistencyWindowMs: 50,
    async publish(_app, input) {
      state.publishes++;
      const lose = state.loseAnswer;
      state.loseAnswer = null;
      if (lose !== "before_store")
        posts.set(input.targetId, [
          ...(posts.get(input.targetId) ?? []),
          { text: input.parts[0]!.text, at: Date.now() },
        ]);
      if (lose) return { kind: "uncertain", message: "connection reset after sending" };
      return { kind: "published", permalink: `https://net.example/${input.targetId}` };
    },
    async find(_app, input) {
      if (state.findFails) return { kind: "unknown", message: "the network's search is down" };
      const found = posts.get(input.targetId);
      if (!found?.length) return { kind: "not_found" };
      const url = `https://net.example/${input.targetId}`;
      return {
        kind: "found",
        permalink: url,
        parts: [{ index: 0, remote_id: input.targetId, remote_url: url }],
      };
    },
  };
  return { posts, state, adapter };
}

describeEachDialect("settling uncertain outcomes", (dialect) => {
  let t: TestApp;
  let a: Tenant;
  let net: ReturnType<typeof network>;
  const clock = new FakeClock(Date.now());
  const adapters = (p: string) => (p === "sandbox" ? net.adapter : registry(p));
  beforeEach(async () => {
    t = await testApp(dialect, { clock });
    a = await tenant(t.app);
    net = network();
  });
  afterEach(async () => {
    await t.close();
  });
  async function post(body: string) {
    const r = await t.request("POST", "/v1/posts", {
      key: a.testKey,
      body: { brand: a.brandId, content: { body } },
    });
    expect(r.status).toBe(201);
    return r.body.targets[0].id as string;
  }
  async function runOnce() {
    const w = startPublishWorker(t.app, { adapterFor: adapters, pollMs: 20 });
    // Until nothing is being published and nothing due waits to be claimed (a loaded machine may take a while
    // to make the first claim).
    for (let i = 0; i < 250; i++) {
      await Bun.sleep(20);
      await w.idle();
      const busy = await t.app.db
        .selectFrom("post_targets")
        .select("id")
        .where((eb) =>
          eb.or([
            eb("status", "=", "publishing"),
            eb.and([eb("status", "=", "queued"), eb("next_attempt_at", "<=", t.app.clock.now())]),
          ]),
        )
        .execute();
      if (busy.length === 0) break;
    }
    await w.stop();
  }
  const target = async (id: string) =>
    t.app.db.selectFrom("post_targets").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
  const attempts = async (id: string) =>
    (await t.request("GET", `/v1/post_targets/${id}/attempts`, { key: a.testKey })).body.data;

  test("the network took it but the answer was lost: found, published once", async () => {
    const id = await post("Answer lost");
    net.state.loseAnswer = "after_store";
    await runOnce();
    const row = await target(id);
    expect(row.status).toBe("published");
    expect(row.permalink).toBe(`https://net.example/${id}`);
    const [first] = await attempts(id);
    expect(first.outcome).toBe("published");
    expect(first.settlement.decision).toBe("found");
    expect(first.settlement.uncertain).toBe("connection reset after sending");
    expect(net.posts.get(id)).toHaveLength(1);
  });

  test("the network never got it: not found after the window, queued again, sent once", async () => {
    const id = await post("Never arrived");
    net.state.loseAnswer = "before_store";
    await runOnce();
    let row = await target(id);
    expect(row.status).toBe("queued");
    const [first] = await attempts(id);
    expect(first.outcome).toBe("transient");
    expect(first.settlement.decision).toBe("not_found");
    clock.advance(60_000);
    await runOnce();
    row = await target(id);
    expect(row.status).toBe("published");
    expect(net.posts.get(id)).toHaveLength(1);
    expect(net.state.publishes).toBe(2);
  });

  test("a look-up that fails leaves it to a person, as before", async () => {
    const id = await post("Cannot tell");
    net.state.loseAnswer = "after_store";
    net.state.findFails = true;
    await runOnce();
    expect((await target(id)).status).toBe("needs_attention");
    const [first] = await attempts(id);
    expect(first.outcome).toBe("uncertain");
    expect(first.settlement.decision).toBe("unknown");
    expect(first.settlement.detail).toContain("search is down");
  });

  test("a worker that died mid-publish: reclaimed, looked for before sending, not sent again", async () => {
    const id = await post("Worker died");
    const [claimed] = await claimTargets(t.app, 1);
    expect(claimed!.target.id).toBe(id);
    // The dead worker's request reached the network.
    net.posts.set(id, [{ text: "Worker died", at: Date.now() }]);
    clock.advance(4 * 60_000);
    expect(await reclaimExpired(t.app, 100, adapters)).toBe(1);
    const reclaimed = await target(id);
    expect([reclaimed.status, reclaimed.error_code]).toEqual(["queued", "worker_lost"]);
    await runOnce();
    expect((await target(id)).status).toBe("published");
    expect(net.state.publishes).toBe(0);
    expect(net.posts.get(id)).toHaveLength(1);
    const list = await attempts(id);
    expect(list.map((x: { outcome: string }) => x.outcome)).toEqual(["unknown", "published"]);
    expect(list[1].settlement.decision).toBe("found");
  });

  test("a worker that died before its request left: looked for, not there, sent once", async () => {
    const id = await post("Died early");
    await claimTargets(t.app, 1);
    clock.advance(4 * 60_000);
    await reclaimExpired(t.app, 100, adapters);
    await runOnce();
    expect((await target(id)).status).toBe("published");
    expect(net.state.publishes).toBe(1);
    const list = await attempts(id);
    expect(list[1].settlement.decision).toBe("not_found");
    expect(list[1].settlement.detail).toContain("sent again");
  });
});
