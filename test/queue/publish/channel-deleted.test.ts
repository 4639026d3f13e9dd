// One org deleting a channel while one of its targets is being published must not stop publishing for anyone.
// Before: the target's retry was recorded as `queued` on the deleted channel; the SQLite claim picked it (its
// channel was in no list of channels to skip), found no channel row for it and threw, and every claim after that
// threw the same way, for every org. Now: an outcome, or the reclaimer, never queues a target on a channel that is
// gone (it is canceled, as deleting the channel cancels its waiting targets), and a claim that meets such a row
// anyway (left by an earlier version) cancels that one row and claims the others.
import { afterEach, expect, test } from "bun:test";
import type { Claimed } from "../../../src/domain/targets/claimed.ts";
import { completeIn } from "../../../src/domain/targets/complete.ts";
import { decide } from "../../../src/domain/targets/decide.ts";
import { FakeClock } from "../../../src/lib/clock.ts";
import type { Adapter } from "../../../src/platforms/adapter.ts";
import { claimTargets, LEASE_MS } from "../../../src/queue/publish/claim.ts";
import { inStepTx } from "../../../src/queue/publish/step-tx.ts";
import { startPublishWorker } from "../../../src/queue/publish/worker.ts";
import { reclaimExpired } from "../../../src/queue/tasks/publish-reclaim.ts";
import { type TestApp, testApp } from "../../helpers/app.ts";
import { describeEachDialect } from "../../helpers/db.ts";
import { type Tenant, tenant } from "../../helpers/factories.ts";

describeEachDialect("a channel deleted while its target is being published", (dialect) => {
  let t: TestApp;
  const clock = new FakeClock(Date.parse("2026-04-01T12:00:00Z"));
  const closers: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const c of closers.splice(0).reverse()) await c();
  });
  async function setUp() {
    t = await testApp(dialect, { clock });
    closers.push(() => t.close());
  }
  async function channel(a: Tenant): Promise<string> {
    const r = await t.request("POST", "/v1/channels", {
      key: a.testKey,
      body: { brand: a.brandId, provider: "sandbox" },
    });
    expect(r.status).toBe(201);
    return r.body.id;
  }
  /** A post to `ch` due now; answers its target and post IDs. */
  async function due(a: Tenant, ch: string): Promise<{ target: string; post: string }> {
    const r = await t.request("POST", "/v1/posts", {
      key: a.testKey,
      body: { brand: a.brandId, content: { body: "Hello" }, channels: [ch] },
    });
    expect(r.status).toBe(201);
    const target = r.body.targets[0].id as string;
    await t.app.db
      .updateTable("post_targets")
      .set({ next_attempt_at: clock.now() - 1000 })
      .where("id", "=", target)
      .execute();
    return { target, post: r.body.id };
  }
  const target = (id: string) =>
    t.app.db
      .selectFrom("post_targets")
      .select(["status", "next_attempt_at", "lease_owner"])
      .where("id", "=", id)
      .executeTakeFirstOrThrow();
  const postStatus = async (id: string) =>
    (await t.app.db.selectFrom("posts").select("status").where("id", "=", id).executeTakeFirstOrThrow())
      .status;
  const deleteChannel = async (a: Tenant, ch: string) =>
    expect((await t.request("DELETE", `/v1/channels/${ch}`, { key: a.testKey })).status).toBe(200);

  /** Records `claimed`'s outcome as the worker does: in a step transaction, posts locked first. */
  const record = (c: Claimed, outcome: Parameters<typeof decide>[0]) =>
    inStepTx(
      t.app,
      (tx, locked) =>
        completeIn(
          tx,
          t.app,
          [{ claimed: c, decision: decide(outcome, c.target, false, clock.now()) }],
          undefined,
          locked,
        ),
      [c.target.post_id],
    );

  test("a retry recorded after the channel was deleted cancels the target, and other orgs' targets are still claimed", async () => {
    await setUp();
    const a = await tenant(t.app);
    const b = await tenant(t.app);
    const gone = await channel(a);
    const mine = await due(a, gone);
    const [claimed] = await claimTargets(t.app, 10);
    expect(claimed?.target.id).toBe(mine.target);
    await deleteChannel(a, gone);
    // The network answered "try again later" (and a rate limit, the other outcome that queues again).
    await record(claimed!, { kind: "transient", message: "503 from the network" });
    expect(await target(mine.target)).toMatchObject({
      status: "canceled",
      next_attempt_at: null,
      lease_owner: null,
    });
    expect(await postStatus(mine.post)).toBe("canceled");

    const theirs = await due(b, await channel(b));
    clock.advance(60_000);
    const next = await claimTargets(t.app, 10);
    expect(next.map((c) => c.target.id)).toEqual([theirs.target]);
  });

  test("a rate-limited outcome on a deleted channel neither queues the target nor holds a channel row", async () => {
    await setUp();
    const a = await tenant(t.app);
    const gone = await channel(a);
    const mine = await due(a, gone);
    const [claimed] = await claimTargets(t.app, 10);
    await deleteChannel(a, gone);
    await record(claimed!, { kind: "rate_limited", retryAfterMs: 60_000, message: "slow down" });
    expect((await target(mine.target)).status).toBe("canceled");
    expect(await t.app.db.selectFrom("channel_locks").selectAll().execute()).toEqual([]);
  });

  test("a queued row on a channel that no longer exists is canceled by the claim, which claims the rest", async () => {
    await setUp();
    const a = await tenant(t.app);
    const b = await tenant(t.app);
    const gone = await channel(a);
    const orphan = await due(a, gone);
    const theirs = await due(b, await channel(b));
    // Such a row, as an earlier version left it: queued on a channel that was deleted.
    await t.app.db.deleteFrom("channels").where("id", "=", gone).execute();
    const claimed = await claimTargets(t.app, 10);
    expect(claimed.map((c) => c.target.id)).toEqual([theirs.target]);
    expect(claimed[0]!.channel.provider).toBe("sandbox");
    // Never taken: not publishing, its post not publishing, no attempt left running and no channel lock held for
    // it. (The SQLite claim read it and cancels it; the Postgres claim's channel condition never reads it.)
    expect((await target(orphan.target)).status).not.toBe("publishing");
    expect(await postStatus(orphan.post)).not.toBe("publishing");
    const attempts = await t.app.db
      .selectFrom("post_attempts")
      .select("outcome")
      .where("target_id", "=", orphan.target)
      .execute();
    expect(attempts.filter((x) => x.outcome === "running")).toEqual([]);
    const locks = await t.app.db.selectFrom("channel_locks").select("channel_id").execute();
    expect(locks.map((l) => l.channel_id)).not.toContain(gone);
    clock.advance(1000);
    expect(await claimTargets(t.app, 10)).toEqual([]);
  });

  test("the worker keeps publishing other orgs' targets past a row queued on a deleted channel", async () => {
    await setUp();
    const a = await tenant(t.app);
    const b = await tenant(t.app);
    const gone = await channel(a);
    await due(a, gone);
    await t.app.db.deleteFrom("channels").where("id", "=", gone).execute();
    const theirs = await due(b, await channel(b));
    const sent: string[] = [];
    const adapter: Adapter = {
      provider: "sandbox",
      idempotent: false,
      publish: async (_app, input) => {
        sent.push(input.targetId);
        return { kind: "published", permalink: null };
      },
    };
    const worker = startPublishWorker(t.app, { adapterFor: () => adapter, pollMs: 5 });
    try {
      for (let i = 0; i < 200 && (await target(theirs.target)).status !== "published"; i++)
        await Bun.sleep(25);
    } finally {
      await worker.stop();
    }
    expect((await target(theirs.target)).status).toBe("published");
    expect(sent).toEqual([theirs.target]);
  });

  test("a failed target whose channel was deleted cannot be retried onto it: 409 target_not_resolvable", async () => {
    await setUp();
    const a = await tenant(t.app);
    const gone = await channel(a);
    const mine = await due(a, gone);
    const [claimed] = await claimTargets(t.app, 10);
    await record(claimed!, { kind: "rejected", code: "rejected", message: "refused by the network" });
    expect((await target(mine.target)).status).toBe("failed");
    await deleteChannel(a, gone);
    const r = await t.request("POST", `/v1/post_targets/${mine.target}/retry`, { key: a.testKey, body: {} });
    expect(r.status).toBe(409);
    expect(r.body.code).toBe("target_not_resolvable");
    expect((await target(mine.target)).status).toBe("failed");
  });

  test("the reclaimer does not queue again a target whose channel was deleted while its worker was lost", async () => {
    await setUp();
    const a = await tenant(t.app);
    const gone = await channel(a);
    const mine = await due(a, gone);
    const [claimed] = await claimTargets(t.app, 10);
    expect(claimed?.target.id).toBe(mine.target);
    await deleteChannel(a, gone);
    clock.advance(LEASE_MS + 1000);
    // An adapter that can look for the post: the reclaimer would queue the target again.
    const finds: Adapter = {
      provider: "sandbox",
      idempotent: false,
      publish: async () => ({ kind: "published", permalink: null }),
      find: async () => ({ kind: "not_found" }),
    };
    expect(await reclaimExpired(t.app, 100, () => finds)).toBe(1);
    expect((await target(mine.target)).status).toBe("canceled");
    expect(await postStatus(mine.post)).toBe("canceled");
  });
});
