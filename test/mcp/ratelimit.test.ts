// Every MCP request takes from the caller's rate-limit bucket, not only the /v1 calls its tools make: before, a
// key could list tools (or initialize, or ping) without any limit.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { BURST } from "../../src/http/ratelimit.ts";
import { FakeClock } from "../../src/lib/clock.ts";
import { type TestApp, testApp } from "../helpers/app.ts";
import { describeEachDialect } from "../helpers/db.ts";
import { INTEGRATION, key, type Tenant, tenant } from "../helpers/factories.ts";

describeEachDialect("MCP rate limit", (dialect) => {
  let t: TestApp;
  let a: Tenant;
  const clock = new FakeClock(Date.parse("2026-03-02T09:00:00Z"));
  beforeAll(async () => {
    t = await testApp(dialect, { clock });
    a = await tenant(t.app);
  });
  afterAll(() => t.close());

  const mcp = (credential: string, method: string, id: number) =>
    t.http.handle(
      new Request("http://localhost/v1/mcp", {
        method: "POST",
        headers: {
          authorization: `Bearer ${credential}`,
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
        },
        body: JSON.stringify({ jsonrpc: "2.0", id, method, params: {} }),
      }),
    );

  test("tools/list past the burst is refused with 429 rate_limited and Retry-After; another key is not", async () => {
    const k = await key(t.app, a.orgId, { name: "mcp agent", scopes: INTEGRATION });
    const statuses: number[] = [];
    for (let i = 0; i < BURST; i++) {
      const r = await mcp(k, "tools/list", i);
      statuses.push(r.status);
      if (i === 0) {
        expect(((await r.json()) as { result: { tools: unknown[] } }).result.tools.length).toBeGreaterThan(0);
        expect(r.headers.get("ratelimit-limit")).toBe(String(BURST));
      }
    }
    expect(statuses.every((s) => s === 200)).toBe(true);
    const over = await mcp(k, "tools/list", BURST);
    expect(over.status).toBe(429);
    expect(((await over.json()) as { code: string }).code).toBe("rate_limited");
    expect(Number(over.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    // The key's bucket is the API's too: a /v1 call with it is refused as well.
    expect((await t.request("GET", "/v1/me", { key: k })).status).toBe(429);
    expect((await mcp(a.testKey, "tools/list", 1)).status).toBe(200);
    // A second later the bucket has refilled 25.
    clock.advance(1000);
    expect((await mcp(k, "tools/list", BURST + 1)).status).toBe(200);
  });
});
