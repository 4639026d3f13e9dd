// How long a text is by each network's own count (reference §5). Each function returns the number the
// network compares with its limit, so a post that measures <= max_length here is accepted there.
import { shortenLinks } from "../bluesky/richtext.ts";
import type { Counting } from "../types.ts";
import { findLinks } from "./links.ts";
import { codePointCount, graphemeCount, graphemes } from "./segments.ts";

/** What X (t.co) and Mastodon charge for any link, however long. */
export const URL_LENGTH = 23;

export function measure(text: string, counting: Counting): number {
  switch (counting) {
    case "characters":
      return codePointCount(text);
    case "graphemes":
      return graphemeCount(text);
    case "x_weighted":
      return xWeightedLength(text);
    case "mastodon":
      return mastodonLength(text);
    case "bluesky":
      return graphemeCount(shortenLinks(text).text);
  }
}

// twitter-text v3 (config/v3.json): code points in these ranges weigh 1, every other code point 2; an emoji
// sequence weighs 2 however many code points it joins; every URL weighs 23. twitter-text normalises to NFC
// first, so "e" + combining acute counts like "é".
const X_LIGHT: readonly (readonly [number, number])[] = [
  [0x0000, 0x10ff],
  [0x2000, 0x200d],
  [0x2010, 0x201f],
  [0x2032, 0x2037],
];
const EMOJI = /^\p{RGI_Emoji}$/v;

function xCodePointWeight(cp: number): number {
  return X_LIGHT.some(([lo, hi]) => cp >= lo && cp <= hi) ? 1 : 2;
}

function xPlainWeight(text: string): number {
  let n = 0;
  for (const g of graphemes(text)) {
    if (EMOJI.test(g)) {
      n += 2;
      continue;
    }
    for (const ch of g) n += xCodePointWeight(ch.codePointAt(0) ?? 0);
  }
  return n;
}

export function xWeightedLength(text: string): number {
  const normalized = text.normalize("NFC");
  let n = 0;
  let at = 0;
  for (const link of findLinks(normalized)) {
    n += xPlainWeight(normalized.slice(at, link.start)) + URL_LENGTH;
    at = link.end;
  }
  return n + xPlainWeight(normalized.slice(at));
}

// Mastodon's StatusLengthValidator: links written with http(s):// count 23 (bare domains are not linked, so
// they count as written), and a remote mention counts only its local part: "@alice@example.social" as
// "@alice". The mention pattern is Mastodon's Account::MENTION_RE.
const WORD = String.raw`\p{L}\p{M}\p{N}\p{Pc}`;
const MENTION = new RegExp(
  `(?<![=/${WORD}])@([a-z0-9_]+(?:[.-]+[a-z0-9_]+)*)@[${WORD}]+(?:[.-]+[${WORD}]+)*`,
  "giu",
);

function mastodonPlainLength(text: string): number {
  return codePointCount(text.replace(MENTION, "@$1"));
}

export function mastodonLength(text: string): number {
  let n = 0;
  let at = 0;
  for (const link of findLinks(text)) {
    if (link.schemeless) continue;
    n += mastodonPlainLength(text.slice(at, link.start)) + URL_LENGTH;
    at = link.end;
  }
  return n + mastodonPlainLength(text.slice(at));
}
