// A client that goes away ends its stream: the server stops reading and stops listening for wake-ups.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { type TestApp, testApp } from "../../helpers/app.ts";
import { describeEachDialect } from "../../helpers/db.ts";
import { type Tenant, tenant } from "../../helpers/factories.ts";
import { sse } from "../../helpers/sse.ts";

const listeners = (t: TestApp) =>
  (t.app.signals as unknown as { listeners: Map<string, Set<unknown>> }).listeners.get("events")?.size ?? 0;

describeEachDialect("events stream close", (dialect) => {
  let t: TestApp;
  let a: Tenant;
  let server: ReturnType<typeof Bun.serve>;
  beforeAll(async () => {
    t = await testApp(dialect);
    a = await tenant(t.app);
    server = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      idleTimeout: 0,
      fetch: (req) => t.http.handle(req),
    });
  });
  afterAll(async () => {
    server.stop(true);
    await t.close();
  });

  test("disconnecting stops the stream", async () => {
    const before = listeners(t);
    const s = await sse(`http://127.0.0.1:${server.port}/v1/events/stream`, {
      authorization: `Bearer ${a.testKey}`,
    });
    await s.next();
    expect(listeners(t)).toBe(before + 1);
    s.close();
    const deadline = Date.now() + 3000;
    while (listeners(t) > before && Date.now() < deadline) await Bun.sleep(20);
    expect(listeners(t)).toBe(before);
  });
});
