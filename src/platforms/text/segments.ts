// Text units the networks count in. JavaScript strings index UTF-16 code units, which no network counts, so
// everything that measures or cuts text goes through these.

import { once } from "../../lib/once.ts";

// Grapheme clusters do not depend on the locale; word and sentence breaks barely do, and a post's language is
// unknown, so all three use the root locale. Each is made when first used: making one loads ICU's break rules
// (about 1.5 MiB), which a process that has measured no text yet need not hold.
const graphemeSegmenter = once(() => new Intl.Segmenter("und", { granularity: "grapheme" }));
const wordSegmenter = once(() => new Intl.Segmenter("und", { granularity: "word" }));
const sentenceSegmenter = once(() => new Intl.Segmenter("und", { granularity: "sentence" }));

export function graphemes(text: string): string[] {
  return Array.from(graphemeSegmenter().segment(text), (s) => s.segment);
}

// Printable ASCII and line feeds: every character is its own grapheme (a CR may join the LF after it, so it is
// left to the segmenter). Most posts are this, and counting them needs no segmenting.
const SIMPLE = /^[\x20-\x7e\n]*$/;

export function graphemeCount(text: string): number {
  if (SIMPLE.test(text)) return text.length;
  let n = 0;
  for (const _ of graphemeSegmenter().segment(text)) n++;
  return n;
}

export function codePointCount(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}

/** Bytes of the text in UTF-8, without encoding it (a lone surrogate counts 3, as TextEncoder writes U+FFFD). */
export function utf8Length(text: string): number {
  let n = 0;
  for (const ch of text) {
    const cp = ch.codePointAt(0) ?? 0;
    n += cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
  }
  return n;
}

/** UTF-16 offsets where a grapheme starts, plus the end of the text: every place text may be cut. */
export function graphemeBoundaries(text: string): number[] {
  const out = Array.from(graphemeSegmenter().segment(text), (s) => s.index);
  out.push(text.length);
  return out;
}

/**
 * Offsets just after a word, or after punctuation that is followed by a space: cutting there keeps whole words
 * ("Hello, world" cuts to "Hello," not "Hello, wo"). Works for scripts without spaces, whose words the
 * segmenter finds by dictionary.
 */
export function wordEnds(text: string): Set<number> {
  const out = new Set<number>();
  const segs = Array.from(wordSegmenter().segment(text));
  segs.forEach((s, i) => {
    const end = s.index + s.segment.length;
    const next = segs[i + 1];
    if (s.isWordLike || (!/^\s+$/u.test(s.segment) && (next === undefined || /^\s/u.test(next.segment)))) {
      out.add(end);
    }
  });
  return out;
}

/** Offsets where a sentence (or a line) ends, including the space after it. */
export function sentenceEnds(text: string): Set<number> {
  const out = new Set<number>();
  for (const s of sentenceSegmenter().segment(text)) out.add(s.index + s.segment.length);
  return out;
}
