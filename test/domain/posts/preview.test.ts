// POST /v1/posts/preview: what each channel would receive and every rule it breaks, without creating anything.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { describeEachDialect } from "../../helpers/db.ts";
import { schemaErrors } from "../../helpers/schemas.ts";
import { codes, type World, world } from "./helpers.ts";

describeEachDialect("POST /v1/posts/preview", (dialect) => {
  let w: World;
  let linkedin: string;
  beforeAll(async () => {
    w = await world(dialect);
    const r = await w.t.request("POST", "/v1/channels", {
      key: w.a.testKey,
      body: { brand: w.a.brandId, provider: "sandbox", emulates: "linkedin" },
    });
    linkedin = r.body.id;
  });
  afterAll(() => w.t.close());

  const count = async (table: "posts" | "post_targets") =>
    Number(
      (
        await w.t.app.db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<number>().as("n"))
          .executeTakeFirstOrThrow()
      ).n,
    );

  test("a text that fits every channel is valid, with each channel's parts, lengths and limits", async () => {
    const r = await w.t.request("POST", "/v1/posts/preview", {
      key: w.a.testKey,
      body: { brand: w.a.brandId, content: { body: "Hello 👋🏽 world" } },
    });
    expect(r.status).toBe(200);
    expect(schemaErrors("Preview", r.body)).toBe("");
    expect(r.body.valid).toBe(true);
    const byChannel = Object.fromEntries(r.body.renditions.map((x: { channel: string }) => [x.channel, x]));
    expect(byChannel[w.channel]).toMatchObject({
      provider: "sandbox",
      parts: ["Hello 👋🏽 world"],
      lengths: [13],
      limit: 300,
      counting: "bluesky",
      violations: [],
    });
    expect(byChannel[linkedin]).toMatchObject({
      parts: ["Hello 👋🏽 world"],
      limit: 3000,
      counting: "characters",
      violations: [],
    });
  });

  test("broken rules are listed per channel in the answer, not as an error, and nothing is written", async () => {
    const before = [await count("posts"), await count("post_targets")];
    const body = `${"a".repeat(301)}\n{{thread}}\nsecond part`;
    const r = await w.t.request("POST", "/v1/posts/preview", {
      key: w.a.testKey,
      body: { brand: w.a.brandId, content: { body } },
    });
    expect(r.status).toBe(200);
    expect(r.body.valid).toBe(false);
    const byChannel = Object.fromEntries(
      r.body.renditions.map(
        (x: {
          channel: string;
          violations: { code: string; part: number; length: number; limit: number }[];
        }) => [x.channel, x.violations],
      ),
    );
    expect(byChannel[w.channel]).toEqual([
      expect.objectContaining({ code: "too_long", part: 0, length: 301, limit: 300 }),
    ]);
    expect(byChannel[linkedin].map((v: { code: string }) => v.code)).toEqual(["threads_unsupported"]);
    expect([await count("posts"), await count("post_targets")]).toEqual(before);
  });

  test("fit thread turns an over-long text into parts that fit, as the post would be", async () => {
    const r = await w.t.request("POST", "/v1/posts/preview", {
      key: w.a.testKey,
      body: {
        brand: w.a.brandId,
        channels: [w.channel],
        content: { body: "word ".repeat(120).trim(), fit: { bluesky: "thread" } },
      },
    });
    const [rendition] = r.body.renditions;
    expect(rendition.violations).toEqual([]);
    expect(rendition.parts.length).toBe(2);
    expect(rendition.parts.join(" ").split(" ")).toHaveLength(120);
    expect(rendition.lengths.every((n: number) => n <= 300)).toBe(true);
  });

  test("fit thread past the thread limit previews as invalid with every part, none cut", async () => {
    const body = Array.from({ length: 2500 }, (_, i) => `w${i}`.padEnd(7, "x"))
      .join(" ")
      .slice(0, 20_000);
    const r = await w.t.request("POST", "/v1/posts/preview", {
      key: w.a.testKey,
      body: { brand: w.a.brandId, channels: [w.channel], content: { body, fit: { bluesky: "thread" } } },
    });
    expect(r.status).toBe(200);
    expect(r.body.valid).toBe(false);
    const [rendition] = r.body.renditions;
    expect(rendition.parts.join(" ")).toBe(body.trim());
    expect(rendition.violations).toMatchObject([
      { code: "thread_too_long", length: rendition.parts.length, limit: 25 },
    ]);
  });

  test("a request that cannot be rendered is a 422 as for a create", async () => {
    const r = await w.t.request("POST", "/v1/posts/preview", {
      key: w.a.testKey,
      body: { brand: w.a.brandId, template: "nope" },
    });
    expect(r.status).toBe(422);
    expect(codes(r)).toContain("template_missing template");
    const ch = await w.t.request("POST", "/v1/posts/preview", {
      key: w.a.testKey,
      body: { brand: w.a.brandId, content: { body: "x" }, channels: ["chan_bad"] },
    });
    expect(codes(ch)[0]).toMatch(/^channel_invalid channels\.0/);
  });

  test("a read-only org can still preview (it changes nothing)", async () => {
    await w.t.app.db.updateTable("orgs").set({ status: "read_only" }).where("id", "=", w.a.orgId).execute();
    try {
      const r = await w.t.request("POST", "/v1/posts/preview", {
        key: w.a.testKey,
        body: { brand: w.a.brandId, content: { body: "Still fine" } },
      });
      expect(r.status).toBe(200);
      const c = await w.t.request("POST", "/v1/posts", {
        key: w.a.testKey,
        body: { brand: w.a.brandId, content: { body: "Not this" } },
      });
      expect([c.status, c.body.code]).toEqual([403, "org_read_only"]);
    } finally {
      await w.t.app.db.updateTable("orgs").set({ status: "active" }).where("id", "=", w.a.orgId).execute();
    }
  });
});
