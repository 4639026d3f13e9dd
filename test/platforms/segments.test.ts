// Grapheme counting: the plain-ASCII shortcut agrees with the segmenter.
import { describe, expect, test } from "bun:test";
import { graphemeCount } from "../../src/platforms/text/segments.ts";

const segmenter = new Intl.Segmenter("und", { granularity: "grapheme" });
const slow = (s: string) => [...segmenter.segment(s)].length;

describe("graphemeCount", () => {
  test("plain ASCII with line feeds counts as the segmenter does", () => {
    const alphabet = "abcXYZ019 .,;:!?'\"()[]{}<>/\\@#$%^&*-_=+~`|\n";
    for (let i = 0; i < 500; i++) {
      const s = Array.from({ length: i % 97 }, (_, k) => alphabet[(i * 31 + k * 7) % alphabet.length]).join(
        "",
      );
      expect(graphemeCount(s)).toBe(slow(s));
    }
  });

  test("CR LF, emoji, flags and combining marks go to the segmenter", () => {
    for (const s of ["a\r\nb", "👍🏽", "🇩🇪🇫🇷", "e\u0301", "👨‍👩‍👧", "tab\there"])
      expect(graphemeCount(s)).toBe(slow(s));
    expect(graphemeCount("a\r\nb")).toBe(3);
    expect(graphemeCount("👨‍👩‍👧")).toBe(1);
  });
});
