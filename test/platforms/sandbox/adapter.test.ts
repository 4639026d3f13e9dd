// The sandbox adapter through the Adapter interface, for a plain publish, a resumed thread and every value of
// metadata.svc_simulate (reference §3).
import { afterAll, beforeAll, expect, test } from "bun:test";
import { newId } from "../../../src/lib/ids.ts";
import type { PublishedPart, PublishInput, PublishOutcome } from "../../../src/platforms/adapter.ts";
import { adapterFor } from "../../../src/platforms/adapter-registry.ts";
import { SIMULATIONS, SLOW_MS, sandboxAdapter } from "../../../src/platforms/sandbox/adapter.ts";
import { type TestApp, testApp } from "../../helpers/app.ts";
import { describeEachDialect } from "../../helpers/db.ts";
import { type Tenant, tenant } from "../../helpers/factories.ts";

const PARTS = [
  {
    index: 0,
    text: "First part",
    media: [{ id: "media_0000000000000000000000000a", mime: "image/png", alt: "A chart" }],
  },
  { index: 1, text: "Second part", media: [] },
];

describeEachDialect("sandbox adapter", (dialect) => {
  let t: TestApp;
  let a: Tenant;
  let channelId: string;
  beforeAll(async () => {
    t = await testApp(dialect);
    a = await tenant(t.app, "Sandbox Org");
    channelId = (await t.request("GET", "/v1/channels", { key: a.testKey })).body.data[0].id;
  });
  afterAll(() => t.close());

  /** One publish call; returns the outcome and the parts it reported. */
  async function run(o: {
    targetId: string;
    attempt?: number;
    simulate?: string;
    done?: PublishedPart[];
    signal?: AbortSignal;
    livemode?: boolean;
  }): Promise<{ outcome: PublishOutcome; reported: PublishedPart[] }> {
    const reported: PublishedPart[] = [];
    const input: PublishInput = {
      targetId: o.targetId,
      postId: newId("post"),
      livemode: o.livemode ?? false,
      attempt: o.attempt ?? 1,
      channel: { id: channelId, provider: "sandbox", emulates: "bluesky", settings: {}, secrets: {} },
      parts: PARTS,
      done: o.done ?? [],
      metadata: o.simulate ? { svc_simulate: o.simulate } : {},
      signal: o.signal ?? new AbortController().signal,
      onPartPublished: async (p) => {
        reported.push(p);
      },
    };
    return { outcome: await sandboxAdapter.publish(t.app, input), reported };
  }
  const stored = (targetId: string) =>
    t.app.db
      .selectFrom("sandbox_posts")
      .selectAll()
      .where("target_id", "=", targetId)
      .orderBy("attempt")
      .orderBy("part_index")
      .execute();
  const permalink = (id: string) => `http://localhost:8080/sandbox/${id}`;

  test("the registry gives the sandbox adapter, not idempotent; networks without one get null", () => {
    expect(adapterFor("sandbox")).toBe(sandboxAdapter);
    expect(sandboxAdapter.idempotent).toBe(false);
    // Every network of the specification has an adapter now; a name svc does not know has none.
    for (const p of ["facebook", "instagram", "threads", "youtube", "tiktok"])
      expect(adapterFor(p)).not.toBeNull();
    expect(adapterFor("myspace")).toBeNull();
    expect([...SIMULATIONS]).toEqual([
      "rate_limited",
      "auth_revoked",
      "rejected",
      "timeout_after_send",
      "slow",
    ]);
  });

  test("a publish stores every part, reports each, and returns the permalink", async () => {
    const id = newId("ptgt");
    const { outcome, reported } = await run({ targetId: id });
    expect(outcome).toEqual({ kind: "published", permalink: permalink(id) });
    expect(reported).toEqual([
      { index: 0, remote_id: `sandbox:${id}:1:0`, remote_url: `${permalink(id)}#part-1-0` },
      { index: 1, remote_id: `sandbox:${id}:1:1`, remote_url: `${permalink(id)}#part-1-1` },
    ]);
    const rows = await stored(id);
    expect(rows.map((r) => [r.attempt, r.part_index, r.text, r.org_id, r.channel_id])).toEqual([
      [1, 0, "First part", a.orgId, channelId],
      [1, 1, "Second part", a.orgId, channelId],
    ]);
    expect(JSON.parse(rows[0]!.media)).toEqual(PARTS[0]!.media);
  });

  test("a later attempt resumes after the parts already done", async () => {
    const id = newId("ptgt");
    const done = [{ index: 0, remote_id: "earlier", remote_url: null }];
    const { outcome, reported } = await run({ targetId: id, attempt: 2, done });
    expect(outcome.kind).toBe("published");
    expect(reported.map((p) => p.index)).toEqual([1]);
    expect((await stored(id)).map((r) => [r.attempt, r.part_index])).toEqual([[2, 1]]);
  });

  test("rate_limited: the first attempt is told to wait 5 s; a later one succeeds", async () => {
    const id = newId("ptgt");
    const first = await run({ targetId: id, simulate: "rate_limited" });
    expect(first.outcome).toMatchObject({ kind: "rate_limited", retryAfterMs: 5000 });
    expect(first.reported).toEqual([]);
    expect(await stored(id)).toEqual([]);
    const second = await run({ targetId: id, simulate: "rate_limited", attempt: 2 });
    expect(second.outcome).toEqual({ kind: "published", permalink: permalink(id) });
    expect((await stored(id)).map((r) => r.attempt)).toEqual([2, 2]);
  });

  test("auth_revoked: every attempt is refused and nothing is posted", async () => {
    const id = newId("ptgt");
    for (const attempt of [1, 2, 3]) {
      const r = await run({ targetId: id, simulate: "auth_revoked", attempt });
      expect(r.outcome.kind).toBe("auth_revoked");
      expect((r.outcome as { message: string }).message).toContain("svc_simulate=auth_revoked");
    }
    expect(await stored(id)).toEqual([]);
  });

  test("rejected: a permanent refusal with code rejected", async () => {
    const id = newId("ptgt");
    const r = await run({ targetId: id, simulate: "rejected" });
    expect(r.outcome).toMatchObject({ kind: "rejected", code: "rejected" });
    expect(await stored(id)).toEqual([]);
  });

  test("timeout_after_send: the post is stored but the outcome is uncertain; a retry posts again", async () => {
    const id = newId("ptgt");
    const first = await run({ targetId: id, simulate: "timeout_after_send" });
    expect(first.outcome).toMatchObject({ kind: "uncertain" });
    // The first part's answer came; the last part's did not, so it is not reported.
    expect(first.reported.map((p) => p.index)).toEqual([0]);
    expect((await stored(id)).map((r) => [r.attempt, r.part_index])).toEqual([
      [1, 0],
      [1, 1],
    ]);
    const second = await run({
      targetId: id,
      simulate: "timeout_after_send",
      attempt: 2,
      done: first.reported,
    });
    expect(second.outcome).toEqual({ kind: "published", permalink: permalink(id) });
    expect(second.reported.map((p) => p.remote_id)).toEqual([`sandbox:${id}:2:1`]);
    // As on a real network without idempotency: the last part now exists twice.
    expect((await stored(id)).map((r) => [r.attempt, r.part_index])).toEqual([
      [1, 0],
      [1, 1],
      [2, 1],
    ]);
  });

  test(`slow: ${SLOW_MS} ms, then success`, async () => {
    const id = newId("ptgt");
    const started = performance.now();
    const r = await run({ targetId: id, simulate: "slow" });
    expect(performance.now() - started).toBeGreaterThanOrEqual(SLOW_MS - 5);
    expect(r.outcome).toEqual({ kind: "published", permalink: permalink(id) });
    expect(await stored(id)).toHaveLength(2);
  });

  test("slow honours the abort signal: stopped at once, nothing posted", async () => {
    const id = newId("ptgt");
    const abort = new AbortController();
    const started = performance.now();
    setTimeout(() => abort.abort(), 50);
    const r = await run({ targetId: id, simulate: "slow", signal: abort.signal });
    expect(performance.now() - started).toBeLessThan(1000);
    expect(r.outcome.kind).toBe("transient");
    expect(await stored(id)).toEqual([]);
    const already = await run({ targetId: newId("ptgt"), signal: AbortSignal.abort() });
    expect(already.outcome.kind).toBe("transient");
    expect(already.reported).toEqual([]);
  });

  test("a live publish never reaches the sandbox", async () => {
    const id = newId("ptgt");
    const r = await run({ targetId: id, livemode: true });
    expect(r.outcome).toMatchObject({ kind: "rejected", code: "provider_unsupported" });
    expect(await stored(id)).toEqual([]);
  });
});
