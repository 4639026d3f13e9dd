import { describe, expect, test } from "bun:test";
import { PREVIEW_POST_ID } from "../../../src/domain/render/preview-id.ts";
import {
  type RenderInput,
  renderForProvider,
  renditionProblems,
  splitThread,
} from "../../../src/domain/render/render.ts";
import type { Utm } from "../../../src/domain/render/utm.ts";
import type { TemplateSource } from "../../../src/domain/templates/source.ts";
import { measure } from "../../../src/platforms/text/counting.ts";

const noUtm: Utm = { domains: [], campaign: null, postId: PREVIEW_POST_ID };
const render = (input: Partial<RenderInput> & Pick<RenderInput, "provider">) =>
  renderForProvider({ utm: noUtm, ...input });
const codes = (r: { violations: { code: string }[] }) => r.violations.map((v) => v.code);

const source = (over: Partial<TemplateSource> = {}): TemplateSource => ({
  variables: { type: "object", properties: { v: { type: "string" } }, required: ["v"] },
  examples: [{ v: "1.0" }],
  body: "Release {{.v}} is out.",
  overrides: {},
  fit: {},
  ...over,
});

describe("renderForProvider: content", () => {
  test("one part with its length, limit and counting", () => {
    expect(render({ provider: "mastodon", body: "Hello, world" })).toEqual({
      provider: "mastodon",
      parts: ["Hello, world"],
      lengths: [12],
      limit: 500,
      counting: "mastodon",
      violations: [],
    });
  });

  test("lines holding only {{thread}} start parts; explicit parts are taken as they are", () => {
    expect(splitThread("One\n\n{{thread}}\n Two\n  {{thread}} \nThree")).toEqual(["One", " Two", "Three"]);
    const r = render({ provider: "bluesky", body: "One\n{{thread}}\nTwo" });
    expect([r.parts, r.lengths]).toEqual([
      ["One", "Two"],
      [3, 3],
    ]);
    expect(render({ provider: "x", parts: ["a", "b c"] }).parts).toEqual(["a", "b c"]);
  });

  test("a provider's override replaces the body for that provider only", () => {
    const input = { body: "Long form", overrides: { x: "Short\n{{thread}}\nform" } };
    expect(render({ provider: "x", ...input }).parts).toEqual(["Short", "form"]);
    expect(render({ provider: "mastodon", ...input }).parts).toEqual(["Long form"]);
  });

  test("too long: the part, its measured length and the limit; as problems for a channel", () => {
    const r = render({ provider: "x", body: "é".repeat(281) });
    expect(r.violations).toEqual([
      {
        code: "too_long",
        message: "The text measures 281; X takes at most 280 (counting x_weighted).",
        part: 0,
        media: null,
        length: 281,
        limit: 280,
      },
    ]);
    expect(renditionProblems(r, "chan_1")).toEqual([
      {
        code: "too_long",
        message: "The text measures 281; X takes at most 280 (counting x_weighted).",
        param: "channels.chan_1",
        detail: { channel: "chan_1", provider: "x", part: 0, length: 281, limit: 280, media: null },
      },
    ]);
  });

  test("fit truncate cuts to the limit; fit thread splits within it", () => {
    const words = Array.from({ length: 120 }, (_, i) => `word${i}`).join(" ");
    const cut = render({ provider: "x", body: words, fit: { x: "truncate" } });
    expect(cut.violations).toEqual([]);
    expect(cut.parts).toHaveLength(1);
    expect(cut.lengths[0]).toBeLessThanOrEqual(280);
    expect(cut.parts[0]!.endsWith("…")).toBe(true);
    const thread = render({ provider: "x", body: words, fit: { x: "thread" } });
    expect(thread.violations).toEqual([]);
    expect(thread.parts.length).toBeGreaterThan(2);
    expect(thread.lengths.every((n) => n <= 280)).toBe(true);
    expect(thread.parts.join(" ")).toBe(words);
    expect(codes(render({ provider: "x", body: words, fit: { mastodon: "thread" } }))).toEqual(["too_long"]);
  });

  test("threads where the network has none, threads too long, empty text", () => {
    expect(codes(render({ provider: "linkedin", body: "a\n{{thread}}\nb" }))).toEqual([
      "threads_unsupported",
    ]);
    const many = Array.from({ length: 26 }, (_, i) => `part ${i}`);
    const long = render({ provider: "bluesky", parts: many });
    expect(long.violations[0]).toMatchObject({ code: "thread_too_long", length: 26, limit: 25 });
    expect(codes(render({ provider: "mastodon", body: "  " }))).toEqual(["empty"]);
    expect(codes(render({ provider: "mastodon", body: "", mediaCount: 1 }))).toEqual([]);
  });

  test("media: required, too much, and the shorter caption limit of the part carrying it", () => {
    expect(codes(render({ provider: "instagram", body: "Look" }))).toEqual(["media_required"]);
    expect(render({ provider: "x", body: "Look", mediaCount: 5 }).violations[0]).toMatchObject({
      code: "too_much_media",
      length: 5,
      limit: 4,
    });
    const caption = render({ provider: "telegram", body: "c".repeat(1500), mediaCount: 1 });
    expect(caption.limit).toBe(1024);
    expect(caption.violations[0]).toMatchObject({ code: "too_long", length: 1500, limit: 1024 });
    expect(render({ provider: "telegram", body: "c".repeat(1500) }).violations).toEqual([]);
  });

  test("a sandbox channel is checked as the provider it emulates (bluesky by default)", () => {
    const r = render({ provider: "sandbox", emulates: "mastodon", body: "m".repeat(501) });
    expect([r.provider, r.limit, r.counting, codes(r)]).toEqual(["sandbox", 500, "mastodon", ["too_long"]]);
    const d = render({ provider: "sandbox", body: "b".repeat(301) });
    expect([d.limit, d.counting, codes(d)]).toEqual([300, "bluesky", ["too_long"]]);
    // The emulated provider's override and fit apply too, so a test post reads as the live one would.
    const o = render({
      provider: "sandbox",
      emulates: "x",
      body: "w ".repeat(200),
      overrides: { x: "For X" },
      fit: { x: "thread" },
    });
    expect(o.parts).toEqual(["For X"]);
    expect(
      render({ provider: "sandbox", emulates: "x", body: "w ".repeat(200), fit: { x: "thread" } }).parts
        .length,
    ).toBe(2);
  });
});

describe("renderForProvider: UTM tagging before measuring", () => {
  const utm: Utm = { domains: ["example.com"], campaign: null, postId: PREVIEW_POST_ID };
  const text = `${"x".repeat(440)} https://example.com/a`;

  test("the tagged text is what is measured, so tagging can push a text over the limit", () => {
    const plain = render({ provider: "threads", body: text });
    expect([plain.lengths, plain.violations]).toEqual([[462], []]);
    const tagged = render({ provider: "threads", body: text, utm });
    const expected = `${text}?utm_source=threads&utm_medium=social&utm_content=${PREVIEW_POST_ID}`;
    expect(tagged.parts).toEqual([expected]);
    expect(tagged.lengths).toEqual([expected.length]);
    expect(tagged.violations[0]).toMatchObject({ code: "too_long", length: expected.length, limit: 500 });
  });

  test("networks that count a link as 23, or shorten it, measure the tagged link their way", () => {
    const x = render({ provider: "x", body: "New: https://example.com/a", utm });
    expect(x.parts[0]).toContain("utm_source=x");
    expect(x.lengths).toEqual([5 + 23]);
    const b = render({ provider: "bluesky", body: "New: https://example.com/a", utm });
    expect(b.lengths).toEqual([measure(b.parts[0]!, "bluesky")]);
    expect(b.lengths[0]).toBe("New: example.com/a?utm_source...".length);
  });

  test("every part of a thread is tagged; a sandbox tags as the network it emulates", () => {
    const r = render({
      provider: "mastodon",
      body: "https://example.com/1\n{{thread}}\nhttps://www.example.com/2",
      utm,
    });
    expect(r.parts.every((p) => p.includes("utm_source=mastodon&utm_medium=social"))).toBe(true);
    const s = render({ provider: "sandbox", emulates: "threads", body: "https://example.com/", utm });
    expect(s.parts[0]).toContain("utm_source=threads");
  });

  test("fit truncate never cuts the tagged link", () => {
    const r = render({ provider: "threads", body: text, utm, fit: { threads: "truncate" } });
    expect(r.violations).toEqual([]);
    expect(r.parts[0]).toBe(`${"x".repeat(440)}…`);
  });
});

describe("renderForProvider: templates", () => {
  test("renders the body, or the provider's override, with the data", () => {
    const s = source({ overrides: { x: "v{{.v}}\n{{thread}}\nmore" } });
    expect(render({ provider: "mastodon", template: { source: s, data: { v: "2.0" } } }).parts).toEqual([
      "Release 2.0 is out.",
    ]);
    expect(render({ provider: "x", template: { source: s, data: { v: "2.0" } } }).parts).toEqual([
      "v2.0",
      "more",
    ]);
  });

  test("the template's fit applies unless the input names one for the provider", () => {
    const s = source({ body: "{{.v}}", fit: { x: "truncate" } });
    const long = { v: "word ".repeat(100) };
    expect(render({ provider: "x", template: { source: s, data: long } }).parts).toHaveLength(1);
    expect(render({ provider: "x", template: { source: s, data: long } }).violations).toEqual([]);
    const t = render({ provider: "x", template: { source: s, data: long }, fit: { x: "thread" } });
    expect(t.parts.length).toBe(2);
  });

  test("a template's fit thread never cuts either: too many parts is thread_too_long with both counts", () => {
    const s = source({ body: "{{.v}}", fit: { bluesky: "thread" } });
    const words = Array.from({ length: 2000 }, (_, i) => `w${i}`).join(" "); // about 12,000 characters
    const r = render({ provider: "bluesky", template: { source: s, data: { v: words } } });
    expect(r.parts.join(" ")).toBe(words);
    expect(r.parts.length).toBeGreaterThan(25);
    expect(codes(r)).toEqual(["thread_too_long"]);
    const [p] = renditionProblems(r, "chan_1");
    expect(p!.detail).toMatchObject({ parts_needed: r.parts.length, parts_allowed: 25, part: null });
    expect(p!.message).toBe(
      `Bluesky takes at most 25 parts in a thread; this post needs ${r.parts.length}. Shorten it, or choose fit "truncate" to cut it.`,
    );
  });

  test("the campaign is the template key when the caller gives it", () => {
    const utm: Utm = {
      domains: ["example.com"],
      campaign: "release",
      postId: "post_0123456789abcdefghjkmnpqrs",
    };
    const s = source({ body: "https://example.com/{{.v}}" });
    expect(render({ provider: "bluesky", template: { source: s, data: { v: "v1" } }, utm }).parts).toEqual([
      "https://example.com/v1?utm_source=bluesky&utm_medium=social&utm_campaign=release&utm_content=post_0123456789abcdefghjkmnpqrs",
    ]);
  });

  test("a value that cannot be printed is render_failed; output over 64 KiB is output_too_large", () => {
    const s = source({ variables: { type: "object" }, body: "{{.v}}" });
    const failed = render({ provider: "mastodon", template: { source: s, data: { v: { a: 1 } } } });
    expect([failed.parts, codes(failed)]).toEqual([[], ["render_failed"]]);
    expect(failed.violations[0]!.message).toContain("`.v` at line 1, column 1 cannot be printed");
    const big = source({ variables: { type: "object" }, body: "{{.v}}{{.v}}{{.v}}" });
    const huge = render({ provider: "mastodon", template: { source: big, data: { v: "x".repeat(30_000) } } });
    expect(codes(huge)).toEqual(["output_too_large"]);
    const inOverride = render({
      provider: "x",
      template: {
        source: source({ variables: { type: "object" }, overrides: { x: "{{.v}}" } }),
        data: { v: [{}] },
      },
    });
    expect(inOverride.violations[0]!.message.startsWith("`overrides.x`:")).toBe(true);
  });

  test("rendering is quick enough to run for every channel of every post", () => {
    const s = source({ body: "Release {{.v}}: https://example.com/r/{{.v}}\n{{thread}}\nNotes follow." });
    const utm: Utm = { domains: ["example.com"], campaign: "release", postId: PREVIEW_POST_ID };
    const started = performance.now();
    for (let i = 0; i < 2000; i++)
      renderForProvider({
        provider: "bluesky",
        template: { source: s, data: { v: `1.${i % 10}` } },
        utm,
        fit: {},
      });
    // About 40 µs each on a laptop; the bound is loose so a slow CI machine passes, a regression to re-parsing
    // or quadratic work does not.
    expect(performance.now() - started).toBeLessThan(2000);
  });
});
