// Open event streams are capped per credential and per org (in each server process): before, one key held 300
// streams open at once. A closed stream gives its place back; another key of another org is not held up.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { STREAMS_PER_CREDENTIAL, STREAMS_PER_ORG } from "../../../src/domain/events/stream.ts";
import { type TestApp, testApp } from "../../helpers/app.ts";
import { describeEachDialect } from "../../helpers/db.ts";
import { INTEGRATION, key, type Tenant, tenant } from "../../helpers/factories.ts";
import { type SseClient, sse } from "../../helpers/sse.ts";

describeEachDialect("events stream cap", (dialect) => {
  let t: TestApp;
  let a: Tenant;
  let b: Tenant;
  let server: ReturnType<typeof Bun.serve>;
  const open: SseClient[] = [];
  beforeAll(async () => {
    t = await testApp(dialect);
    a = await tenant(t.app);
    b = await tenant(t.app);
    server = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      idleTimeout: 0,
      fetch: (req) => t.http.handle(req),
    });
  });
  afterAll(async () => {
    for (const s of open) s.close();
    server.stop(true);
    await t.close();
  });

  const stream = async (credential: string) => {
    const s = await sse(`http://127.0.0.1:${server.port}/v1/events/stream`, {
      authorization: `Bearer ${credential}`,
    });
    open.push(s);
    return s;
  };

  test("a credential holds at most 5 streams, an org 25; closing one frees its place", async () => {
    const first: SseClient[] = [];
    for (let i = 0; i < STREAMS_PER_CREDENTIAL; i++) {
      const s = await stream(a.testKey);
      expect(s.response.status).toBe(200);
      first.push(s);
    }
    const refused = await stream(a.testKey);
    expect(refused.response.status).toBe(429);
    expect(((await refused.response.json()) as { code: string }).code).toBe("rate_limited");
    expect(refused.response.headers.get("retry-after")).toBe("5");
    // Another org's key is not held up.
    expect((await stream(b.testKey)).response.status).toBe(200);

    first[0]!.close();
    const deadline = Date.now() + 3000;
    let again = await stream(a.testKey);
    while (again.response.status !== 200 && Date.now() < deadline) {
      await Bun.sleep(50);
      again = await stream(a.testKey);
    }
    expect(again.response.status).toBe(200);

    // The org's ceiling: more keys of one org, five streams each, stop at 25 in all.
    const statuses: number[] = [];
    for (let k = 0; k < 5; k++) {
      const more = await key(t.app, a.orgId, { name: `stream key ${k}`, scopes: INTEGRATION });
      for (let i = 0; i < STREAMS_PER_CREDENTIAL; i++) statuses.push((await stream(more)).response.status);
    }
    expect(statuses.filter((s) => s === 200)).toHaveLength(STREAMS_PER_ORG - STREAMS_PER_CREDENTIAL);
    expect(statuses.filter((s) => s === 429)).toHaveLength(STREAMS_PER_CREDENTIAL);
  });
});
