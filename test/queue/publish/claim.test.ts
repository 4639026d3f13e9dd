// The claim's rules on both dialects (on Postgres the one-statement claim of claim-pg.ts): due targets in due order,
// one per channel, skipping held and inactive channels and suspended orgs without stopping at them; attempt rows
// for exactly the targets claimed, numbered as their attempts; posts scheduled → publishing; and two claimers on
// one database never take the same target or two targets of one channel.
import { afterEach, expect, test } from "bun:test";
import { createApp } from "../../../src/app/context.ts";
import { silentLogger } from "../../../src/app/log.ts";
import { openDatabase } from "../../../src/db/index.ts";
import type { Claimed } from "../../../src/domain/targets/claimed.ts";
import { FakeClock } from "../../../src/lib/clock.ts";
import { claimTargets, LEASE_MS } from "../../../src/queue/publish/claim.ts";
import { type TestApp, testApp } from "../../helpers/app.ts";
import { describeEachDialect } from "../../helpers/db.ts";
import { type Tenant, tenant } from "../../helpers/factories.ts";

describeEachDialect("claiming due targets", (dialect) => {
  let t: TestApp;
  const clock = new FakeClock(Date.parse("2026-04-01T12:00:00Z"));
  const closers: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const c of closers.splice(0).reverse()) await c();
  });
  async function setUp(): Promise<Tenant> {
    t = await testApp(dialect, { clock });
    closers.push(() => t.close());
    return tenant(t.app);
  }
  async function channel(a: Tenant): Promise<string> {
    const r = await t.request("POST", "/v1/channels", {
      key: a.testKey,
      body: { brand: a.brandId, provider: "sandbox" },
    });
    expect(r.status).toBe(201);
    return r.body.id;
  }
  /** A post to `channels`; answers its ID and its target IDs by channel. */
  async function post(a: Tenant, channels: string[]): Promise<{ id: string; targets: Map<string, string> }> {
    const r = await t.request("POST", "/v1/posts", {
      key: a.testKey,
      body: { brand: a.brandId, content: { body: "Claim me" }, channels },
    });
    expect(r.status).toBe(201);
    return {
      id: r.body.id,
      targets: new Map(r.body.targets.map((x: { id: string; channel: string }) => [x.channel, x.id])),
    };
  }
  /** A target of its own on `ch`, due `ago` ms before now. */
  async function dueTarget(a: Tenant, ch: string, ago: number): Promise<string> {
    const id = (await post(a, [ch])).targets.get(ch)!;
    await t.app.db
      .updateTable("post_targets")
      .set({ next_attempt_at: clock.now() - ago })
      .where("id", "=", id)
      .execute();
    return id;
  }
  const ids = (cs: Claimed[]) => cs.map((c) => c.target.id).sort();

  test("the earliest due targets sharing a channel yield one claim on it, and the next channel's target is claimed too", async () => {
    const a = await setUp();
    const [busy, other] = [await channel(a), await channel(a)];
    const first = await dueTarget(a, busy, 4000);
    await dueTarget(a, busy, 3000);
    await dueTarget(a, busy, 2000);
    const later = await dueTarget(a, other, 1000);
    const claimed = await claimTargets(t.app, 2);
    expect(ids(claimed)).toEqual([first, later].sort());
    // Nothing more of either channel while they are held by the claim.
    expect(await claimTargets(t.app, 10)).toEqual([]);
  });

  test("held channels, inactive channels and suspended orgs are passed over for later due targets elsewhere", async () => {
    const a = await setUp();
    const [held, disabled, free] = [await channel(a), await channel(a), await channel(a)];
    const s = await tenant(t.app);
    const suspendedChannel = await channel(s);
    const onHeld = await dueTarget(a, held, 5000);
    await dueTarget(a, disabled, 4000);
    await dueTarget(s, suspendedChannel, 3000);
    const onFree = await dueTarget(a, free, 1000);
    await t.app.db
      .updateTable("channels")
      .set({ rate_limited_until: clock.now() + 60_000 })
      .where("id", "=", held)
      .execute();
    expect(
      (
        await t.request("POST", `/v1/channels/${disabled}`, {
          key: a.testKey,
          body: { status: "disabled" },
        })
      ).status,
    ).toBe(200);
    await t.app.db.updateTable("orgs").set({ status: "suspended" }).where("id", "=", s.orgId).execute();
    // One at a time: the earlier skipped targets do not use up the claim.
    expect(ids(await claimTargets(t.app, 1))).toEqual([onFree]);
    expect(await claimTargets(t.app, 10)).toEqual([]);
    // A hold that has run out (rate_limited_until now) no longer holds.
    clock.advance(60_000);
    expect(ids(await claimTargets(t.app, 10))).toEqual([onHeld]);
  });

  test("attempt rows exist for exactly the claimed targets, numbered as their attempts, and their posts start publishing", async () => {
    const a = await setUp();
    const [x, y, z, w] = [await channel(a), await channel(a), await channel(a), await channel(a)];
    const p1 = await post(a, [x, y]);
    const p2 = await post(a, [z]);
    const p3 = await post(a, [w]);
    await t.app.db
      .updateTable("post_targets")
      .set({ next_attempt_at: clock.now() + 3600_000 })
      .where("post_id", "=", p3.id)
      .execute();
    const status = async (id: string) =>
      (await t.app.db.selectFrom("posts").select("status").where("id", "=", id).executeTakeFirstOrThrow())
        .status;
    expect([await status(p1.id), await status(p2.id), await status(p3.id)]).toEqual([
      "scheduled",
      "scheduled",
      "scheduled",
    ]);

    const claimed = await claimTargets(t.app, 10);
    expect(ids(claimed)).toEqual([p1.targets.get(x)!, p1.targets.get(y)!, p2.targets.get(z)!].sort());
    await expectAttemptsMatch(claimed);
    const all = await t.app.db.selectFrom("post_attempts").select("target_id").execute();
    expect(all.map((r) => r.target_id).sort()).toEqual(ids(claimed));
    expect([await status(p1.id), await status(p2.id), await status(p3.id)]).toEqual([
      "publishing",
      "publishing",
      "scheduled",
    ]);

    // The first attempt on x failed transiently and x is due again: its second claim is attempt 2.
    const again = p1.targets.get(x)!;
    await t.app.db
      .updateTable("post_targets")
      .set({ status: "queued", leased_until: null, lease_owner: null, next_attempt_at: clock.now() })
      .where("id", "=", again)
      .execute();
    await t.app.db
      .updateTable("post_attempts")
      .set({ outcome: "transient", finished_at: clock.now() })
      .where("target_id", "=", again)
      .execute();
    await t.app.db.deleteFrom("channel_locks").where("target_id", "=", again).execute();
    const second = await claimTargets(t.app, 10);
    expect(ids(second)).toEqual([again]);
    expect(second[0]!.target.attempts).toBe(2);
    await expectAttemptsMatch(second);
    const ofX = await t.app.db
      .selectFrom("post_attempts")
      .select(["attempt", "outcome"])
      .where("target_id", "=", again)
      .orderBy("attempt")
      .execute();
    expect(ofX).toEqual([
      { attempt: 1, outcome: "transient" },
      { attempt: 2, outcome: "running" },
    ]);
  });

  /** Each claim's attempt row is the one it names, for its target, numbered as the target's attempts; the target is leased to us. */
  async function expectAttemptsMatch(claimed: Claimed[]): Promise<void> {
    for (const c of claimed) {
      const row = await t.app.db
        .selectFrom("post_attempts")
        .select(["target_id", "attempt", "outcome", "started_at"])
        .where("id", "=", c.attemptId)
        .executeTakeFirstOrThrow();
      expect(row).toEqual({
        target_id: c.target.id,
        attempt: c.target.attempts,
        outcome: "running",
        started_at: clock.now(),
      });
      const target = await t.app.db
        .selectFrom("post_targets")
        .select(["status", "attempts", "lease_owner", "leased_until"])
        .where("id", "=", c.target.id)
        .executeTakeFirstOrThrow();
      expect({ ...target, leased_until: Number(target.leased_until) }).toEqual({
        status: "publishing",
        attempts: c.target.attempts,
        lease_owner: t.app.instanceId,
        leased_until: clock.now() + LEASE_MS,
      });
      expect(c.channel.provider).toBe("sandbox");
    }
  }

  // Postgres: two pools in one process. (Two SQLite connections in one process would block the event loop in
  // busy_timeout; SQLite's claimers are processes, covered by crash.test.ts.)
  if (dialect === "postgres")
    test("two claimers on one database at once never take the same target or two targets of one channel", async () => {
      const a = await setUp();
      const channels: string[] = [];
      for (let i = 0; i < 12; i++) channels.push(await channel(a));
      for (let i = 0; i < 4; i++) await post(a, channels);
      const database = openDatabase(t.dbUrl, { poolSize: 5 });
      const other = createApp(t.app.config, { database, log: silentLogger, clock });
      closers.push(() => other.close());
      const got: { app: string; c: Claimed }[] = [];
      for (let round = 0; round < 20; round++) {
        const batches = await Promise.all(
          [t.app, other, t.app, other].map(async (app) =>
            (await claimTargets(app, 3)).map((c) => ({ app: app.instanceId, c })),
          ),
        );
        const taken = batches.flat();
        got.push(...taken);
        if (taken.length === 0) break;
      }
      const targetIds = got.map((g) => g.c.target.id);
      expect(new Set(targetIds).size).toBe(targetIds.length);
      // Every channel was claimed, once.
      expect(got.map((g) => g.c.target.channel_id).sort()).toEqual([...channels].sort());
      // Both claimers took part, and each target is leased to the one that claimed it.
      expect(new Set(got.map((g) => g.app)).size).toBe(2);
      for (const g of got) {
        const row = await t.app.db
          .selectFrom("post_targets")
          .select("lease_owner")
          .where("id", "=", g.c.target.id)
          .executeTakeFirstOrThrow();
        expect(row.lease_owner).toBe(g.app);
      }
      const locks = await t.app.db.selectFrom("channel_locks").select("target_id").execute();
      expect(locks.map((l) => l.target_id).sort()).toEqual([...targetIds].sort());
      const attempts = await t.app.db.selectFrom("post_attempts").select("target_id").execute();
      expect(attempts.map((r) => r.target_id).sort()).toEqual([...targetIds].sort());
    });
});
