// Bluesky shows links shortened and counts the shortened text against its 300 graphemes; the full URL travels
// in a link facet. The record's text is therefore the shortened text, and facet offsets are UTF-8 bytes into
// it (app.bsky.richtext.facet#byteSlice).
import { findLinks } from "../text/links.ts";
import { graphemeCount, utf8Length } from "../text/segments.ts";

export interface LinkFeature {
  $type: "app.bsky.richtext.facet#link";
  uri: string;
}

export interface TagFeature {
  $type: "app.bsky.richtext.facet#tag";
  /** Without the leading "#". */
  tag: string;
}

export interface Facet {
  index: { byteStart: number; byteEnd: number };
  features: (LinkFeature | TagFeature)[];
}

export interface RichText {
  text: string;
  facets: Facet[];
}

/** A link in shortened text: UTF-16 offsets into that text and the URL it stands for. */
export interface ShortLink {
  start: number;
  end: number;
  url: string;
}

const TAIL_MAX = 15;
const TAIL_KEEP = 13;

/**
 * The link as Bluesky's app displays it: host and the rest without the scheme, a bare "/" dropped, and a rest
 * longer than 15 characters cut to 13 plus "...". Works on the link as written (not a parsed URL) so an
 * international host or path is shown as typed rather than punycoded or percent-encoded.
 */
export function shortenLink(written: string): string {
  const bare = written.replace(/^https?:\/\//i, "");
  const cut = bare.search(/[/?#]/);
  let host = cut === -1 ? bare : bare.slice(0, cut);
  let tail = cut === -1 ? "" : bare.slice(cut);
  host = host.slice(host.lastIndexOf("@") + 1); // userinfo is never shown
  if (tail === "/" || tail.startsWith("/?") || tail.startsWith("/#")) tail = tail.slice(1);
  // Code points, not UTF-16 units, are counted; a tail of at most 15 units has at most 15 of them.
  if (tail.length > TAIL_MAX) {
    const chars = Array.from(tail);
    if (chars.length > TAIL_MAX) tail = chars.slice(0, TAIL_KEEP).join("") + "...";
  }
  return host + tail;
}

/** The text with every link shortened, and where each shortened link now sits. */
export function shortenLinks(text: string): { text: string; links: ShortLink[] } {
  let out = "";
  let at = 0;
  const links: ShortLink[] = [];
  for (const link of findLinks(text)) {
    out += text.slice(at, link.start);
    const short = shortenLink(link.text);
    links.push({ start: out.length, end: out.length + short.length, url: link.url });
    out += short;
    at = link.end;
  }
  return { text: out + text.slice(at), links };
}

// Bluesky's current hashtag rule (packages/api rich-text TAG_REGEX): "#" or "＃" after the start or a space, then
// anything up to a space or an invisible joiner, holding at least one character that is not a digit or
// punctuation; trailing punctuation is not part of the tag, and a tag is at most 64 graphemes.
const INVISIBLE = String.raw`\u00AD\u2060\u200A\u200B\u200C\u200D\u20E2`;
const TAG = new RegExp(
  String.raw`(^|\s)[#＃]((?!\uFE0F)[^\s${INVISIBLE}]*[^\d\s\p{P}${INVISIBLE}]+[^\s${INVISIBLE}]*)?`,
  "gu",
);
const TRAILING_PUNCTUATION = /\p{P}+$/u;
const TAG_MAX_GRAPHEMES = 64;

function findTags(text: string, links: ShortLink[]): { start: number; end: number; tag: string }[] {
  const out: { start: number; end: number; tag: string }[] = [];
  for (const m of text.matchAll(TAG)) {
    const body = m[2];
    if (body === undefined) continue;
    const tag = body.replace(TRAILING_PUNCTUATION, "");
    if (tag === "" || graphemeCount(tag) > TAG_MAX_GRAPHEMES) continue;
    const start = m.index + (m[1]?.length ?? 0);
    const end = start + 1 + tag.length;
    if (links.some((l) => start < l.end && end > l.start)) continue;
    out.push({ start, end, tag });
  }
  return out;
}

/** The text to post (links shortened) with a link facet per link and a tag facet per hashtag, in text order. */
export function blueskyFacets(text: string): RichText {
  const short = shortenLinks(text);
  const spans = [
    ...short.links.map((l) => ({
      start: l.start,
      end: l.end,
      feature: { $type: "app.bsky.richtext.facet#link", uri: l.url } as LinkFeature,
    })),
    ...findTags(short.text, short.links).map((t) => ({
      start: t.start,
      end: t.end,
      feature: { $type: "app.bsky.richtext.facet#tag", tag: t.tag } as TagFeature,
    })),
  ].sort((a, b) => a.start - b.start);
  const facets = spans.map((s) => {
    const byteStart = utf8Length(short.text.slice(0, s.start));
    return {
      index: { byteStart, byteEnd: byteStart + utf8Length(short.text.slice(s.start, s.end)) },
      features: [s.feature],
    };
  });
  return { text: short.text, facets };
}
