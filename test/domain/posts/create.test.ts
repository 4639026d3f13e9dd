// POST /v1/posts as a client sees it: content (body or parts) or a template with data, checked against every
// channel's network rules before anything is stored; every refusal is one 422 listing all its problems, and
// writes nothing. A created post freezes each channel's text (UTM-tagged), writes post.created and its audit
// row in the same transaction, and an Idempotency-Key replays it.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { newId } from "../../../src/lib/ids.ts";
import { describeEachDialect } from "../../helpers/db.ts";
import { schemaErrors } from "../../helpers/schemas.ts";
import {
  at,
  auditRows,
  brandWithChannel,
  codes,
  counts,
  createPost,
  DAY,
  events,
  HOUR,
  iso,
  MIN,
  mustPost,
  START,
  setBrand,
  type World,
  world,
} from "./helpers.ts";

const FAMILY = "👨‍👩‍👧‍👦"; // one grapheme of 7 code points (11 UTF-16 units)
const now = at(START);

describeEachDialect("POST /v1/posts", (dialect) => {
  let w: World;
  let linkedin: string; // a sandbox channel of the same brand emulating LinkedIn (no threads, 3000 chars)
  beforeAll(async () => {
    w = await world(dialect);
    const c = await w.t.request("POST", "/v1/channels", {
      key: w.a.testKey,
      body: { brand: w.a.brandId, provider: "sandbox", emulates: "linkedin" },
    });
    expect(c.status).toBe(201);
    linkedin = c.body.id;
  });
  afterAll(() => w.t.close());

  const post = (body: Record<string, unknown>, key = w.a.testKey) =>
    createPost(w.t, key, { brand: w.a.brandId, channels: [w.channel], ...body });
  /** A refused create: 422, and the `code param` list of its problems. */
  const refused = async (body: Record<string, unknown>, key = w.a.testKey) => {
    const r = await post(body, key);
    expect(r.status).toBe(422);
    expect(r.headers.get("content-type")).toContain("application/problem+json");
    expect(r.body.code).toBe(r.body.errors[0].code);
    return codes(r);
  };

  describe("content", () => {
    test("a body becomes one frozen part per channel, queued now with a 24 h deadline", async () => {
      const r = await post({ content: { body: "Hello from the launch team." } });
      expect(r.status).toBe(201);
      expect(schemaErrors("Post", r.body)).toBe("");
      expect(r.body.id).toMatch(/^post_[0-7][0-9a-z]{25}$/);
      expect(r.body).toMatchObject({
        object: "post",
        brand: w.a.brandId,
        livemode: false,
        status: "scheduled",
        template: null,
        template_version: null,
        data: null,
        content: { body: "Hello from the launch team." },
        publish_at: START,
        publish_by: iso(now + 24 * HOUR),
        slot: false,
        metadata: {},
        approval: {
          required: false,
          reviewed_by: null,
          reviewed_by_key: null,
          reviewed_at: null,
          note: null,
        },
        media: [],
        created_at: START,
      });
      expect(r.body.targets).toHaveLength(1);
      expect(r.body.targets[0]).toMatchObject({
        object: "post_target",
        post: r.body.id,
        channel: w.channel,
        channel_name: "Sandbox Bluesky",
        provider: "sandbox",
        livemode: false,
        parts: ["Hello from the launch team."],
        status: "queued",
        attempts: 0,
        next_attempt_at: START,
        publish_by: iso(now + 24 * HOUR),
        permalink: null,
        error: null,
        published_at: null,
      });
      expect(r.body.targets[0].id).toMatch(/^ptgt_/);
      const got = await w.t.request("GET", `/v1/posts/${r.body.id}`, { key: w.a.testKey });
      expect(got.body).toEqual(r.body);
    });

    test("parts are the thread as given; without channels every active channel of the brand is used", async () => {
      const r = await createPost(w.t, w.a.testKey, {
        brand: w.a.brandSlug,
        content: { parts: ["One.", "Two."] },
        channels: [w.channel],
      });
      expect(r.status).toBe(201);
      expect(r.body.targets.map((x: { parts: string[] }) => x.parts)).toEqual([["One.", "Two."]]);
      // Without channels: both active channels (Bluesky and LinkedIn emulations), in ID order.
      const all = await createPost(w.t, w.a.testKey, { brand: w.a.brandId, content: { body: "To all." } });
      expect(all.status).toBe(201);
      expect(all.body.targets.map((x: { channel: string }) => x.channel)).toEqual([w.channel, linkedin]);
    });

    test("a body line holding only {{thread}} starts a new part", async () => {
      const r = await post({ content: { body: "First part.\n{{thread}}\nSecond part." } });
      expect(r.status).toBe(201);
      expect(r.body.targets[0].parts).toEqual(["First part.", "Second part."]);
    });

    test("content_missing, content_conflict (three ways) and content_empty", async () => {
      expect(await refused({})).toEqual(["content_missing content"]);
      expect(await refused({ template: "release", content: { body: "x" } })).toContain(
        "content_conflict content",
      );
      expect(await refused({ content: { body: "x", parts: ["y"] } })).toEqual([
        "content_conflict content.parts",
      ]);
      expect(await refused({ content: { body: "x" }, data: { a: 1 } })).toEqual(["content_conflict data"]);
      // The content is empty, and so is what the channel would receive.
      expect(await refused({ content: { body: "  \n " } })).toEqual([
        "content_empty content.body",
        `empty channels.${w.channel}`,
      ]);
      expect(await refused({ content: { parts: ["", " "] } })).toEqual([
        "content_empty content.body",
        `empty channels.${w.channel}`,
        `empty channels.${w.channel}`,
      ]);
    });

    test("Bluesky counts 300 graphemes: 300 pass, 301 is too_long with the channel's detail", async () => {
      const ok = await post({ content: { body: "a".repeat(300) } });
      expect(ok.status).toBe(201);
      const r = await post({ content: { body: "a".repeat(301) } });
      expect(r.status).toBe(422);
      expect(r.body.errors).toEqual([
        {
          code: "too_long",
          param: `channels.${w.channel}`,
          message: expect.any(String),
          detail: {
            channel: w.channel,
            provider: "sandbox",
            part: 0,
            length: 301,
            limit: 300,
            media: null,
          },
        },
      ]);
      expect(r.body.param).toBe(`channels.${w.channel}`);
    });

    test("an emoji-heavy body is counted in graphemes, not code units", async () => {
      // 300 family emoji are 3,300 UTF-16 units but 300 graphemes: it fits.
      const ok = await post({ content: { body: FAMILY.repeat(300) } });
      expect(ok.status).toBe(201);
      expect(ok.body.targets[0].parts).toEqual([FAMILY.repeat(300)]);
      const r = await post({ content: { body: `${FAMILY.repeat(299)} 🇩🇪` } });
      expect(r.status).toBe(422);
      expect(r.body.errors[0].detail).toMatchObject({ length: 301, limit: 300, part: 0 });
    });

    test("fit truncate and fit thread make an over-long body fit (named by the emulated provider)", async () => {
      const words = Array.from({ length: 120 }, (_, i) => `word${i}`).join(" "); // 829 characters
      const cut = await post({ content: { body: words, fit: { bluesky: "truncate" } } });
      expect(cut.status).toBe(201);
      const [part] = cut.body.targets[0].parts as string[];
      expect(cut.body.targets[0].parts).toHaveLength(1);
      expect([...new Intl.Segmenter().segment(part!)].length).toBeLessThanOrEqual(300);
      expect(part!.endsWith("…")).toBe(true);
      expect(words.startsWith(part!.slice(0, -1).trimEnd())).toBe(true);

      const thread = await post({ content: { body: words, fit: { sandbox: "thread" } } });
      expect(thread.status).toBe(201);
      const parts = thread.body.targets[0].parts as string[];
      expect(parts.length).toBe(3);
      for (const p of parts) expect(p.length).toBeLessThanOrEqual(300);
      // Nothing is lost: the words come back in order (numbering or ellipses aside).
      const back = [...parts.join(" ").matchAll(/word\d+/g)].map((m) => m[0]);
      expect(back).toEqual(words.split(" "));
    });

    test("parts for LinkedIn are threads_unsupported; 26 Bluesky parts are thread_too_long", async () => {
      const r = await post({ channels: [linkedin], content: { parts: ["a", "b"] } });
      expect(r.status).toBe(422);
      expect(codes(r)).toEqual([`threads_unsupported channels.${linkedin}`]);
      expect(r.body.errors[0].detail).toMatchObject({ channel: linkedin, provider: "sandbox" });
      const parts = Array.from({ length: 26 }, (_, i) => `part ${i}`);
      const long = await post({ content: { parts } });
      expect(codes(long)).toEqual([`thread_too_long channels.${w.channel}`]);
      expect(long.body.errors[0].detail).toMatchObject({ length: 26, limit: 25 });
      expect((await post({ content: { parts: parts.slice(0, 25) } })).status).toBe(201);
    });

    test("fit thread never cuts: a body needing more parts than allowed is thread_too_long, nothing stored", async () => {
      // The case: 20,000 characters with fit thread to Bluesky were published as 25 parts holding
      // 7,476 of them, the last ending in "…".
      const body = Array.from({ length: 2500 }, (_, i) => `w${i}`.padEnd(7, "x"))
        .join(" ")
        .slice(0, 20_000);
      const r = await post({ content: { body, fit: { bluesky: "thread" } } });
      expect(r.status).toBe(422);
      expect(codes(r)).toEqual([`thread_too_long channels.${w.channel}`]);
      const detail = r.body.errors[0].detail;
      expect(detail).toMatchObject({ channel: w.channel, parts_allowed: 25, limit: 25 });
      // 20,000 characters in parts of at most 300 need at least 67.
      expect(detail.parts_needed).toBeGreaterThanOrEqual(67);
      expect(detail.length).toBe(detail.parts_needed);
      expect(r.body.errors[0].message).toContain(`needs ${detail.parts_needed}`);
      const listed = await w.t.request("GET", "/v1/posts?q=w0xxxxx", { key: w.a.testKey });
      expect(listed.body.data).toEqual([]);
    });

    test("one 422 lists the problems of several channels at once", async () => {
      const r = await post({ channels: [w.channel, linkedin], content: { body: "b".repeat(3001) } });
      expect(r.status).toBe(422);
      expect(r.body.errors.map((e: { param: string; detail: unknown }) => [e.param, e.detail])).toEqual([
        [
          `channels.${w.channel}`,
          { channel: w.channel, provider: "sandbox", part: 0, length: 3001, limit: 300, media: null },
        ],
        [
          `channels.${linkedin}`,
          { channel: linkedin, provider: "sandbox", part: 0, length: 3001, limit: 3000, media: null },
        ],
      ]);
      expect(codes(r)).toEqual([`too_long channels.${w.channel}`, `too_long channels.${linkedin}`]);
    });

    test("channels of one network each get the text and each refusal names its own channel", async () => {
      const other = await brandWithChannel(w.t, w.a.testKey, { name: "Twin Brand" });
      const twin = await w.t.request("POST", "/v1/channels", {
        key: w.a.testKey,
        body: { brand: other.brand, provider: "sandbox", emulates: "bluesky" },
      });
      const long = await w.t.request("POST", "/v1/channels", {
        key: w.a.testKey,
        body: { brand: other.brand, provider: "sandbox", emulates: "linkedin" },
      });
      const channels = [other.channel, twin.body.id, long.body.id];
      const tooLong = await post({ brand: other.brand, channels, content: { body: "b".repeat(301) } });
      expect(codes(tooLong)).toEqual(channels.slice(0, 2).map((c) => `too_long channels.${c}`));
      expect(tooLong.body.errors.map((e: { detail: { channel: string } }) => e.detail.channel)).toEqual(
        channels.slice(0, 2),
      );
      const r = await post({
        brand: other.brand,
        channels,
        content: { body: "Same words.\n{{thread}}\nTwo parts.", overrides: { linkedin: "For LinkedIn." } },
      });
      expect(r.status).toBe(201);
      expect(r.body.targets.map((t: { channel: string; parts: string[] }) => [t.channel, t.parts])).toEqual([
        [channels[0], ["Same words.", "Two parts."]],
        [channels[1], ["Same words.", "Two parts."]],
        [channels[2], ["For LinkedIn."]],
      ]);
    });

    test("an override per provider replaces the body for that network only", async () => {
      const r = await post({
        channels: [w.channel, linkedin],
        content: { body: "short", overrides: { linkedin: "The longer LinkedIn version." } },
      });
      expect(r.status).toBe(201);
      expect(r.body.targets.map((x: { parts: string[] }) => x.parts)).toEqual([
        ["short"],
        ["The longer LinkedIn version."],
      ]);
    });

    test("provider_unknown in content.fit, content.overrides, fit and overrides; fit_invalid", async () => {
      expect(
        await refused({
          content: { body: "x", fit: { myspace: "thread" }, overrides: { friendster: "y" } },
          fit: { orkut: "error" },
          overrides: { vine: "z" },
        }),
      ).toEqual([
        "provider_unknown content.overrides.friendster",
        "provider_unknown content.fit.myspace",
        "provider_unknown overrides.vine",
        "provider_unknown fit.orkut",
      ]);
      const bad = await post({ content: { body: "x", fit: { bluesky: "squeeze" } } });
      expect(bad.status).toBe(422);
      expect(bad.body.code).toBe("fit_invalid");
    });
  });

  describe("templates", () => {
    let templateId: string;
    beforeAll(async () => {
      const r = await w.t.request("POST", "/v1/templates", {
        key: w.a.testKey,
        body: {
          brand: w.a.brandId,
          key: "release",
          variables: {
            type: "object",
            properties: { version: { type: "string" }, url: { type: "string" } },
            required: ["version", "url"],
          },
          examples: [{ version: "1.0", url: "https://example.com/r/1.0" }],
          body: "Release {{.version}} is out: {{.url}}",
          overrides: { linkedin: "We shipped {{.version}}. Details: {{.url}}" },
        },
      });
      expect(r.status).toBe(201);
      templateId = r.body.id;
    });

    test("a template with data renders per channel and records the version used", async () => {
      const r = await post({
        channels: [w.channel, linkedin],
        template: "release",
        data: { version: "2.1", url: "https://example.org/2.1" },
      });
      expect(r.status).toBe(201);
      expect(schemaErrors("Post", r.body)).toBe("");
      expect(r.body).toMatchObject({
        template: "release",
        template_version: 1,
        data: { version: "2.1", url: "https://example.org/2.1" },
        content: null,
      });
      expect(r.body.targets.map((x: { parts: string[] }) => x.parts)).toEqual([
        ["Release 2.1 is out: https://example.org/2.1"],
        ["We shipped 2.1. Details: https://example.org/2.1"],
      ]);
      // By ID and by key@version too.
      for (const ref of [templateId, "release@1"]) {
        const again = await post({ template: ref, data: { version: "2.2", url: "https://example.org" } });
        expect(again.status).toBe(201);
        expect(again.body.template_version).toBe(1);
      }
    });

    test("template_missing, template_invalid and data_invalid", async () => {
      expect(await refused({ template: "nothing-here", data: {} })).toEqual(["template_missing template"]);
      expect(await refused({ template: "release@9", data: {} })).toEqual(["template_missing template"]);
      expect(await refused({ template: "Not A Key!", data: {} })).toEqual(["template_invalid template"]);
      expect(await refused({ template: "release", data: { version: 2 } })).toEqual([
        "data_invalid data.url",
        "data_invalid data.version",
      ]);
    });
  });

  describe("channels", () => {
    test("no_channels when the brand has no active channel in this mode", async () => {
      const other = await brandWithChannel(w.t, w.a.testKey, { name: "Quiet Brand" });
      const off = await w.t.request("POST", `/v1/channels/${other.channel}`, {
        key: w.a.testKey,
        body: { status: "disabled" },
      });
      expect(off.body.status).toBe("disabled");
      const r = await createPost(w.t, w.a.testKey, { brand: other.brand, content: { body: "hi" } });
      expect(r.status).toBe(422);
      expect(codes(r)).toEqual(["no_channels channels"]);
      // Named explicitly, the disabled channel is channel_inactive.
      const named = await createPost(w.t, w.a.testKey, {
        brand: other.brand,
        channels: [other.channel],
        content: { body: "hi" },
      });
      expect(codes(named)).toEqual(["channel_inactive channels.0"]);
      expect(named.body.errors[0].detail).toEqual({ channel: other.channel, status: "disabled" });
    });

    test("channel_invalid, channel_missing and channel_other_brand, each at its index", async () => {
      const other = await brandWithChannel(w.t, w.a.testKey, { name: "Second Brand" });
      const ghost = newId("chan");
      const r = await post({
        channels: [w.channel, "twitter", ghost, other.channel],
        content: { body: "x" },
      });
      expect(r.status).toBe(422);
      expect(codes(r)).toEqual([
        "channel_invalid channels.1",
        "channel_missing channels.2",
        "channel_other_brand channels.3",
      ]);
      expect(r.body.errors.map((e: { detail: { channel: string } }) => e.detail.channel)).toEqual([
        "twitter",
        ghost,
        other.channel,
      ]);
    });
  });

  describe("media, metadata, simulation", () => {
    test("media_missing, media_duplicate and too_much_media", async () => {
      const m = [newId("media"), newId("media")];
      expect(await refused({ content: { body: "x" }, media: [m[0], m[0], m[1]] })).toEqual([
        "media_missing media.0",
        "media_duplicate media.1",
        "media_missing media.2",
      ]);
      const eleven = Array.from({ length: 11 }, () => newId("media"));
      // The post's own limit of ten, each unknown ID, and the channel's limit (Bluesky takes four).
      expect(await refused({ content: { body: "x" }, media: eleven })).toEqual([
        "too_much_media media",
        ...eleven.map((_, i) => `media_missing media.${i}`),
        `too_much_media channels.${w.channel}`,
      ]);
    });

    test("metadata_invalid: 51 keys, a 41-character key, a 501-character value, a non-string value", async () => {
      const fifty = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`k${i}`, "v"]));
      const ok = await post({ content: { body: "x" }, metadata: fifty });
      expect(ok.status).toBe(201);
      expect(Object.keys(ok.body.metadata)).toHaveLength(50);
      expect(await refused({ content: { body: "x" }, metadata: { ...fifty, k50: "v" } })).toEqual([
        "metadata_invalid metadata",
      ]);
      const long = "k".repeat(41);
      expect(
        await refused({
          content: { body: "x" },
          metadata: { [long]: "v", [`k${"x".repeat(39)}`]: "v".repeat(500), big: "v".repeat(501), n: 5 },
        }),
      ).toEqual([
        `metadata_invalid metadata.${long}`,
        "metadata_invalid metadata.big",
        "metadata_invalid metadata.n",
      ]);
    });

    test("svc_simulate takes known values in test mode; simulation_invalid otherwise", async () => {
      const ok = await post({ content: { body: "x" }, metadata: { svc_simulate: "rejected" } });
      expect(ok.status).toBe(201);
      expect(ok.body.metadata).toEqual({ svc_simulate: "rejected" });
      expect(await refused({ content: { body: "x" }, metadata: { svc_simulate: "explode" } })).toEqual([
        "simulation_invalid metadata.svc_simulate",
      ]);
    });

    test("a live key may not simulate: simulation_in_live_mode (listed with live mode's no_channels)", async () => {
      const r = await createPost(w.t, w.a.liveKey, {
        brand: w.a.brandId,
        content: { body: "x" },
        metadata: { svc_simulate: "slow" },
      });
      expect(r.status).toBe(422);
      expect(codes(r)).toEqual(["simulation_in_live_mode metadata.svc_simulate", "no_channels channels"]);
      // The test channel's ID is not found from live mode.
      const named = await createPost(w.t, w.a.liveKey, {
        brand: w.a.brandId,
        channels: [w.channel],
        content: { body: "x" },
      });
      expect(codes(named)).toEqual(["channel_missing channels.0"]);
    });
  });

  describe("times", () => {
    test("publish_at_invalid: not a time, over 366 days ahead, over 15 minutes past", async () => {
      for (const publish_at of [
        "tomorrow",
        "2026-01-05 12:00",
        "2026-13-01T00:00:00Z",
        "2026-02-30T10:00:00Z",
      ])
        expect(await refused({ content: { body: "x" }, publish_at })).toEqual([
          "publish_at_invalid publish_at",
        ]);
      expect(await refused({ content: { body: "x" }, publish_at: iso(now + 367 * DAY) })).toEqual([
        "publish_at_invalid publish_at",
      ]);
      expect(await refused({ content: { body: "x" }, publish_at: iso(now - 16 * MIN) })).toEqual([
        "publish_at_invalid publish_at",
      ]);
    });

    test("a time up to 15 minutes past counts as now; a future time and its deadline are kept", async () => {
      const past = await post({ content: { body: "x" }, publish_at: iso(now - 14 * MIN) });
      expect(past.status).toBe(201);
      expect(past.body.publish_at).toBe(START);
      expect(past.body.targets[0].next_attempt_at).toBe(START);
      const later = iso(now + 3 * DAY + 7 * MIN); // not on a slot
      const by = iso(now + 4 * DAY);
      const r = await post({ content: { body: "x" }, publish_at: later, publish_by: by });
      expect(r.status).toBe(201);
      expect([r.body.publish_at, r.body.publish_by, r.body.slot]).toEqual([later, by, false]);
      expect([r.body.targets[0].next_attempt_at, r.body.targets[0].publish_by]).toEqual([later, by]);
      const far = await post({ content: { body: "x" }, publish_at: iso(now + 366 * DAY - MIN) });
      expect(far.status).toBe(201);
    });

    test("publish_by_invalid: in the past, or not after publish_at", async () => {
      expect(await refused({ content: { body: "x" }, publish_by: iso(now - MIN) })).toEqual([
        "publish_by_invalid publish_by",
      ]);
      expect(
        await refused({
          content: { body: "x" },
          publish_at: iso(now + 2 * HOUR),
          publish_by: iso(now + HOUR),
        }),
      ).toEqual(["publish_by_invalid publish_by"]);
      expect(await refused({ content: { body: "x" }, publish_by: "soon" })).toEqual([
        "publish_by_invalid publish_by",
      ]);
    });

    test("one 422 gathers content, metadata, channel and time problems together", async () => {
      expect(
        await refused({
          channels: [w.channel, "nope"],
          content: { body: "y".repeat(301) },
          metadata: { n: 1 },
          publish_at: "later",
        }),
      ).toEqual([
        "metadata_invalid metadata.n",
        "channel_invalid channels.1",
        `too_long channels.${w.channel}`,
        "publish_at_invalid publish_at",
      ]);
    });
  });

  describe("what a create writes", () => {
    test("a refused create writes no post, target, slot or event", async () => {
      await setBrand(w.t, w.a.testKey, w.a.brandId, { slots: [{ weekday: "tuesday", time: "09:00" }] });
      const before = await counts(w.t, w.a.orgId);
      const bad = [
        { content: { body: "z".repeat(301) }, publish_at: "next_slot" },
        { content: { body: "ok" }, publish_at: "next_slot", metadata: { svc_simulate: "nope" } },
        { content: { body: "ok" }, publish_at: "2026-01-06T09:00:00Z", publish_by: "2026-01-06T08:00:00Z" },
      ];
      for (const body of bad) expect((await post(body)).status).toBe(422);
      expect(await counts(w.t, w.a.orgId)).toEqual(before);
    });

    test("post.created is written with the post, carrying the request ID; the audit row too", async () => {
      const r = await post({ content: { body: "Audited." }, metadata: { campaign: "q1" } });
      expect(r.status).toBe(201);
      const requestId = r.headers.get("request-id");
      expect(requestId).toMatch(/^req_/);
      const evs = await events(w.t, w.a.orgId, r.body.id);
      expect(evs.map((e) => [e.type, e.livemode, e.request_id])).toEqual([["post.created", 0, requestId]]);
      expect(evs[0]!.data.object).toEqual(r.body);
      const rows = (await auditRows(w.t, w.a.orgId, "post.create")).filter((a) => a.target === r.body.id);
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({
        outcome: "success",
        request_id: requestId,
        detail: { channels: 1, approval: false },
      });
      expect(rows[0]!.api_key_id).toMatch(/^key_/);
    });

    test("links to the brand's utm_domains are tagged in the frozen parts; the content stays as written", async () => {
      await setBrand(w.t, w.a.testKey, w.a.brandId, { utm_domains: ["example.com"] });
      const body = "Launch: https://shop.example.com/new and https://elsewhere.org/x";
      const r = await post({ channels: [w.channel, linkedin], content: { body } });
      expect(r.status).toBe(201);
      const tags = (source: string) => `utm_source=${source}&utm_medium=social&utm_content=${r.body.id}`;
      // A sandbox channel tags as the network it emulates, so a test post carries what the live one would.
      expect(r.body.targets.map((x: { parts: string[] }) => x.parts[0])).toEqual([
        `Launch: https://shop.example.com/new?${tags("bluesky")} and https://elsewhere.org/x`,
        `Launch: https://shop.example.com/new?${tags("linkedin")} and https://elsewhere.org/x`,
      ]);
      expect(r.body.content).toEqual({ body });
      // A template post adds its key as utm_campaign.
      const tp = await post({ template: "release", data: { version: "3", url: "https://example.com/3" } });
      expect(tp.status).toBe(201);
      expect(tp.body.targets[0].parts).toEqual([
        `Release 3 is out: https://example.com/3?utm_source=bluesky&utm_medium=social&utm_campaign=release&utm_content=${tp.body.id}`,
      ]);
      await setBrand(w.t, w.a.testKey, w.a.brandId, { utm_domains: [] });
    });

    test("an Idempotency-Key replays the created post; another body under it is refused", async () => {
      const before = (await counts(w.t, w.a.orgId)).posts;
      const body = { brand: w.a.brandId, channels: [w.channel], content: { body: "Exactly once." } };
      const headers = { "idempotency-key": "create-once-1" };
      const first = await createPost(w.t, w.a.testKey, body, headers);
      expect(first.status).toBe(201);
      const again = await createPost(w.t, w.a.testKey, body, headers);
      expect(again.status).toBe(201);
      expect(again.headers.get("idempotent-replayed")).toBe("true");
      expect(again.body).toEqual(first.body);
      expect((await counts(w.t, w.a.orgId)).posts).toBe(before + 1);
      const other = await createPost(w.t, w.a.testKey, { ...body, content: { body: "Else." } }, headers);
      expect(other.status).toBe(409);
      expect(other.body.code).toBe("idempotency_key_reused");
      // A refused create does not keep its key: the corrected request under the same key succeeds.
      const k2 = { "idempotency-key": "create-once-2" };
      const bad = await createPost(w.t, w.a.testKey, { ...body, content: { body: "q".repeat(301) } }, k2);
      expect(bad.status).toBe(422);
      const fixed = await createPost(w.t, w.a.testKey, body, k2);
      expect(fixed.status).toBe(201);
      expect((await counts(w.t, w.a.orgId)).posts).toBe(before + 2);
    });

    test("a post's ID is new each time and the created_at is the clock's", async () => {
      w.clock.advance(5 * MIN);
      const a1 = await mustPost(w.t, w.a.testKey, {
        brand: w.a.brandId,
        channels: [w.channel],
        content: { body: "a" },
      });
      const a2 = await mustPost(w.t, w.a.testKey, {
        brand: w.a.brandId,
        channels: [w.channel],
        content: { body: "b" },
      });
      expect(a1.id).not.toBe(a2.id);
      expect(a1.created_at).toBe(iso(now + 5 * MIN));
      expect(a1.publish_at).toBe(iso(now + 5 * MIN));
      w.clock.set(now);
    });
  });
});
