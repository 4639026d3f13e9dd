import { describe, expect, test } from "bun:test";
import { findLinks } from "../../src/platforms/text/links.ts";

describe("findLinks", () => {
  test("a link with a scheme, and the full stop after it left out", () => {
    expect(findLinks("Read https://example.com/a/b. Then stop.")).toEqual([
      {
        start: 5,
        end: 28,
        text: "https://example.com/a/b",
        url: "https://example.com/a/b",
        schemeless: false,
      },
    ]);
  });

  test("trailing .,;:!?)] are not part of a link", () => {
    for (const tail of [".", ",", ";", ":", "!", "?", ")", "]", "?!", ")."]) {
      const [link] = findLinks(`go https://example.com/x${tail}`);
      expect(link?.text).toBe("https://example.com/x");
    }
  });

  test("a link in parentheses ends before the closing one", () => {
    expect(findLinks("(see https://example.com/a)").map((l) => l.text)).toEqual(["https://example.com/a"]);
  });

  test("a bracket opened inside the link is kept closed", () => {
    expect(findLinks("https://en.wikipedia.org/wiki/Go_(game).").map((l) => l.text)).toEqual([
      "https://en.wikipedia.org/wiki/Go_(game)",
    ]);
  });

  test("bare domains with a real top-level domain are links, addressed over https", () => {
    expect(findLinks("visit example.com/shop or foo.notatld")).toEqual([
      { start: 6, end: 22, text: "example.com/shop", url: "https://example.com/shop", schemeless: true },
    ]);
  });

  test("mail addresses and other schemes are plain text", () => {
    expect(findLinks("mail a@example.com, mailto:a@example.com, ftp://example.com/f")).toEqual([]);
  });

  test("offsets are UTF-16 indexes, so an emoji before a link counts two", () => {
    const text = "🎉 https://example.com";
    const [link] = findLinks(text);
    expect(link?.start).toBe(3);
    expect(text.slice(link!.start, link!.end)).toBe("https://example.com");
  });
});
