import { describe, expect, test } from "bun:test";
import { getPlatform, platforms } from "../../src/platforms/rules-registry.ts";
import { measure } from "../../src/platforms/text/counting.ts";
import { applyFit, checkParts, partLimit } from "../../src/platforms/text/fit.ts";
import type { PlatformRules } from "../../src/platforms/types.ts";

const rules = (p: string): PlatformRules => getPlatform(p)!;
const codes = (v: { code: string }[]) => v.map((x) => x.code);

describe("checkParts", () => {
  test("text within the limit breaks nothing", () => {
    expect(checkParts(rules("bluesky"), ["Hello"], 0)).toEqual([]);
  });

  test("too long names the part, its measured length and the limit", () => {
    const [v] = checkParts(rules("x"), ["ok", "日".repeat(141)], 0);
    expect(v).toMatchObject({ code: "too_long", part: 1, length: 282, limit: 280, media: null });
  });

  test("exactly at the limit fits", () => {
    expect(checkParts(rules("x"), ["a".repeat(280)], 0)).toEqual([]);
  });

  test("telegram's caption limit applies to the part with media", () => {
    const text = "a".repeat(2000);
    expect(checkParts(rules("telegram"), [text], 0)).toEqual([]);
    expect(checkParts(rules("telegram"), [text], 1)).toMatchObject([
      { code: "too_long", length: 2000, limit: 1024 },
    ]);
    expect(partLimit(rules("telegram"), 0, 1)).toBe(1024);
    expect(partLimit(rules("telegram"), 0, 0)).toBe(4096);
  });

  test("threads on a platform without them", () => {
    expect(checkParts(rules("linkedin"), ["one", "two"], 0)).toMatchObject([
      { code: "threads_unsupported", part: null, length: 2, limit: 1 },
    ]);
  });

  test("more parts than the thread limit", () => {
    const parts = Array.from({ length: 26 }, (_, i) => `part ${i}`);
    expect(checkParts(rules("bluesky"), parts, 0)).toMatchObject([
      { code: "thread_too_long", length: 26, limit: 25 },
    ]);
  });

  test("no text and no media is empty; media alone is fine", () => {
    expect(codes(checkParts(rules("bluesky"), [""], 0))).toEqual(["empty"]);
    expect(codes(checkParts(rules("bluesky"), [], 0))).toEqual(["empty"]);
    expect(checkParts(rules("bluesky"), [""], 1)).toEqual([]);
    expect(checkParts(rules("bluesky"), ["one", "  "], 0)).toMatchObject([{ code: "empty", part: 1 }]);
  });

  test("media required, and too much media", () => {
    expect(codes(checkParts(rules("instagram"), ["caption"], 0))).toEqual(["media_required"]);
    expect(checkParts(rules("bluesky"), ["four is the most"], 5)).toMatchObject([
      { code: "too_much_media", length: 5, limit: 4 },
    ]);
    expect(codes(checkParts(rules("discord"), ["ten files"], 11))).toEqual(["too_much_media"]);
  });

  test("every broken rule is listed at once", () => {
    expect(codes(checkParts(rules("pinterest"), ["a".repeat(801), "b"], 0))).toEqual([
      "threads_unsupported",
      "media_required",
      "too_long",
    ]);
  });
});

describe("applyFit", () => {
  const long = "The quick brown fox jumps over the lazy dog. ".repeat(10).trim(); // 449 characters

  test("error leaves the text alone", () => {
    expect(applyFit([long], rules("bluesky"), "error")).toEqual([long]);
  });

  test("truncate cuts after a whole word and ends with an ellipsis that fits", () => {
    const [out] = applyFit([long], rules("bluesky"), "truncate");
    expect(out).toBe(`${long.slice(0, 296).trimEnd()}…`);
    expect(out?.endsWith("fox jumps…")).toBe(true);
    expect(measure(out!, "bluesky")).toBe(296); // 6 sentences (270) + "The quick brown fox jumps" (25) + "…"
  });

  test("truncate leaves parts that fit unchanged", () => {
    expect(applyFit(["short", long], rules("x"), "truncate")[0]).toBe("short");
  });

  test("truncate measures the way the network does: X counts CJK double", () => {
    const [out] = applyFit(["日".repeat(200)], rules("x"), "truncate");
    // 139 CJK characters (278) plus the ellipsis, which X weighs 2.
    expect(out).toBe(`${"日".repeat(139)}…`);
    expect(measure(out!, "x_weighted")).toBe(280);
  });

  test("truncate never cuts a link in half", () => {
    const url = "https://example.com/a/really/long/path/that/would/be/cut";
    const text = `${"word ".repeat(55)}${url} tail`;
    const [out] = applyFit([text], rules("linkedin"), "truncate");
    expect(out).toBe(text); // fits within 3000
    const [short] = applyFit([text], { ...rules("linkedin"), max_length: 300 }, "truncate");
    expect(short).toBe(`${"word ".repeat(55).trimEnd()}…`);
  });

  test("truncate keeps whole graphemes", () => {
    const family = "👨‍👩‍👧‍👦";
    const [out] = applyFit([family.repeat(10)], { ...rules("bluesky"), max_length: 5 }, "truncate");
    expect(out).toBe(`${family.repeat(4)}…`);
  });

  test("thread splits at sentence ends into parts that each fit", () => {
    const out = applyFit([long], rules("bluesky"), "thread");
    expect(out).toEqual([
      "The quick brown fox jumps over the lazy dog. ".repeat(6).trim(),
      "The quick brown fox jumps over the lazy dog. ".repeat(4).trim(),
    ]);
    for (const p of out) expect(measure(p, "bluesky")).toBeLessThanOrEqual(300);
  });

  test("thread falls back to word ends when there is no sentence to end", () => {
    const words = "lorem ipsum dolor sit amet ".repeat(20).trim();
    const out = applyFit([words], { ...rules("bluesky"), max_length: 100 }, "thread");
    expect(out.length).toBe(6);
    for (const p of out) {
      expect(measure(p, "bluesky")).toBeLessThanOrEqual(100);
      expect(p).toMatch(/^\S.*\S$/);
    }
    expect(out.join(" ")).toBe(words);
  });

  test("thread never splits a link", () => {
    const url = "https://example.com/0123456789/0123456789/0123456789";
    const text = `${"a".repeat(30)} ${url} ${"b".repeat(30)}`;
    const out = applyFit([text], { ...rules("mastodon"), max_length: 60 }, "thread");
    expect(out).toEqual([`${"a".repeat(30)} ${url}`, "b".repeat(30)]);
    expect(measure(out[0]!, "mastodon")).toBe(54);
  });

  test("thread keeps parts the author split and splits only the long one", () => {
    const out = applyFit(["intro", long], rules("bluesky"), "thread");
    expect(out.length).toBe(3);
    expect(out[0]).toBe("intro");
  });

  test("thread never cuts text: past the thread limit it keeps every part and the check reports the count", () => {
    const text = "one two three four five six seven eight nine ten";
    const small = { ...rules("bluesky"), max_length: 10, max_thread_parts: 3 };
    const out = applyFit([text], small, "thread");
    expect(out).toEqual(["one two", "three four", "five six", "seven", "eight nine", "ten"]);
    expect(checkParts(small, out, 0)).toMatchObject([{ code: "thread_too_long", length: 6, limit: 3 }]);
  });

  test("thread on every network with a part limit: a text needing more parts loses nothing and is refused", () => {
    // The case: 20,000 characters to Bluesky once came out as 25 parts holding 7,476, the last ending
    // in "…". Every network that threads is held to the same rule.
    const limited = platforms.filter((p) => p.threads && p.max_thread_parts !== null);
    expect(limited.map((p) => p.provider).sort()).toEqual(["bluesky", "gab", "mastodon", "threads", "x"]);
    for (const r of limited) {
      // Words of 6 characters and a space: more than two full parts beyond the limit.
      const count = Math.ceil((r.max_length! * (r.max_thread_parts! + 2)) / 6);
      const words = Array.from({ length: count }, (_, i) => String(i).padStart(6, "0")).join(" ");
      const out = applyFit([words], r, "thread");
      expect(out.join(" ")).toBe(words);
      expect(out.some((p) => p.endsWith("…"))).toBe(false);
      expect(out.length).toBeGreaterThan(r.max_thread_parts!);
      expect(checkParts(r, out, 0)).toMatchObject([
        { code: "thread_too_long", length: out.length, limit: r.max_thread_parts },
      ]);
    }
  });

  test("thread keeps parts the author split when they already use up the thread limit", () => {
    const parts = Array.from({ length: 25 }, (_, i) => `part ${i}`);
    const out = applyFit([...parts, "a ".repeat(400).trim()], rules("bluesky"), "thread");
    expect(out.slice(0, 25)).toEqual(parts);
    expect(out.slice(25).join(" ")).toBe("a ".repeat(400).trim());
    expect(codes(checkParts(rules("bluesky"), out, 0))).toEqual(["thread_too_long"]);
  });

  test("thread on a long text fills each part as far as it fits", () => {
    const sentence = "Sentence number one is here. ";
    const text = sentence.repeat(200).trim(); // 5799 characters
    const out = applyFit([text], rules("mastodon"), "thread");
    // 17 sentences (492 characters) fit in 500; 200 sentences make 12 parts.
    expect(out.length).toBe(12);
    expect(out[0]).toBe(sentence.repeat(17).trim());
    expect(out.join(" ")).toBe(text);
  });

  test("links that X counts 23 each let a part hold far more than 280 written characters", () => {
    const url = `https://example.com/${"p".repeat(80)}`;
    const text = Array.from({ length: 20 }, () => url).join(" "); // 20 links: 20 × 23 + 19 spaces
    const out = applyFit([text], rules("x"), "thread");
    // 11 links and 10 spaces weigh 263; a 12th would make 287.
    expect(out.map((p) => p.split(" ").length)).toEqual([11, 9]);
    expect(measure(out[0]!, "x_weighted")).toBe(263);
  });

  test("thread on a platform without threads changes nothing", () => {
    const text = "a".repeat(3500);
    expect(applyFit([text], rules("linkedin"), "thread")).toEqual([text]);
  });

  test("truncate uses telegram's caption limit for the part that carries media", () => {
    const out = applyFit(["a ".repeat(1000).trim()], rules("telegram"), "truncate", 1);
    expect(measure(out[0]!, "characters")).toBeLessThanOrEqual(1024);
    expect(out[0]?.endsWith("a…")).toBe(true);
  });
});
