// The publish worker end to end on the sandbox network: every svc_simulate outcome, events, channel effects,
// one target per channel, thread resumption, reclaim and expiry.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { FakeClock } from "../../../src/lib/clock.ts";
import type { Adapter, PublishInput } from "../../../src/platforms/adapter.ts";
import { adapterFor } from "../../../src/platforms/adapter-registry.ts";
import { claimTargets, LEASE_MS } from "../../../src/queue/publish/claim.ts";
import { renewLeases } from "../../../src/queue/publish/lease.ts";
import { startPublishWorker } from "../../../src/queue/publish/worker.ts";
import { expireOverdue } from "../../../src/queue/tasks/publish-expire.ts";
import { reclaimExpired } from "../../../src/queue/tasks/publish-reclaim.ts";
import { type TestApp, testApp } from "../../helpers/app.ts";
import { describeEachDialect, dialects } from "../../helpers/db.ts";
import { type Tenant, tenant } from "../../helpers/factories.ts";

describeEachDialect("publish worker", (dialect) => {
  let t: TestApp;
  let a: Tenant;
  const clock = new FakeClock(Date.parse("2026-01-05T10:00:00Z"));
  beforeAll(async () => {
    t = await testApp(dialect, { clock });
    a = await tenant(t.app);
  });
  afterAll(() => t.close());

  async function post(body: Record<string, unknown>) {
    const r = await t.request("POST", "/v1/posts", { key: a.testKey, body: { brand: a.brandId, ...body } });
    expect(r.status).toBe(201);
    return r.body;
  }
  const getPost = async (id: string) => (await t.request("GET", `/v1/posts/${id}`, { key: a.testKey })).body;
  const eventsOf = async (type: string) =>
    (
      await t.app.db
        .selectFrom("events")
        .select(["type", "data"])
        .where("org_id", "=", a.orgId)
        .where("type", "=", type)
        .execute()
    ).map((e) => JSON.parse(e.data).object);

  /** Runs one worker until the queue has nothing due now. */
  async function drain(adapters = adapterFor) {
    const w = startPublishWorker(t.app, { adapterFor: adapters, pollMs: 20 });
    for (let i = 0; i < 50; i++) {
      await Bun.sleep(20);
      await w.idle();
      const due = await t.app.db
        .selectFrom("post_targets")
        .select("id")
        .where("status", "in", ["queued", "publishing"])
        .where("next_attempt_at", "<=", clock.now())
        .execute();
      if (due.length === 0) break;
    }
    await w.stop();
  }

  test("a post for now is published, with its permalink, attempt and events", async () => {
    const p = await post({ content: { body: "Hello from the sandbox" } });
    await drain();
    const after = await getPost(p.id);
    expect(after.status).toBe("published");
    const target = after.targets[0];
    expect(target.status).toBe("published");
    expect(target.permalink).toBe(`http://localhost:8080/sandbox/${target.id}`);
    expect(target.attempts).toBe(1);
    const attempts = await t.request("GET", `/v1/post_targets/${target.id}/attempts`, { key: a.testKey });
    expect(attempts.body.data.map((x: { outcome: string }) => x.outcome)).toEqual(["published"]);
    expect((await eventsOf("post_target.published")).some((o) => o.id === target.id)).toBe(true);
    expect((await eventsOf("post.published")).some((o) => o.id === p.id)).toBe(true);
    const page = await t.http.handle(new Request(`http://localhost/sandbox/${target.id}`));
    expect(await page.text()).toContain("Hello from the sandbox");
  });

  // The post event carries the post with all its targets. A step that finished every target of the post presents
  // them from the rows it wrote; a step that finished only some reads the others: both equal what the API shows.
  // A tenant of its own: its channels are not the other tests' posts' channels.
  describe("the post event's snapshot of its targets", () => {
    let b: Tenant;
    beforeAll(async () => {
      b = await tenant(t.app);
    });
    const channel = async () => {
      const ch = await t.request("POST", "/v1/channels", {
        key: b.testKey,
        body: { brand: b.brandId, provider: "sandbox" },
      });
      expect(ch.status).toBe(201);
      return ch.body.id as string;
    };
    async function twoChannelPost(body: string, channels: string[]) {
      const r = await t.request("POST", "/v1/posts", {
        key: b.testKey,
        body: { brand: b.brandId, content: { body }, channels },
      });
      expect(r.status).toBe(201);
      return r.body.id as string;
    }
    const postEvents = async (postId: string) =>
      (
        await t.app.db
          .selectFrom("events")
          .select("data")
          .where("org_id", "=", b.orgId)
          .where("type", "=", "post.published")
          .execute()
      )
        .map((e) => JSON.parse(e.data).object)
        .filter((o) => o.id === postId);
    const withoutEngagement = (o: { targets: Record<string, unknown>[] }) => ({
      ...o,
      targets: o.targets.map(({ engagement: _, ...rest }) => rest),
    });
    async function expectEventMatches(postId: string) {
      const events = await postEvents(postId);
      expect(events).toHaveLength(1);
      const shown = (await t.request("GET", `/v1/posts/${postId}`, { key: b.testKey })).body;
      expect(shown.targets).toHaveLength(2);
      expect(events[0].targets.map((x: { engagement: unknown }) => x.engagement)).toEqual([null, null]);
      expect(withoutEngagement(events[0])).toEqual(withoutEngagement(shown));
    }

    test("both targets finished in one step", async () => {
      const id = await twoChannelPost("Two at once", [await channel(), await channel()]);
      await drain();
      await expectEventMatches(id);
    });

    test("the targets finished in two steps", async () => {
      const [first, second] = [await channel(), await channel()];
      const id = await twoChannelPost("Two, one later", [first, second]);
      // The second channel is held: its target waits while the first is published.
      await t.app.db
        .updateTable("channels")
        .set({ rate_limited_until: clock.now() + 60_000 })
        .where("id", "=", second)
        .execute();
      await drain();
      const between = (await t.request("GET", `/v1/posts/${id}`, { key: b.testKey })).body;
      expect(between.targets.map((x: { status: string }) => x.status).sort()).toEqual([
        "published",
        "queued",
      ]);
      expect(await postEvents(id)).toHaveLength(0);
      clock.advance(61_000);
      await drain();
      await expectEventMatches(id);
    });
  });

  test("rate_limited: held at least 30 s, the channel held too, then published", async () => {
    const p = await post({
      content: { body: "Rate limited first" },
      metadata: { svc_simulate: "rate_limited" },
    });
    await drain();
    let target = (await getPost(p.id)).targets[0];
    expect(target.status).toBe("queued");
    expect(Date.parse(target.next_attempt_at)).toBe(clock.now() + 30_000);
    const ch = await t.app.db
      .selectFrom("channels")
      .select("rate_limited_until")
      .where("id", "=", target.channel)
      .executeTakeFirstOrThrow();
    expect(Number(ch.rate_limited_until)).toBe(clock.now() + 30_000);
    clock.advance(31_000);
    await drain();
    target = (await getPost(p.id)).targets[0];
    expect([target.status, target.attempts]).toEqual(["published", 2]);
  });

  test("rejected: the target fails and the post fails", async () => {
    const p = await post({ content: { body: "Rejected" }, metadata: { svc_simulate: "rejected" } });
    await drain();
    const after = await getPost(p.id);
    expect([after.status, after.targets[0].status, after.targets[0].error.code]).toEqual([
      "failed",
      "failed",
      "rejected",
    ]);
    expect((await eventsOf("post.failed")).some((o) => o.id === p.id)).toBe(true);
  });

  test("timeout_after_send: needs attention (the sandbox does not dedupe); retry publishes", async () => {
    const p = await post({
      content: { body: "Maybe sent" },
      metadata: { svc_simulate: "timeout_after_send" },
    });
    await drain();
    let after = await getPost(p.id);
    const target = after.targets[0];
    expect([after.status, target.status]).toEqual(["publishing", "needs_attention"]);
    expect((await eventsOf("post_target.uncertain")).some((o) => o.id === target.id)).toBe(true);
    expect((await eventsOf("post_target.needs_attention")).some((o) => o.id === target.id)).toBe(true);
    expect((await t.request("POST", `/v1/post_targets/${target.id}/retry`, { key: a.testKey })).status).toBe(
      200,
    );
    await drain();
    after = await getPost(p.id);
    expect([after.status, after.targets[0].status, after.targets[0].attempts]).toEqual([
      "published",
      "published",
      2,
    ]);
  });

  test("auth_revoked: the channel needs reauth (with its event) and the target waits, then expires at publish_by", async () => {
    const b = await tenant(t.app);
    const r = await t.request("POST", "/v1/posts", {
      key: b.testKey,
      body: {
        brand: b.brandId,
        content: { body: "Revoked" },
        metadata: { svc_simulate: "auth_revoked" },
        publish_by: new Date(clock.now() + 3600_000).toISOString(),
      },
    });
    await drain();
    const target = (await t.request("GET", `/v1/posts/${r.body.id}`, { key: b.testKey })).body.targets[0];
    expect(target.status).toBe("queued");
    const ch = await t.request("GET", `/v1/channels/${target.channel}`, { key: b.testKey });
    expect(ch.body.status).toBe("needs_reauth");
    const ev = await t.app.db
      .selectFrom("events")
      .select("type")
      .where("org_id", "=", b.orgId)
      .where("type", "=", "channel.needs_reauth")
      .execute();
    expect(ev).toHaveLength(1);
    // Enabling is refused until it is reconnected.
    expect(
      (
        await t.request("POST", `/v1/channels/${target.channel}`, {
          key: b.testKey,
          body: { status: "active" },
        })
      ).body.code,
    ).toBe("needs_reauth");
    clock.advance(3601_000);
    expect(await expireOverdue(t.app)).toBe(1);
    const after = (await t.request("GET", `/v1/posts/${r.body.id}`, { key: b.testKey })).body;
    expect([after.status, after.targets[0].status, after.targets[0].error.code]).toEqual([
      "failed",
      "failed",
      "expired",
    ]);
  });

  test("one target per channel at a time, and never a disabled channel's", async () => {
    const c = await tenant(t.app);
    for (let i = 0; i < 3; i++) {
      expect(
        (
          await t.request("POST", "/v1/posts", {
            key: c.testKey,
            body: { brand: c.brandId, content: { body: `Same channel ${i}` } },
          })
        ).status,
      ).toBe(201);
    }
    const first = await claimTargets(t.app, 10);
    const mine = first.filter((x) => x.target.org_id === c.orgId);
    expect(mine).toHaveLength(1);
    expect((await claimTargets(t.app, 10)).filter((x) => x.target.org_id === c.orgId)).toHaveLength(0);
    // The claimed one's lease expires: the sandbox is not idempotent, so it waits for a person.
    clock.advance(4 * 60_000);
    expect(await reclaimExpired(t.app)).toBeGreaterThanOrEqual(1);
    const reclaimed = await t.app.db
      .selectFrom("post_targets")
      .selectAll()
      .where("id", "=", mine[0]!.target.id)
      .executeTakeFirstOrThrow();
    expect([reclaimed.status, reclaimed.error_code]).toEqual(["needs_attention", "worker_lost"]);
    const attempt = await t.app.db
      .selectFrom("post_attempts")
      .selectAll()
      .where("target_id", "=", reclaimed.id)
      .executeTakeFirstOrThrow();
    expect(attempt.outcome).toBe("unknown");
    // The channel is free again; disable it and nothing more is claimed.
    const chan = reclaimed.channel_id;
    expect(
      (await t.request("POST", `/v1/channels/${chan}`, { key: c.testKey, body: { status: "disabled" } }))
        .status,
    ).toBe(200);
    expect((await claimTargets(t.app, 10)).filter((x) => x.target.org_id === c.orgId)).toHaveLength(0);
    expect(
      (await t.request("POST", `/v1/channels/${chan}`, { key: c.testKey, body: { status: "active" } }))
        .status,
    ).toBe(200);
    expect((await claimTargets(t.app, 10)).filter((x) => x.target.org_id === c.orgId)).toHaveLength(1);
  });

  test("a suspended org's targets are not claimed", async () => {
    const d = await tenant(t.app);
    expect(
      (
        await t.request("POST", "/v1/posts", {
          key: d.testKey,
          body: { brand: d.brandId, content: { body: "Suspended" } },
        })
      ).status,
    ).toBe(201);
    await t.app.db.updateTable("orgs").set({ status: "suspended" }).where("id", "=", d.orgId).execute();
    expect((await claimTargets(t.app, 10)).filter((x) => x.target.org_id === d.orgId)).toHaveLength(0);
  });

  test("a thread resumes at the first part not yet posted", async () => {
    const e = await tenant(t.app);
    const seen: { attempt: number; parts: number[]; done: number[] }[] = [];
    // Posts part by part; fails after the first part on attempt 1, like a network dropping mid-thread.
    const flaky: Adapter = {
      provider: "sandbox",
      idempotent: false,
      async publish(_app, input: PublishInput) {
        seen.push({
          attempt: input.attempt,
          parts: input.parts.map((p) => p.index),
          done: input.done.map((d) => d.index),
        });
        const done = new Set(input.done.map((d) => d.index));
        for (const part of input.parts) {
          if (done.has(part.index)) continue;
          if (input.attempt === 1 && part.index === 1)
            return { kind: "transient", message: "connection reset" };
          await input.onPartPublished({ index: part.index, remote_id: `r${part.index}`, remote_url: null });
        }
        return { kind: "published", permalink: "https://example.net/thread" };
      },
    };
    const r = await t.request("POST", "/v1/posts", {
      key: e.testKey,
      body: { brand: e.brandId, content: { parts: ["One", "Two", "Three"] } },
    });
    await drain(() => flaky);
    clock.advance(31_000);
    await drain(() => flaky);
    const mine = seen.filter((s) => s.parts.length === 3);
    expect(mine.map((s) => [s.attempt, s.done])).toEqual([
      [1, []],
      [2, [0]],
    ]);
    const after = (await t.request("GET", `/v1/posts/${r.body.id}`, { key: e.testKey })).body;
    expect(after.targets[0].status).toBe("published");
    const row = await t.app.db
      .selectFrom("post_targets")
      .select("remote_parts")
      .where("id", "=", after.targets[0].id)
      .executeTakeFirstOrThrow();
    expect(
      JSON.parse(row.remote_parts)
        .map((p: { index: number }) => p.index)
        .sort(),
    ).toEqual([0, 1, 2]);
  });

  test("no adapter is called before the claim's attempt rows are synced to disk", async () => {
    const f = await tenant(t.app);
    await t.request("POST", "/v1/posts", {
      key: f.testKey,
      body: { brand: f.brandId, content: { body: "Synced" } },
    });
    const order: string[] = [];
    const sync = t.app.syncWrites;
    t.app.syncWrites = async () => {
      order.push("sync started");
      await sync();
      await Bun.sleep(30); // a slow disk: the adapter must still wait
      order.push("sync done");
    };
    try {
      await drain((provider) => {
        const real = adapterFor(provider)!;
        return {
          ...real,
          publish: async (app, input) => {
            order.push("adapter called");
            return real.publish(app, input);
          },
        };
      });
    } finally {
      t.app.syncWrites = sync;
    }
    expect(order.slice(0, 3)).toEqual(["sync started", "sync done", "adapter called"]);
  });

  test("when the sync fails nothing is sent: the target waits for another attempt", async () => {
    const f = await tenant(t.app);
    const r = await t.request("POST", "/v1/posts", {
      key: f.testKey,
      body: { brand: f.brandId, content: { body: "Not durable" } },
    });
    let sent = 0;
    const sync = t.app.syncWrites;
    t.app.syncWrites = async () => {
      throw new Error("EIO: i/o error, fdatasync");
    };
    try {
      await drain(() => ({
        provider: "sandbox",
        idempotent: false,
        publish: async () => {
          sent++;
          return { kind: "published", permalink: null };
        },
      }));
    } finally {
      t.app.syncWrites = sync;
    }
    expect(sent).toBe(0);
    const target = (await t.request("GET", `/v1/posts/${r.body.id}`, { key: f.testKey })).body.targets[0];
    expect([target.status, target.attempts]).toEqual(["queued", 1]);
    expect(target.next_attempt_at).not.toBeNull();
    const attempts = await t.request("GET", `/v1/post_targets/${target.id}/attempts`, { key: f.testKey });
    expect(
      attempts.body.data.map((x: { outcome: string; error: { message: string } | null }) => [
        x.outcome,
        x.error?.message,
      ]),
    ).toEqual([["transient", "attempt_not_durable: Error: EIO: i/o error, fdatasync"]]);
  });

  test("an adapter that throws leaves the target needing attention", async () => {
    const f = await tenant(t.app);
    const r = await t.request("POST", "/v1/posts", {
      key: f.testKey,
      body: { brand: f.brandId, content: { body: "Boom" } },
    });
    await drain(() => ({
      provider: "sandbox",
      idempotent: true,
      publish: async () => {
        throw new Error("boom");
      },
    }));
    const target = (await t.request("GET", `/v1/posts/${r.body.id}`, { key: f.testKey })).body.targets[0];
    expect([target.status, target.error.code, target.error.message]).toEqual([
      "needs_attention",
      "unknown",
      "boom",
    ]);
  });
});

/** Creates a now post and answers its target's status once published, or after one second. */
async function statusWithinASecond(t: TestApp, a: Tenant, body: string): Promise<string> {
  const started = performance.now();
  const r = await t.request("POST", "/v1/posts", {
    key: a.testKey,
    body: { brand: a.brandId, content: { body } },
  });
  let status = "";
  while (performance.now() - started < 1000) {
    status = (
      await t.app.db
        .selectFrom("post_targets")
        .select("status")
        .where("post_id", "=", r.body.id)
        .executeTakeFirstOrThrow()
    ).status;
    if (status === "published") break;
    await Bun.sleep(10);
  }
  return status;
}

describe("wake-up", () => {
  test("a now post starts publishing within a second (the in-process signal, not the 5 s poll)", async () => {
    const t = await testApp("sqlite");
    try {
      const a = await tenant(t.app);
      const w = startPublishWorker(t.app, { adapterFor, pollMs: 5000 });
      await Bun.sleep(50);
      expect(await statusWithinASecond(t, a, "Fast")).toBe("published");
      await w.stop();
    } finally {
      await t.close();
    }
  });
});

if (dialects.includes("postgres")) {
  describe("wake-up across processes (postgres)", () => {
    test("NOTIFY wakes a worker on another connection pool within a second", async () => {
      const t = await testApp("postgres");
      const { createApp } = await import("../../../src/app/context.ts");
      const { openDatabase } = await import("../../../src/db/index.ts");
      const { silentLogger } = await import("../../../src/app/log.ts");
      const other = createApp(t.app.config, { database: openDatabase(t.dbUrl), log: silentLogger });
      try {
        const a = await tenant(t.app);
        const w = startPublishWorker(other, { adapterFor, pollMs: 5000 });
        await Bun.sleep(200);
        expect(await statusWithinASecond(t, a, "Across")).toBe("published");
        await w.stop();
      } finally {
        await other.close();
        await t.close();
      }
    });
  });
}

describeEachDialect("lease renewal", (dialect) => {
  let t: TestApp;
  let a: Tenant;
  const clock = new FakeClock(Date.parse("2026-02-02T09:00:00Z"));
  beforeAll(async () => {
    t = await testApp(dialect, { clock });
    a = await tenant(t.app);
  });
  afterAll(() => t.close());

  /** A now post on a channel of its own; answers its target's ID. */
  async function queuedTarget(): Promise<string> {
    const ch = await t.request("POST", "/v1/channels", {
      key: a.testKey,
      body: { brand: a.brandId, provider: "sandbox" },
    });
    expect(ch.status).toBe(201);
    const r = await t.request("POST", "/v1/posts", {
      key: a.testKey,
      body: { brand: a.brandId, content: { body: "Lease" }, channels: [ch.body.id] },
    });
    expect(r.status).toBe(201);
    return r.body.targets[0].id;
  }
  const leases = async (id: string) => {
    const target = await t.app.db
      .selectFrom("post_targets")
      .select(["status", "leased_until", "lease_owner"])
      .where("id", "=", id)
      .executeTakeFirstOrThrow();
    const lock = await t.app.db
      .selectFrom("channel_locks")
      .select("leased_until")
      .where("target_id", "=", id)
      .executeTakeFirst();
    return {
      ...target,
      leased_until: Number(target.leased_until),
      lock: lock ? Number(lock.leased_until) : null,
    };
  };

  test("renewing a claimed target moves its lease and its channel lock forward", async () => {
    const ids = [await queuedTarget(), await queuedTarget()];
    const claimed = (await claimTargets(t.app, 10)).map((c) => c.target.id);
    expect(claimed.sort()).toEqual([...ids].sort());
    const claimedAt = clock.now();
    for (const id of ids)
      expect(await leases(id)).toMatchObject({
        leased_until: claimedAt + LEASE_MS,
        lock: claimedAt + LEASE_MS,
      });
    clock.advance(60_000);
    await renewLeases(t.app, ids);
    for (const id of ids)
      expect(await leases(id)).toEqual({
        status: "publishing",
        leased_until: clock.now() + LEASE_MS,
        lease_owner: t.app.instanceId,
        lock: clock.now() + LEASE_MS,
      });
  });

  test("renewing leaves alone a target another worker holds and one no longer being published", async () => {
    const [mine, theirs, done] = [await queuedTarget(), await queuedTarget(), await queuedTarget()];
    expect((await claimTargets(t.app, 10)).map((c) => c.target.id).sort()).toEqual(
      [mine, theirs, done].sort(),
    );
    // Another worker took `theirs` over (as after a reclaim and a new claim); `done` was reclaimed.
    await t.app.db
      .updateTable("post_targets")
      .set({ lease_owner: "other-worker" })
      .where("id", "=", theirs)
      .execute();
    await t.app.db
      .updateTable("post_targets")
      .set({ status: "needs_attention", next_attempt_at: null })
      .where("id", "=", done)
      .execute();
    const before = { theirs: await leases(theirs), done: await leases(done) };
    clock.advance(60_000);
    await renewLeases(t.app, [mine, theirs, done]);
    expect((await leases(mine)).leased_until).toBe(clock.now() + LEASE_MS);
    const after = { theirs: await leases(theirs), done: await leases(done) };
    expect([after.theirs.leased_until, after.theirs.lease_owner]).toEqual([
      before.theirs.leased_until,
      "other-worker",
    ]);
    expect([after.done.status, after.done.leased_until]).toEqual([
      "needs_attention",
      before.done.leased_until,
    ]);
  });

  test("a worker renews the lease of a target whose adapter is still publishing", async () => {
    const id = await queuedTarget();
    let started!: () => void;
    const calling = new Promise<void>((r) => {
      started = r;
    });
    let finish!: () => void;
    const held = new Promise<void>((r) => {
      finish = r;
    });
    const slow: Adapter = {
      provider: "sandbox",
      idempotent: false,
      async publish() {
        started();
        await held;
        return { kind: "published", permalink: null };
      },
    };
    const w = startPublishWorker(t.app, { adapterFor: () => slow, pollMs: 20, renewMs: 20 });
    try {
      await calling;
      const claimedUntil = (await leases(id)).leased_until;
      clock.advance(90_000);
      const deadline = Date.now() + 10_000;
      let now = await leases(id);
      while (now.leased_until === claimedUntil && Date.now() < deadline) {
        await Bun.sleep(20);
        now = await leases(id);
      }
      expect(now).toEqual({
        status: "publishing",
        leased_until: claimedUntil + 90_000,
        lease_owner: t.app.instanceId,
        lock: claimedUntil + 90_000,
      });
    } finally {
      finish();
      await w.stop();
    }
    expect((await leases(id)).status).toBe("published");
  });
});
