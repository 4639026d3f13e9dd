import { describe, expect, test } from "bun:test";
import { measure } from "../../src/platforms/text/counting.ts";

const FAMILY = "👨‍👩‍👧‍👦"; // 7 code points joined by ZWJ
const FLAG = "🇯🇵"; // two regional indicators
const THUMB = "👍🏽"; // emoji + skin tone
const E_ACUTE = "e\u0301"; // e + combining acute
const LONG_URL = "https://example.com/articles/2024/05/a-very-long-slug-for-an-article?utm_source=x";

describe("characters: Unicode code points", () => {
  test.each([
    ["hello", 5],
    [FAMILY, 7],
    [FLAG, 2],
    [THUMB, 2],
    [E_ACUTE, 2],
    ["日本語", 3],
    ["𝐀", 1], // one code point outside the BMP, two UTF-16 units
  ])("%p is %p", (text, n) => expect(measure(text, "characters")).toBe(n));

  test("links count in full", () => {
    expect(measure(`a ${LONG_URL}`, "characters")).toBe(2 + LONG_URL.length);
  });
});

describe("graphemes: what a reader sees as one character", () => {
  test.each([
    ["hello", 5],
    [FAMILY, 1],
    [FLAG, 1],
    [`${FLAG}${FLAG}`, 2],
    [THUMB, 1],
    [E_ACUTE, 1],
    ["日本語", 3],
    ["1️⃣", 1],
  ])("%p is %p", (text, n) => expect(measure(text, "graphemes")).toBe(n));
});

describe("x_weighted: twitter-text v3", () => {
  test("Latin letters weigh 1 and CJK 2", () => {
    expect(measure("hello", "x_weighted")).toBe(5);
    expect(measure("日本語", "x_weighted")).toBe(6);
    expect(measure("한국어", "x_weighted")).toBe(6);
    expect(measure("a日", "x_weighted")).toBe(3);
  });

  test("140 CJK characters fill a 280 tweet", () => {
    expect(measure("あ".repeat(140), "x_weighted")).toBe(280);
  });

  test("the light ranges around U+2000 weigh 1, their neighbours 2", () => {
    expect(measure("\u2014", "x_weighted")).toBe(1); // em dash, in 2010-201F
    expect(measure("\u201C\u201D", "x_weighted")).toBe(2); // curly quotes
    expect(measure("\u2032", "x_weighted")).toBe(1); // prime, in 2032-2037
    expect(measure("\u2026", "x_weighted")).toBe(2); // ellipsis is past 201F
    expect(measure("\u20AC", "x_weighted")).toBe(2); // euro sign
    expect(measure("\u10FF\u1100", "x_weighted")).toBe(3); // last light code point, first Hangul Jamo
  });

  test("an emoji weighs 2 however many code points it joins", () => {
    expect(measure("👍", "x_weighted")).toBe(2);
    expect(measure(THUMB, "x_weighted")).toBe(2);
    expect(measure(FAMILY, "x_weighted")).toBe(2);
    expect(measure(FLAG, "x_weighted")).toBe(2);
    expect(measure("🏳️‍🌈", "x_weighted")).toBe(2);
  });

  test("combining marks are composed first (NFC)", () => {
    expect(measure(E_ACUTE, "x_weighted")).toBe(1);
  });

  test("every link weighs 23, with or without a scheme, short or long", () => {
    expect(measure("https://t.co", "x_weighted")).toBe(23);
    expect(measure(LONG_URL, "x_weighted")).toBe(23);
    expect(measure("see example.com/a.", "x_weighted")).toBe(4 + 23 + 1);
  });
});

describe("mastodon: code points, links 23, remote mentions without their domain", () => {
  test("plain text counts code points", () => {
    expect(measure("héllo 日本", "mastodon")).toBe(8);
    expect(measure(FAMILY, "mastodon")).toBe(7);
  });

  test("a link written with its scheme counts 23", () => {
    expect(measure(LONG_URL, "mastodon")).toBe(23);
    expect(measure("http://a.co", "mastodon")).toBe(23);
    expect(measure(`x ${LONG_URL}!`, "mastodon")).toBe(2 + 23 + 1);
  });

  test("a bare domain is not linked by Mastodon and counts as written", () => {
    expect(measure("example.com/about", "mastodon")).toBe(17);
  });

  test("@user@domain counts as @user; a local mention counts in full", () => {
    expect(measure("hi @alice@mastodon.social", "mastodon")).toBe(9);
    expect(measure("hi @alice", "mastodon")).toBe(9);
    expect(measure("mail bob@example.com", "mastodon")).toBe(20);
  });
});

describe("bluesky: graphemes after links are shortened", () => {
  test("a link shows as host and path, the scheme dropped", () => {
    expect(measure("https://example.com/about", "bluesky")).toBe("example.com/about".length);
    expect(measure("https://example.com/", "bluesky")).toBe("example.com".length);
  });

  test("a path longer than 15 is cut to 13 and ...", () => {
    // example.com + "/articles/202" + "..."
    expect(measure(LONG_URL, "bluesky")).toBe(11 + 13 + 3);
  });

  test("a path of exactly 15 stays whole", () => {
    expect(measure("https://example.com/abcdefghijklmn", "bluesky")).toBe(11 + 15);
  });

  test("trailing punctuation after a link is text, not link", () => {
    expect(measure("https://example.com/about.", "bluesky")).toBe(17 + 1);
  });

  test("emoji, flags and ZWJ sequences are one each", () => {
    expect(measure(`${FAMILY}${FLAG}${THUMB}${E_ACUTE}`, "bluesky")).toBe(4);
  });
});
