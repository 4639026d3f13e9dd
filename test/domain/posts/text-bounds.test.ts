// A post's own text is at most 64 KiB (body, the parts together, each override), like a template's rendered
// output: longer text is output_too_large before any rendering, and nothing is stored.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { describeEachDialect } from "../../helpers/db.ts";
import { codes, createPost, type World, world } from "./helpers.ts";

const LIMIT = 64 * 1024;

describeEachDialect("post text over 64 KiB", (dialect) => {
  let w: World;
  beforeAll(async () => {
    w = await world(dialect);
  });
  afterAll(() => w.t.close());
  const post = (content: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
    createPost(w.t, w.a.testKey, { brand: w.a.brandId, channels: [w.channel], content, ...extra });

  test("a body, the parts together, or an override over 64 KiB is output_too_large, naming it", async () => {
    const over = "x".repeat(LIMIT + 1);
    const r1 = await post({ body: over });
    expect(r1.status).toBe(422);
    expect(codes(r1)).toEqual(["output_too_large content.body"]);
    expect(r1.body.errors[0].message).toContain(`${LIMIT + 1} bytes of UTF-8, over the limit of ${LIMIT}`);

    const half = "y".repeat(LIMIT / 2);
    const r2 = await post({ parts: [half, half, "z"] });
    expect(codes(r2)).toEqual(["output_too_large content.parts"]);

    const r3 = await post({ body: "Hello", overrides: { bluesky: over } }, { overrides: { mastodon: over } });
    expect(codes(r3)).toEqual([
      "output_too_large content.overrides.bluesky",
      "output_too_large overrides.mastodon",
    ]);

    // UTF-8 bytes, not characters: 16,385 four-byte emoji are 65,540 bytes.
    const r4 = await post({ body: "😀".repeat(LIMIT / 4 + 1) });
    expect(codes(r4)).toEqual(["output_too_large content.body"]);

    const stored = await w.t.request("GET", "/v1/posts", { key: w.a.testKey });
    expect(stored.body.data).toEqual([]);
  });

  test("64 KiB exactly is measured against the network's rules as usual", async () => {
    const r = await w.t.request("POST", "/v1/posts/preview", {
      key: w.a.testKey,
      body: { brand: w.a.brandId, channels: [w.channel], content: { body: "http://a.b/ ".repeat(5461) } },
    });
    expect(r.status).toBe(200);
    expect(r.body.valid).toBe(false);
  });
});
