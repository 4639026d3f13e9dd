// `svc all` in-process: start() serves a real listening server (over TCP, not in-process requests), runs the
// worker, and stop() shuts both down and closes the database.

import { expect, test } from "bun:test";
import { start } from "../../src/boot.ts";
import { tasks } from "../../src/queue/registry.ts";
import { testApp } from "../helpers/app.ts";
import { describeEachDialect, dropCreatedDatabases } from "../helpers/db.ts";
import { tenant } from "../helpers/factories.ts";

describeEachDialect("boot", (dialect) => {
  test('start(app, "all") listens on SVC_LISTEN and stop() shuts it down', async () => {
    const t = await testApp(dialect, { env: { SVC_LISTEN: "127.0.0.1:0" } });
    const a = await tenant(t.app, "Booted");
    const running = await start(t.app, "all");
    try {
      expect(running.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(running.url).not.toBe("http://127.0.0.1:0");

      const health = await fetch(`${running.url}/healthz`);
      expect([health.status, await health.json()]).toEqual([200, { status: "ok" }]);
      const ready = await fetch(`${running.url}/readyz`);
      expect([ready.status, await ready.json()]).toEqual([200, { status: "ready" }]);
      const me = await fetch(`${running.url}/v1/me`, { headers: { authorization: `Bearer ${a.testKey}` } });
      expect(me.status).toBe(200);
      expect(me.headers.get("request-id")).toMatch(/^req_/);
      expect(((await me.json()) as { org: { id: string } }).org.id).toBe(a.orgId);
      const yaml = await fetch(`${running.url}/v1/openapi.yaml`);
      expect(yaml.headers.get("content-type")).toBe("application/yaml");
      expect(await yaml.text()).toStartWith("openapi: 3.1.0\n");

      // The worker registered its task rows once the schema was current.
      for (let i = 0; i < 50; i++) {
        const rows = await t.app.db.selectFrom("task_leases").select("name").execute();
        if (rows.length >= tasks.length) break;
        await Bun.sleep(100);
      }
      const names = (await t.app.db.selectFrom("task_leases").select("name").orderBy("name").execute()).map(
        (r) => r.name,
      );
      expect(names).toEqual(tasks.map((x) => x.name).sort());
    } finally {
      await running.stop(); // also closes the App's database
    }
    const after = await fetch(`${running.url}/healthz`).then(
      (r) => r.status,
      (e: Error) => e.name,
    );
    expect(after).not.toBe(200);
    await dropCreatedDatabases();
  });
});
