// Migration 0006: the queue's indexes hold only the rows the queue reads (partial indexes), and the queue's
// queries use them. On SQLite the plans of the claim's candidate query, the worker's next-due probe and the
// reclaimer's expired-lease query walk post_targets_due / post_targets_leased in order (no full scan, no sort);
// on Postgres the index definitions carry their status conditions.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { FakeClock } from "../../src/lib/clock.ts";
import { CANDIDATES, claimTargets } from "../../src/queue/publish/claim.ts";
import { NEXT_DUE } from "../../src/queue/publish/worker.ts";
import { reclaimExpired } from "../../src/queue/tasks/publish-reclaim.ts";
import { type TestApp, testApp } from "../helpers/app.ts";
import { describeEachDialect } from "../helpers/db.ts";
import { type Tenant, tenant } from "../helpers/factories.ts";
import { explain, indexDefinitions, statementsOf } from "../helpers/sqlite-plans.ts";

describeEachDialect("queue indexes", (dialect) => {
  let t: TestApp;
  let a: Tenant;
  const clock = new FakeClock(Date.parse("2026-03-01T08:00:00Z"));
  beforeAll(async () => {
    t = await testApp(dialect, { clock });
    a = await tenant(t.app);
    // A queue with rows of every kind the indexes must tell apart: queued, being published, finished.
    for (let i = 0; i < 6; i++) {
      const r = await t.request("POST", "/v1/posts", {
        key: a.testKey,
        body: { brand: a.brandId, content: { body: `Indexed ${i}` } },
      });
      expect(r.status).toBe(201);
    }
    const [one] = await claimTargets(t.app, 1);
    await t.app.db
      .updateTable("post_targets")
      .set({ status: "published", next_attempt_at: null, leased_until: null })
      .where("id", "=", one!.target.id)
      .execute();
    await claimTargets(t.app, 1);
  });
  afterAll(() => t.close());

  test("the due index holds only queued targets and the lease index only targets being published", async () => {
    const defs = await indexDefinitions(t, dialect, "post_targets");
    // (On SQLite, 0007 adds the channel and org after these two columns: test/migrations/0007_lean_queue_rows.)
    expect(defs.post_targets_due).toMatch(
      /\(\s*next_attempt_at,\s*id\s*(,\s*channel_id,\s*org_id\s*)?\)\s*WHERE\s*\(?\s*status = 'queued'/,
    );
    expect(defs.post_targets_leased).toMatch(/\(\s*leased_until\s*\)\s*WHERE\s*\(?\s*status = 'publishing'/);
    // (0009 replaces 0006's full index by channel with a partial one: test/migrations/0009_targets_channel_waiting.)
    // The full-table indexes they replace are gone.
    expect(defs.post_targets_lease).toBeUndefined();
  });

  if (dialect === "sqlite") {
    test("the claim's candidate query walks the due index in order (no full scan of post_targets, no sort)", () => {
      const now = clock.now();
      const plan = explain(t, CANDIDATES, [now, now, 20]);
      expectIndexed(plan, "post_targets_due");
    });

    test("the worker's next-due probe reads the due index", () => {
      expectIndexed(explain(t, NEXT_DUE, []), "post_targets_due");
    });

    test("the reclaimer's expired-lease query reads the lease index", async () => {
      // The query exactly as reclaimExpired builds it.
      const seen = await statementsOf(t, async (other) => expect(await reclaimExpired(other)).toBe(0), {
        clock,
      });
      const q = seen.find(
        (s) => /^select\b.*\bfrom "post_targets"/is.test(s.sql) && s.sql.includes("leased_until"),
      );
      expect(q).toBeDefined();
      expectIndexed(explain(t, q!.sql, q!.parameters), "post_targets_leased");
    });
  }
});

/** Every step that reads post_targets goes through `index`, and nothing is sorted afterwards. */
function expectIndexed(plan: string[], index: string): void {
  const reads = plan.filter((d) => /^(SCAN|SEARCH) (t|post_targets)\b/.test(d));
  expect(reads.length).toBeGreaterThan(0);
  for (const d of reads) expect(d).toContain(`INDEX ${index}`);
  expect(plan.filter((d) => d.includes("TEMP B-TREE"))).toEqual([]);
}
