// One link finder for the whole service: length counting, Bluesky link facets and (later) UTM tagging must agree
// on where a link starts and ends, or a post would be measured one way and sent another.
import { LinkifyIt } from "linkify-it";
import tlds from "tlds";

export interface Link {
  /** UTF-16 offset of the first character, as JavaScript indexes strings. */
  start: number;
  /** UTF-16 offset just past the last character. */
  end: number;
  /** The link as written in the text. */
  text: string;
  /** The full URL: as written, with `https://` added when the text has no scheme. */
  url: string;
  /** Written without `http://` or `https://` (for example `example.com/a`); Mastodon does not count these. */
  schemeless: boolean;
}

// Only web links: mail addresses, ftp and protocol-relative links are plain text to every network we post to.
// Bare domains are recognised against the full IANA list (the `tlds` package, as Bluesky's own detector uses).
const linkify = new LinkifyIt({ fuzzyLink: true, fuzzyEmail: false, fuzzyIP: false })
  .tlds(tlds, false)
  .add("ftp:", null)
  .add("mailto:", null)
  .add("//", null);

// Punctuation that ends a sentence rather than a link ("see https://example.com/a."), reference §5. A closing
// bracket stays when it closes a bracket opened inside the link, as in https://en.wikipedia.org/wiki/Go_(game):
// Bluesky and twitter-text both keep it, and cutting it would break the link.
const TRAILING = new Set([".", ",", ";", ":", "!", "?", ")", "]"]);
const OPENER: Record<string, string> = { ")": "(", "]": "[" };

function count(s: string, ch: string): number {
  let n = 0;
  for (const c of s) if (c === ch) n++;
  return n;
}

function trimTrailing(s: string): string {
  let out = s;
  for (;;) {
    const last = out.at(-1);
    if (last === undefined || !TRAILING.has(last)) return out;
    const opener = OPENER[last];
    if (opener !== undefined && count(out, opener) >= count(out, last)) return out;
    out = out.slice(0, -1);
  }
}

// One post's text is scanned for links several times per channel (UTM tagging, counting, fitting) and for every
// channel: the last texts' results are kept (the links are frozen, so callers cannot change the cache).
const recent = new Map<string, readonly Link[]>();

export function findLinks(text: string): Link[] {
  const hit = recent.get(text);
  if (hit) return hit as Link[];
  const found = scanLinks(text);
  if (recent.size >= 64) recent.delete(recent.keys().next().value as string);
  recent.set(text, Object.freeze(found.map((l) => Object.freeze(l))));
  return found;
}

function scanLinks(text: string): Link[] {
  const matches = linkify.match(text);
  if (!matches) return [];
  const links: Link[] = [];
  for (const m of matches) {
    const written = trimTrailing(text.slice(m.index, m.lastIndex));
    const schemeless = m.schema === "";
    if (written === "" || (!schemeless && !/^https?:\/\/./i.test(written))) continue;
    links.push({
      start: m.index,
      end: m.index + written.length,
      text: written,
      url: schemeless ? `https://${written}` : written,
      schemeless,
    });
  }
  return links;
}
