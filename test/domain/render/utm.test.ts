import { describe, expect, test } from "bun:test";
import { PREVIEW_POST_ID } from "../../../src/domain/render/preview-id.ts";
import { tagLinks, type Utm } from "../../../src/domain/render/utm.ts";

const POST = "post_0123456789abcdefghjkmnpqrs";
const utm: Utm = { domains: ["example.com", "shop.example.org"], campaign: "release", postId: POST };
const TAGS = `utm_source=mastodon&utm_medium=social&utm_campaign=release&utm_content=${POST}`;
const tag = (text: string, u: Utm = utm) => tagLinks(text, "mastodon", u);

describe("tagLinks", () => {
  test("a link to a brand domain gets source, medium, campaign and content", () => {
    expect(tag("Read https://example.com/notes now")).toBe(`Read https://example.com/notes?${TAGS} now`);
  });

  test("subdomains of a brand domain are tagged; look-alike hosts are not", () => {
    expect(tag("https://blog.example.com/a")).toBe(`https://blog.example.com/a?${TAGS}`);
    expect(tag("https://a.shop.example.org/x")).toBe(`https://a.shop.example.org/x?${TAGS}`);
    for (const other of [
      "https://notexample.com/a",
      "https://example.com.evil.org/a",
      "https://example.org/a",
      "https://evil.org/?next=example.com",
    ])
      expect(tag(`See ${other}`)).toBe(`See ${other}`);
  });

  test("a link that already carries a utm_ parameter is left as written", () => {
    for (const written of [
      "https://example.com/a?utm_source=newsletter",
      "https://example.com/a?ref=1&utm_campaign=spring",
      "https://example.com/a?UTM_Medium=x",
    ])
      expect(tag(`Go ${written}`)).toBe(`Go ${written}`);
  });

  test("only the brand's links among several are tagged", () => {
    expect(tag("https://github.com/x and https://example.com/y and https://example.net")).toBe(
      `https://github.com/x and https://example.com/y?${TAGS} and https://example.net`,
    );
  });

  test("the query joins an existing one, goes before a fragment, and a bare host gets its slash", () => {
    expect(tag("https://example.com/a?ref=1")).toBe(`https://example.com/a?ref=1&${TAGS}`);
    expect(tag("https://example.com/a#top")).toBe(`https://example.com/a?${TAGS}#top`);
    expect(tag("https://example.com")).toBe(`https://example.com/?${TAGS}`);
    expect(tag("https://example.com:8443/a")).toBe(`https://example.com:8443/a?${TAGS}`);
  });

  test("a link written without a scheme is tagged as written; sentence punctuation stays outside", () => {
    expect(tag("Visit example.com/docs.")).toBe(`Visit example.com/docs?${TAGS}.`);
    expect(tag("(see https://example.com/a)")).toBe(`(see https://example.com/a?${TAGS})`);
  });

  test("without a template there is no utm_campaign; the preview ID is as long as a post ID", () => {
    const noTemplate = { ...utm, campaign: null, postId: PREVIEW_POST_ID };
    expect(tagLinks("https://example.com/a", "bluesky", noTemplate)).toBe(
      "https://example.com/a?utm_source=bluesky&utm_medium=social&utm_content=post_00000000000000000000000000",
    );
    expect(PREVIEW_POST_ID).toHaveLength(POST.length);
  });

  test("no brand domains, or no links, leave the text as it is", () => {
    expect(tag("https://example.com/a", { ...utm, domains: [] })).toBe("https://example.com/a");
    expect(tag("No links here, just example text.")).toBe("No links here, just example text.");
  });
});
