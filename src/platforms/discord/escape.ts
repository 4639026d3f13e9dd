// Discord renders its own markdown in webhook messages. To make text arrive as written, every character that can
// start formatting is escaped with a backslash (Discord's parser takes "\" before any punctuation as a literal),
// except inside links: a URL keeps its underscores and asterisks, and Discord recognises it before markdown.
import { findLinks } from "../text/links.ts";

// Anywhere: emphasis, strike, spoiler, code, masked links, <@mentions> and <t:timestamps>, and the escape itself.
const INLINE = /[\\*_~`|[\]<>]/g;
// At the start of a line: quotes, headings, subtext, lists ("- ", "* ", "1. ").
const LINE_START = /^([ \t]*)(>|#|-# |-|\+|\d+\.)/gm;

function escapePlain(s: string): string {
  return s.replace(INLINE, "\\$&").replace(LINE_START, (_m, space: string, mark: string) =>
    // A backslash escapes punctuation only, so an ordered-list mark such as "1." is escaped at its dot.
    /^\d/.test(mark) ? `${space}${mark.slice(0, -1)}\\.` : `${space}\\${mark}`,
  );
}

export function escapeDiscord(text: string): string {
  let out = "";
  let at = 0;
  for (const link of findLinks(text)) {
    out += escapePlain(text.slice(at, link.start)) + text.slice(link.start, link.end);
    at = link.end;
  }
  return out + escapePlain(text.slice(at));
}
