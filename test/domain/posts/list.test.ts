// GET /v1/posts and GET /v1/posts/:id: filters (brand, status, q over every channel's text, metadata[key]),
// cursor pagination newest first, and visibility (a brand-limited key sees its brand only; another org's or
// mode's post is 404).
import { afterAll, beforeAll, expect, test } from "bun:test";
import { describeEachDialect } from "../../helpers/db.ts";
import { key } from "../../helpers/factories.ts";
import { schemaErrors } from "../../helpers/schemas.ts";
import { brandWithChannel, mustPost, otherTenant, SECOND, setBrand, type World, world } from "./helpers.ts";

describeEachDialect("GET /v1/posts", (dialect) => {
  let w: World;
  let b: { brand: string; channel: string }; // a brand of its own for this file's posts
  let toot: string; // a Mastodon-emulating channel of that brand
  const ids: Record<string, string> = {};
  beforeAll(async () => {
    w = await world(dialect);
    b = await brandWithChannel(w.t, w.a.testKey, { name: "Listing", slug: "listing" });
    toot = (
      await w.t.request("POST", "/v1/channels", {
        key: w.a.testKey,
        body: { brand: b.brand, provider: "sandbox", emulates: "mastodon" },
      })
    ).body.id;
    const make = async (name: string, body: Record<string, unknown>) => {
      w.clock.advance(SECOND); // one post per second: IDs (and so the list order) follow creation
      ids[name] = (await mustPost(w.t, w.a.testKey, { brand: b.brand, channels: [b.channel], ...body })).id;
    };
    await make("spring", {
      content: { body: "Spring Sale starts today" },
      metadata: { campaign: "spring" },
    });
    await make("fall", { content: { body: "Fall collection" }, metadata: { campaign: "fall", team: "x" } });
    await make("zebra", {
      channels: [b.channel, toot],
      content: { body: "Animals", overrides: { mastodon: "Only the Fediverse sees the ZEBRA" } },
    });
    await make("percent", { content: { body: "Save 100% today" } });
    await make("plain", { content: { body: "Save 1000 today" } });
    await setBrand(w.t, w.a.testKey, b.brand, { approval_policy: "required_for_all" });
    await make("pending", { content: { body: "Waiting" } });
    await setBrand(w.t, w.a.testKey, b.brand, { approval_policy: "none" });
    await make("canceled", { content: { body: "Gone" } });
    await w.t.request("POST", `/v1/posts/${ids.canceled}/cancel`, { key: w.a.testKey });
    // A post of the tenant's first brand, outside this listing.
    await mustPost(w.t, w.a.testKey, { brand: w.a.brandId, content: { body: "Main brand Zebra" } });
  });
  afterAll(() => w.t.close());

  const list = (query: string, k = w.a.testKey) => w.t.request("GET", `/v1/posts?${query}`, { key: k });
  const names = (data: { id: string }[]) =>
    data.map((p) => Object.keys(ids).find((n) => ids[n] === p.id) ?? "other");

  test("a brand's posts newest first, each a full Post with targets", async () => {
    const r = await list(`brand=${b.brand}`);
    expect(r.status).toBe(200);
    expect([r.body.object, r.body.url, r.body.has_more]).toEqual(["list", "/v1/posts", false]);
    expect(names(r.body.data)).toEqual([
      "canceled",
      "pending",
      "plain",
      "percent",
      "zebra",
      "fall",
      "spring",
    ]);
    for (const p of r.body.data) expect(schemaErrors("Post", p)).toBe("");
    expect(r.body.data[4].targets).toHaveLength(2);
    // By slug too; without a brand, the first brand's post is listed as well.
    expect(names((await list("brand=listing")).body.data)).toHaveLength(7);
    expect((await list("")).body.data).toHaveLength(8);
  });

  test("status filters; an unknown status is 400 parameter_invalid", async () => {
    expect(names((await list(`brand=${b.brand}&status=pending_approval`)).body.data)).toEqual(["pending"]);
    expect(names((await list(`brand=${b.brand}&status=canceled`)).body.data)).toEqual(["canceled"]);
    expect((await list(`brand=${b.brand}&status=published`)).body.data).toEqual([]);
    const bad = await list("status=done");
    expect([bad.status, bad.body.code, bad.body.param]).toEqual([400, "parameter_invalid", "status"]);
  });

  test("q matches any channel's text, case-insensitively; LIKE wildcards are literal; over 200 is 422", async () => {
    expect(names((await list(`brand=${b.brand}&q=zebra`)).body.data)).toEqual(["zebra"]);
    expect(names((await list("q=ZeBrA")).body.data)).toEqual(["other", "zebra"]);
    expect(names((await list(`q=${encodeURIComponent("spring sale")}`)).body.data)).toEqual(["spring"]);
    expect(names((await list(`q=${encodeURIComponent("100%")}`)).body.data)).toEqual(["percent"]);
    expect(names((await list(`q=${encodeURIComponent("save 1_0")}`)).body.data)).toEqual([]);
    expect((await list(`q=${"a".repeat(200)}`)).status).toBe(200);
    const long = await list(`q=${"a".repeat(201)}`);
    expect([long.status, long.body.code, long.body.errors[0].param]).toEqual([422, "query_too_long", "q"]);
  });

  test("metadata[key]=value filters on both dialects", async () => {
    expect(names((await list("metadata[campaign]=spring")).body.data)).toEqual(["spring"]);
    expect(names((await list("metadata%5Bcampaign%5D=fall")).body.data)).toEqual(["fall"]);
    expect(names((await list("metadata[campaign]=fall&metadata[team]=x")).body.data)).toEqual(["fall"]);
    expect(names((await list("metadata[campaign]=fall&metadata[team]=y")).body.data)).toEqual([]);
    expect((await list("metadata[campaign]=winter")).body.data).toEqual([]);
  });

  test("pagination: limit, starting_after (older), ending_before (newer), both is a conflict", async () => {
    const first = await list(`brand=${b.brand}&limit=3`);
    expect([names(first.body.data), first.body.has_more]).toEqual([["canceled", "pending", "plain"], true]);
    const second = await list(`brand=${b.brand}&limit=3&starting_after=${ids.plain}`);
    expect([names(second.body.data), second.body.has_more]).toEqual([["percent", "zebra", "fall"], true]);
    const last = await list(`brand=${b.brand}&limit=3&starting_after=${ids.fall}`);
    expect([names(last.body.data), last.body.has_more]).toEqual([["spring"], false]);
    const back = await list(`brand=${b.brand}&limit=2&ending_before=${ids.zebra}`);
    expect(names(back.body.data)).toEqual(["plain", "percent"]);
    const both = await list(`starting_after=${ids.zebra}&ending_before=${ids.fall}`);
    expect([both.status, both.body.code]).toEqual([400, "parameter_conflict"]);
    const wrong = await list(`starting_after=${b.channel}`);
    expect([wrong.status, wrong.body.code]).toEqual([400, "parameter_invalid"]);
    const unknown = await list("color=red");
    expect([unknown.status, unknown.body.code]).toEqual([400, "parameter_unknown"]);
  });

  test("a brand-limited key lists and reads only its brand's posts", async () => {
    const limited = await key(w.t.app, w.a.orgId, {
      name: "listing only",
      brand: b.brand,
      scopes: ["posts:read"],
    });
    expect((await list("", limited)).body.data).toHaveLength(7);
    const main = (await list(`brand=${w.a.brandId}`)).body.data[0].id;
    const hidden = await w.t.request("GET", `/v1/posts/${main}`, { key: limited });
    expect([hidden.status, hidden.body.code]).toEqual([404, "resource_missing"]);
    const ok = await w.t.request("GET", `/v1/posts/${ids.zebra}`, { key: limited });
    expect([ok.status, ok.body.id]).toEqual([200, ids.zebra]);
    const other = await list(`brand=${w.a.brandId}`, limited);
    expect(other.status).toBe(404);
  });

  test("another org's post, the other mode's post and a malformed ID are 404", async () => {
    const o = await otherTenant(w.t);
    const theirs = await mustPost(w.t, o.a.testKey, { brand: o.a.brandId, content: { body: "Theirs" } });
    const r = await w.t.request("GET", `/v1/posts/${theirs.id}`, { key: w.a.testKey });
    expect([r.status, r.body.code]).toEqual([404, "resource_missing"]);
    expect((await w.t.request("POST", `/v1/posts/${theirs.id}/cancel`, { key: w.a.testKey })).status).toBe(
      404,
    );
    expect((await w.t.request("GET", `/v1/posts/${ids.zebra}`, { key: w.a.liveKey })).status).toBe(404);
    expect((await list("", w.a.liveKey)).body.data).toEqual([]);
    expect((await w.t.request("GET", `/v1/posts/${b.channel}`, { key: w.a.testKey })).status).toBe(404);
    // Their list does not show ours, nor ours theirs.
    expect((await list("", o.a.testKey)).body.data.map((p: { id: string }) => p.id)).toEqual([theirs.id]);
  });
});
