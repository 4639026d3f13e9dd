// The post list filtered by channel (the dashboard's Posts page): posts with a target on that channel only,
// paged like any list; a channel of another org looks missing. The API does not take the filter (yet).
import { afterAll, beforeAll, expect, test } from "bun:test";
import { listPosts } from "../../../src/domain/posts/read.ts";
import { ServiceError } from "../../../src/lib/errors.ts";
import { describeEachDialect } from "../../helpers/db.ts";
import { personActor } from "../../helpers/person.ts";
import { mustPost, otherTenant, type World, world } from "./helpers.ts";

describeEachDialect("posts by channel", (dialect) => {
  let w: World;
  beforeAll(async () => {
    w = await world(dialect);
  });
  afterAll(() => w.t.close());

  test("only the channel's posts, newest first, paged; another org's channel looks missing", async () => {
    const masto = await w.t.request("POST", "/v1/channels", {
      key: w.a.testKey,
      body: { brand: w.a.brandId, provider: "sandbox", emulates: "mastodon", fields: { display_name: "M" } },
    });
    expect(masto.status).toBe(201);
    const both = await mustPost(w.t, w.a.testKey, {
      brand: w.a.brandId,
      channels: [w.channel, masto.body.id],
      content: { body: "Both" },
    });
    const only: string[] = [];
    for (let i = 0; i < 3; i++)
      only.push(
        (
          await mustPost(w.t, w.a.testKey, {
            brand: w.a.brandId,
            channels: [masto.body.id],
            content: { body: `Mastodon ${i}` },
          })
        ).id,
      );
    await mustPost(w.t, w.a.testKey, {
      brand: w.a.brandId,
      channels: [w.channel],
      content: { body: "Bluesky" },
    });
    const actor = await personActor(w.t.app, w.a.userId, w.a.orgId);
    const all = await listPosts(w.t.app, actor, { channel: masto.body.id, limit: "100" });
    expect(all.data.map((p) => p.id)).toEqual([...only].reverse().concat(both.id));
    const first = await listPosts(w.t.app, actor, { channel: masto.body.id, limit: "2" });
    expect(first.has_more).toBe(true);
    const rest = await listPosts(w.t.app, actor, {
      channel: masto.body.id,
      limit: "2",
      starting_after: first.data[1]!.id,
    });
    expect(rest.data.map((p) => p.id)).toEqual([only[0], both.id]);

    const other = await otherTenant(w.t);
    const refused = await listPosts(w.t.app, actor, { channel: other.channel }).catch((e: ServiceError) => e);
    expect(refused).toBeInstanceOf(ServiceError);
    expect([(refused as ServiceError).code, (refused as ServiceError).param]).toEqual([
      "resource_missing",
      "channel",
    ]);
    // The API's list keeps its documented filters.
    const api = await w.t.request("GET", `/v1/posts?channel=${masto.body.id}`, { key: w.a.testKey });
    expect([api.status, api.body.code]).toEqual([400, "parameter_unknown"]);
  });
});
