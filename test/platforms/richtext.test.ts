import { describe, expect, test } from "bun:test";
import { blueskyFacets, shortenLink } from "../../src/platforms/bluesky/richtext.ts";

describe("shortenLink", () => {
  test.each([
    ["https://example.com", "example.com"],
    ["https://example.com/", "example.com"],
    ["http://example.com/about", "example.com/about"],
    ["https://example.com/?q=1", "example.com?q=1"],
    ["https://www.example.com/articles/2024/long", "www.example.com/articles/202..."],
    ["https://user:pw@example.com/a", "example.com/a"],
    ["example.com/abc", "example.com/abc"],
    ["https://例え.jp/パス", "例え.jp/パス"],
  ])("%p shows as %p", (url, short) => expect(shortenLink(url)).toBe(short));
});

describe("blueskyFacets", () => {
  test("text without links or tags has no facets", () => {
    expect(blueskyFacets("just words")).toEqual({ text: "just words", facets: [] });
  });

  test("a shortened link keeps the full URL in its facet, at UTF-8 byte offsets after an emoji", () => {
    const url = "https://example.com/articles/2024/05/slug";
    const rt = blueskyFacets(`🎉 read ${url}.`);
    // 🎉 is 4 bytes in UTF-8 (2 UTF-16 units), " read " 6 more.
    expect(rt.text).toBe("🎉 read example.com/articles/202....");
    expect(rt.facets).toEqual([
      {
        index: { byteStart: 10, byteEnd: 37 },
        features: [{ $type: "app.bsky.richtext.facet#link", uri: url }],
      },
    ]);
    const bytes = new TextEncoder().encode(rt.text);
    expect(new TextDecoder().decode(bytes.slice(10, 37))).toBe("example.com/articles/202...");
  });

  test("hashtags get tag facets without the #, trailing punctuation left out", () => {
    const rt = blueskyFacets("Launch day! #news, #日本 #2024 and#not");
    expect(rt.facets).toEqual([
      {
        index: { byteStart: 12, byteEnd: 17 },
        features: [{ $type: "app.bsky.richtext.facet#tag", tag: "news" }],
      },
      {
        index: { byteStart: 19, byteEnd: 26 },
        features: [{ $type: "app.bsky.richtext.facet#tag", tag: "日本" }],
      },
    ]);
  });

  test("facets come in text order, links and tags mixed, and offsets count the shortened text", () => {
    const rt = blueskyFacets("#a https://example.com/a-long-path-to-shorten #b");
    expect(rt.text).toBe("#a example.com/a-long-path-... #b");
    expect(rt.facets.map((f) => [f.index.byteStart, f.index.byteEnd, f.features[0]?.$type])).toEqual([
      [0, 2, "app.bsky.richtext.facet#tag"],
      [3, 30, "app.bsky.richtext.facet#link"],
      [31, 33, "app.bsky.richtext.facet#tag"],
    ]);
  });

  test("a bare domain is linked over https", () => {
    const rt = blueskyFacets("at example.com");
    expect(rt.facets[0]?.features[0]).toEqual({
      $type: "app.bsky.richtext.facet#link",
      uri: "https://example.com",
    });
  });
});
