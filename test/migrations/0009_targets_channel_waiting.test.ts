// Migration 0009: targets have no full index by channel any more (it cost a B-tree leaf per target written). A
// channel's deletion finds its queued targets through the due index and its held and needs_attention targets
// through a small partial index; on SQLite both statements it sends are checked to read an index, not the table.
// What deletion cancels is tested in test/http/api/v1/channel-lifecycle.test.ts.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { adminActor } from "../../src/domain/actor.ts";
import { deleteChannel } from "../../src/domain/channels/service.ts";
import { scopesOfRole } from "../../src/domain/scopes.ts";
import { type TestApp, testApp } from "../helpers/app.ts";
import { describeEachDialect } from "../helpers/db.ts";
import { type Tenant, tenant } from "../helpers/factories.ts";
import { explain, indexDefinitions, statementsOf } from "../helpers/sqlite-plans.ts";

describeEachDialect("migration 0009 targets by channel, waiting ones only", (dialect) => {
  let t: TestApp;
  let a: Tenant;
  beforeAll(async () => {
    t = await testApp(dialect);
    a = await tenant(t.app);
  });
  afterAll(() => t.close());

  test("post_targets_channel is gone; post_targets_channel_waiting holds held and needs_attention targets only", async () => {
    const defs = await indexDefinitions(t, dialect, "post_targets");
    expect(defs.post_targets_channel).toBeUndefined();
    expect(defs.post_targets_channel_waiting).toMatch(
      /\(\s*channel_id\s*\)\s*WHERE\s*\(*\s*status\s*(IN \('held', 'needs_attention'\)|= ANY \(\(?ARRAY\['held'::text, 'needs_attention'::text\]\))/,
    );
  });

  if (dialect === "sqlite") {
    test("a channel's deletion reads the due index for queued targets and the partial index for the rest", async () => {
      const channel = await t.request("POST", "/v1/channels", {
        key: a.testKey,
        body: { brand: a.brandId, provider: "sandbox" },
      });
      const later = new Date(Date.now() + 3600_000).toISOString();
      const post = await t.request("POST", "/v1/posts", {
        key: a.testKey,
        body: {
          brand: a.brandId,
          content: { body: "Waiting" },
          channels: [channel.body.id],
          publish_at: later,
        },
      });
      expect([channel.status, post.status]).toEqual([201, 201]);
      // The statements exactly as deleteChannel builds them.
      const owner = adminActor(a.orgId, "test", scopesOfRole("owner"));
      const seen = await statementsOf(t, (other) => deleteChannel(other, owner, channel.body.id));
      const updates = seen.filter((s) => /^update "post_targets"/i.test(s.sql));
      expect(updates).toHaveLength(2);
      const plans = updates.map((u) => explain(t, u.sql, u.parameters));
      expect(plans[0]).toEqual([
        expect.stringMatching(/^SCAN post_targets USING COVERING INDEX post_targets_due$/),
      ]);
      expect(plans[1]).toEqual([
        expect.stringMatching(
          /^SEARCH post_targets USING INDEX post_targets_channel_waiting \(channel_id=\?\)$/,
        ),
      ]);
      const after = await t.request("GET", `/v1/posts/${post.body.id}`, { key: a.testKey });
      expect(after.body.targets[0].status).toBe("canceled");
    });
  }
});
