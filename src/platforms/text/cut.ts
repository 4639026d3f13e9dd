// Making text fit a limit: cutting it short (fit "truncate") or into thread parts (fit "thread"). A cut is only
// ever made between graphemes and never inside a link, since half a URL is a broken link and, on X or
// Mastodon, is not even counted as one.

import type { Counting } from "../types.ts";
import { measure } from "./counting.ts";
import { findLinks } from "./links.ts";
import { graphemeBoundaries, sentenceEnds, wordEnds } from "./segments.ts";

export const ELLIPSIS = "…";

/**
 * Offsets where the text may be cut, ascending, from 0 to text.length. Links come in text order and do not
 * overlap, so one pass over both lists finds those inside a link (testing every link at every boundary was
 * quadratic: a 64 KiB text full of links took a second to thread).
 */
function cutPoints(text: string): number[] {
  const links = findLinks(text);
  const out: number[] = [];
  let k = 0;
  for (const i of graphemeBoundaries(text)) {
    while (k < links.length && links[k]!.end <= i) k++;
    const link = links[k];
    if (link === undefined || i <= link.start) out.push(i);
  }
  return out;
}

/**
 * The largest cut point whose prefix fits, or undefined. Measured length grows with the prefix almost
 * everywhere, so a binary search finds the spot; a short walk back covers the few places it does not (a
 * Mastodon mention whose domain is half typed counts shorter than "@user@").
 */
function largestFitting(points: number[], fits: (cut: number) => boolean): number | undefined {
  let lo = 0;
  let hi = points.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (fits(points[mid]!)) {
      found = mid;
      lo = mid + 1;
    } else {
      hi = mid - 1;
    }
  }
  for (let i = found; i >= 0; i--) if (fits(points[i]!)) return points[i];
  return undefined;
}

/**
 * A prefix of the text that is known not to fit (or the whole text), ending at a space so no link or word is
 * cut by it. Searching only this far keeps fitting a 64 KiB text into 300-character parts from re-measuring
 * the whole rest of the text for every part.
 */
function searchWindow(text: string, limit: number, fits: (prefix: string) => boolean): string {
  const space = /\s/g;
  let size = Math.max(64, limit * 2);
  for (;;) {
    if (size >= text.length) return text;
    space.lastIndex = size;
    const end = space.exec(text)?.index ?? text.length;
    const prefix = text.slice(0, end);
    if (end === text.length || !fits(prefix)) return prefix;
    size = end * 2;
  }
}

/** The last preferred cut at or before `best`, if it keeps at least `share` of what `best` keeps. */
function prefer(best: number, preferred: Set<number>, share: number): number | undefined {
  let pick: number | undefined;
  for (const p of preferred) if (p <= best && p > 0 && (pick === undefined || p > pick)) pick = p;
  return pick !== undefined && pick >= best * share ? pick : undefined;
}

/**
 * The text cut short with "…" so that it measures at most `limit`, ending after a whole word where that keeps
 * most of the text. Text that fits is returned unchanged.
 */
export function truncateToFit(text: string, limit: number, counting: Counting): string {
  if (measure(text, counting) <= limit) return text;
  if (measure(ELLIPSIS, counting) > limit) return "";
  const withEllipsis = (cut: number) => text.slice(0, cut).trimEnd() + ELLIPSIS;
  const fits = (prefix: string) => measure(prefix.trimEnd() + ELLIPSIS, counting) <= limit;
  const window = searchWindow(text, limit, fits);
  const best = largestFitting(cutPoints(window), (cut) => fits(window.slice(0, cut))) ?? 0;
  const cut = prefer(best, wordEnds(window), 2 / 3) ?? best;
  return withEllipsis(cut);
}

/**
 * The text split into parts that each measure at most their limit, cutting after a sentence where that keeps at
 * least half a part, else after a word, else between graphemes. `limitFor(i)` is the limit of part i (the first
 * part may carry media and have a shorter limit). Splitting never drops text: every part it takes is returned,
 * however many that makes, so a thread longer than the network allows is reported (thread_too_long, with the
 * parts it needs) instead of published short. A link longer than a whole part becomes a part of its own, still
 * too long, and is left for the length check to report.
 */
export function splitToFit(text: string, limitFor: (part: number) => number, counting: Counting): string[] {
  const parts: string[] = [];
  let rest = text.trim();
  while (rest !== "") {
    const limit = limitFor(parts.length);
    const fits = (prefix: string) => measure(prefix.trimEnd(), counting) <= limit;
    const window = searchWindow(rest, limit, fits);
    if (window.length === rest.length && fits(rest)) {
      parts.push(rest);
      break;
    }
    const points = cutPoints(window).filter((i) => i > 0);
    const fitting = largestFitting(points, (cut) => fits(window.slice(0, cut)));
    const best = fitting ?? points[0] ?? rest.length;
    const cut =
      fitting === undefined
        ? best
        : (prefer(best, sentenceEnds(window), 1 / 2) ?? prefer(best, wordEnds(window), 1 / 2) ?? best);
    const part = rest.slice(0, cut).trimEnd();
    if (part !== "") parts.push(part);
    rest = rest.slice(cut).trimStart();
  }
  return parts;
}
