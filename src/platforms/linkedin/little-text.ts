// LinkedIn's "little text" format for a post's commentary (learn.microsoft.com/linkedin/compliance/integrations/
// shares/little-text-format): the characters | { } @ [ ] ( ) < > # \ * _ ~ are reserved and must be escaped with a
// backslash, or LinkedIn cuts the text at the first one. A hashtag stays a hashtag: `#launch` is written as the
// template {hashtag|\#|launch}. A mention needs the member's or Page's URN, which the text does not have, so
// `@name` is shown as written.
const RESERVED = /[|{}@[\]()<>#\\*_~]/g;

const escapeReserved = (s: string) => s.replace(RESERVED, (c) => `\\${c}`);

export function littleText(text: string): string {
  let out = "";
  let at = 0;
  // A hashtag: # at the start or after a non-word character, then letters, digits or underscores.
  for (const m of text.matchAll(/(^|[^\p{L}\p{N}_])#([\p{L}\p{N}_]+)/gu)) {
    const start = m.index + m[1]!.length;
    out += escapeReserved(text.slice(at, start)) + `{hashtag|\\#|${escapeReserved(m[2]!)}}`;
    at = start + 1 + m[2]!.length;
  }
  return out + escapeReserved(text.slice(at));
}
