// GET /v1/events/stream over a real listening server: the opening lines, frames, the types filter, errors as
// problem details before streaming, pings, and reconnects that resume with no gap and no duplicate. On Postgres
// also an event whose transaction commits after a later one is already visible.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { recordEvent } from "../../../src/domain/events/record.ts";
import { openEventStream, PING_AFTER_MS } from "../../../src/domain/events/stream.ts";
import { authenticate } from "../../../src/domain/identity/auth/authenticate.ts";
import { type TestApp, testApp } from "../../helpers/app.ts";
import { describeEachDialect } from "../../helpers/db.ts";
import { key, type Tenant, tenant } from "../../helpers/factories.ts";
import { parseBlock, sse } from "../../helpers/sse.ts";
import { testEvent } from "../../helpers/webhooks.ts";

describeEachDialect("events stream", (dialect) => {
  let t: TestApp;
  let a: Tenant;
  let server: ReturnType<typeof Bun.serve>;
  let base: string;
  beforeAll(async () => {
    t = await testApp(dialect);
    a = await tenant(t.app);
    // SSE connections stay open: the listening server must not close them as idle.
    server = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      idleTimeout: 0,
      fetch: (req) => t.http.handle(req),
    });
    base = `http://127.0.0.1:${server.port}`;
  });
  afterAll(async () => {
    server.stop(true);
    await t.close();
  });

  const open = (query = "", headers: Record<string, string> = {}, k = a.testKey) =>
    sse(`${base}/v1/events/stream${query}`, { authorization: `Bearer ${k}`, ...headers });

  test("opens with retry: 3000 and : connected, then one frame per new event", async () => {
    const before = await testEvent(t.app, a); // already written: not streamed to a new connection
    const s = await open();
    try {
      expect(s.response.status).toBe(200);
      expect(s.response.headers.get("content-type")).toBe("text/event-stream");
      expect(s.response.headers.get("cache-control")).toBe("no-store");
      expect(s.response.headers.get("x-accel-buffering")).toBe("no");
      expect(s.response.headers.get("request-id")).toMatch(/^req_/);
      expect(await s.next()).toEqual({ retry: "3000", comments: [] });
      expect(await s.next()).toEqual({ comments: ["connected"] });
      const e1 = await testEvent(t.app, a, { type: "post.published", object: { id: "post_x", n: 1 } });
      const e2 = await testEvent(t.app, a, { type: "post.failed" });
      const f1 = await s.nextEvent();
      const f2 = await s.nextEvent();
      expect([f1.id, f1.event, f2.id, f2.event]).toEqual([e1.id, "post.published", e2.id, "post.failed"]);
      const viaApi = await t.request("GET", `/v1/events/${e1.id}`, { key: a.testKey });
      expect(JSON.parse(f1.data!)).toEqual(viaApi.body);
      expect(f1.data).not.toContain("\n");
      expect([f1.id, f2.id]).not.toContain(before.id);
      // Another mode's events do not appear.
      await testEvent(t.app, a, { livemode: true });
      expect(await s.maybe(800)).toBeNull();
    } finally {
      s.close();
    }
  });

  test("a reconnect with Last-Event-ID, or starting_after, resumes with no gap and no duplicate", async () => {
    const written: string[] = [];
    const s1 = await open();
    await s1.next();
    await s1.next();
    // Events keep coming while the client drops and reconnects.
    let writing = true;
    const writer = (async () => {
      for (let i = 0; i < 30 && writing; i++) {
        written.push((await testEvent(t.app, a, { object: { i } })).id);
        await Bun.sleep(15);
      }
    })();
    const seen: string[] = [];
    for (let i = 0; i < 5; i++) seen.push((await s1.nextEvent()).id!);
    s1.close();
    await Bun.sleep(100);
    const s2 = await open("", { "Last-Event-ID": seen.at(-1)! });
    expect((await s2.next()).retry).toBe("3000");
    for (let i = 0; i < 5; i++) seen.push((await s2.nextEvent()).id!);
    s2.close();
    await Bun.sleep(60);
    const s3 = await open(`?starting_after=${seen.at(-1)!}`);
    await writer;
    writing = false;
    while (seen.length < written.length) seen.push((await s3.nextEvent()).id!);
    expect(await s3.maybe(700)).toBeNull();
    s3.close();
    expect(seen).toEqual(written);
  });

  test("types filters by event type", async () => {
    const s = await open("?types=post.published,channel.connected");
    try {
      await s.next();
      await s.next();
      await testEvent(t.app, a, { type: "post.created" });
      const p = await testEvent(t.app, a, { type: "post.published" });
      const c = await testEvent(t.app, a, { type: "channel.connected" });
      expect((await s.nextEvent()).id).toBe(p.id);
      expect((await s.nextEvent()).id).toBe(c.id);
    } finally {
      s.close();
    }
  });

  test("refusals are problem details before any streaming", async () => {
    const status = async (query: string, headers: Record<string, string> = {}, k?: string) => {
      const res = await fetch(`${base}/v1/events/stream${query}`, {
        headers: k === "" ? headers : { authorization: `Bearer ${k ?? a.testKey}`, ...headers },
      });
      expect(res.headers.get("content-type")).toBe("application/problem+json");
      const body = (await res.json()) as { code: string; param: string | null };
      return [res.status, body.code, body.param];
    };
    expect(await status("?types=post.created,post.exploded")).toEqual([400, "parameter_invalid", "types"]);
    expect(await status("?starting_after=post_123")).toEqual([400, "parameter_invalid", "starting_after"]);
    expect(await status("", { "Last-Event-ID": "nope" })).toEqual([
      400,
      "parameter_invalid",
      "Last-Event-ID",
    ]);
    const live = await testEvent(t.app, a, { livemode: true });
    expect(await status(`?starting_after=${live.id}`)).toEqual([404, "resource_missing", "starting_after"]);
    expect(await status("?colour=red")).toEqual([400, "parameter_unknown", "colour"]);
    expect(await status("", {}, "")).toEqual([401, "api_key_missing", null]);
    const narrow = await key(t.app, a.orgId, { name: "no events", scopes: ["posts:read"] });
    expect(await status("", {}, narrow)).toEqual([403, "scope_missing", null]);
    const limited = await key(t.app, a.orgId, { name: "brand only", brand: a.brandId });
    expect(await status("", {}, limited)).toEqual([403, "forbidden", null]);
  });

  test("`: ping` after the idle time (15 s in service)", async () => {
    expect(PING_AFTER_MS).toBe(15_000);
    const actor = await authenticate(t.app, {
      authorization: `Bearer ${a.testKey}`,
      org: null,
      requestId: "req_test",
    });
    const body = await openEventStream(t.app, actor, {}, { pingAfterMs: 300, pollMs: 100 });
    const reader = body.getReader();
    const dec = new TextDecoder();
    let text = "";
    const started = Date.now();
    while (!text.includes(": ping\n\n")) {
      const { value } = await reader.read();
      text += dec.decode(value);
    }
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
    expect(text.split("\n\n").map(parseBlock).slice(0, 3)).toEqual([
      { retry: "3000", comments: [] },
      { comments: ["connected"] },
      { comments: ["ping"] },
    ]);
    await reader.cancel();
  });

  if (dialect === "postgres") {
    test("a new stream skips what was committed before it, even above an open transaction", async () => {
      let release!: () => void;
      const gate = new Promise<void>((r) => {
        release = r;
      });
      let held!: string;
      const open1 = t.app.db.transaction().execute(async (tx) => {
        held = (
          await recordEvent(
            tx,
            t.app,
            { orgId: a.orgId, livemode: false, requestId: null },
            "post.created",
            {},
          )
        ).id;
        await gate;
      });
      await Bun.sleep(50);
      const before = await testEvent(t.app, a); // committed, above the open transaction
      const s = await open();
      try {
        await s.next();
        await s.next();
        release();
        await open1; // committed after the stream opened: streamed
        const after = await testEvent(t.app, a);
        expect((await s.nextEvent()).id).toBe(held);
        expect((await s.nextEvent()).id).toBe(after.id);
        expect([held, after.id]).not.toContain(before.id);
        expect(await s.maybe(700)).toBeNull();
      } finally {
        s.close();
      }
    });

    test("an event committed after a later one is visible is streamed, in commit-safe order", async () => {
      const s = await open();
      try {
        await s.next();
        await s.next();
        let release!: () => void;
        const gate = new Promise<void>((r) => {
          release = r;
        });
        let early!: string;
        // T1 writes its event first (lower seq, lower transaction ID) and stays open.
        const t1 = t.app.db.transaction().execute(async (tx) => {
          early = (
            await recordEvent(
              tx,
              t.app,
              { orgId: a.orgId, livemode: false, requestId: null },
              "post.created",
              {
                n: "early",
              },
            )
          ).id;
          await gate;
        });
        await Bun.sleep(50);
        const late = await testEvent(t.app, a, { object: { n: "late" } });
        // The later event is committed, but an older transaction is still open: nothing is streamed yet.
        expect(await s.maybe(1200)).toBeNull();
        release();
        await t1;
        expect((await s.nextEvent()).id).toBe(early);
        expect((await s.nextEvent()).id).toBe(late.id);
        s.close();
        // Resuming after the late one sends neither again.
        const s2 = await open("", { "Last-Event-ID": late.id });
        await s2.next();
        await s2.next();
        const next = await testEvent(t.app, a);
        expect((await s2.nextEvent()).id).toBe(next.id);
        s2.close();
      } finally {
        s.close();
      }
    });
  }
});
