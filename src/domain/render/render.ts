// The rendering core: what one channel would receive for a post or a template preview, and every rule it breaks.
// It runs for each channel of every POST /v1/posts and preview, so it does no I/O, parses each template text once
// (an LRU keyed by the text), and takes data that the caller has already checked against the variables schema.

import { type Problem, problem } from "../../lib/errors.ts";
import { DEFAULT_EMULATES, rulesFor } from "../../platforms/rules-registry.ts";
import { measure } from "../../platforms/text/counting.ts";
import { applyFit, checkParts, partLimit } from "../../platforms/text/fit.ts";
import type { Counting, Fit, Provider, Violation } from "../../platforms/types.ts";
import { type ParseResult, parseTemplate } from "../templates/language/parse.ts";
import { renderTemplate } from "../templates/language/render.ts";
import { Lru } from "../templates/lru.ts";
import type { TemplateSource } from "../templates/source.ts";
import { tagLinks, type Utm } from "./utm.ts";

/** A platform rule broken, or the template failing to render for this channel's text. */
export interface RenderViolation extends Omit<Violation, "code"> {
  code: Violation["code"] | "output_too_large" | "render_failed";
}

export interface RenderInput {
  provider: Provider;
  /** For a sandbox channel: the provider whose rules it is checked against (bluesky when null). */
  emulates?: Provider | null;
  /** Post content: a body whose lines holding only `{{thread}}` start new parts, or the parts themselves. */
  body?: string;
  parts?: string[];
  /** A template instead of content: its stored source and the data (already valid for its variables). */
  template?: { source: TemplateSource; data: unknown };
  /** Plain-text bodies per provider, for content (a template brings its own, which are templates too). */
  overrides?: Record<string, string>;
  /** Per provider; over the template's own fit when both name a provider. Default "error". */
  fit?: Record<string, Fit>;
  mediaCount?: number;
  utm: Utm;
}

export interface Rendition {
  provider: Provider;
  parts: string[];
  /** Each part's length as the network counts it, after UTM tagging. */
  lengths: number[];
  /** The limit of the first part (a caption limit when it carries media); null when the network has none. */
  limit: number | null;
  counting: Counting;
  violations: RenderViolation[];
}

const parsed = new Lru<string, ParseResult>(1000);

/** A template text parsed once per process while it is in use; stored sources always parse. */
function parsedTemplate(text: string): ParseResult {
  let result = parsed.get(text);
  if (!result) {
    result = parseTemplate(text);
    parsed.set(text, result);
  }
  return result;
}

/**
 * A provider's entry in a per-provider map. A sandbox channel falls back to the entry of the provider it
 * emulates, so a test post renders exactly as the live one would.
 */
function pick<T>(map: Record<string, T> | undefined, provider: Provider, emulated: Provider): T | undefined {
  if (!map) return undefined;
  if (Object.hasOwn(map, provider)) return map[provider];
  return provider !== emulated && Object.hasOwn(map, emulated) ? map[emulated] : undefined;
}

/**
 * Renders for one channel: body (template or content) → the provider's override → thread parts → UTM tags →
 * fit → measure → platform checks.
 */
export function renderForProvider(input: RenderInput): Rendition {
  const { provider } = input;
  const emulated = provider === "sandbox" ? (input.emulates ?? DEFAULT_EMULATES) : provider;
  const rules = rulesFor(provider, input.emulates ?? null);
  const mediaCount = input.mediaCount ?? 0;
  const base = { provider, limit: partLimit(rules, 0, mediaCount), counting: rules.counting };

  const texts = input.template
    ? templateParts(input.template, provider, emulated)
    : contentParts(input, provider, emulated);
  if (!texts.ok) return { ...base, parts: [], lengths: [], violations: texts.violations };

  // The emulated provider is the source a live post would carry, so a sandbox post measures the same.
  const tagged = texts.parts.map((text) => tagLinks(text, emulated, input.utm));
  const fit = pick(input.fit, provider, emulated) ?? pick(input.template?.source.fit, provider, emulated);
  const parts = applyFit(tagged, rules, fit ?? "error", mediaCount);
  const lengths = parts.map((text) => measure(text, rules.counting));
  return { ...base, parts, lengths, violations: checkParts(rules, parts, mediaCount, lengths) };
}

type Parts = { ok: true; parts: string[] } | { ok: false; violations: RenderViolation[] };

function templateParts(
  template: NonNullable<RenderInput["template"]>,
  provider: Provider,
  emulated: Provider,
): Parts {
  const override = pick(template.source.overrides, provider, emulated);
  const param =
    override === undefined
      ? "body"
      : `overrides.${Object.hasOwn(template.source.overrides, provider) ? provider : emulated}`;
  const parse = parsedTemplate(override ?? template.source.body);
  if (!parse.ok) {
    const message = `The template's \`${param}\` does not parse: ${parse.problems[0]?.message ?? ""}`;
    return { ok: false, violations: [failure("render_failed", message)] };
  }
  const rendered = renderTemplate(parse.template, template.data, param);
  if (rendered.ok) return rendered;
  return {
    ok: false,
    violations: rendered.problems.map((p) =>
      failure(
        p.code === "output_too_large" ? "output_too_large" : "render_failed",
        `\`${param}\`: ${p.message}`,
      ),
    ),
  };
}

function contentParts(input: RenderInput, provider: Provider, emulated: Provider): Parts {
  const override = pick(input.overrides, provider, emulated);
  if (override !== undefined) return { ok: true, parts: splitThread(override) };
  if (input.parts && input.parts.length > 0) return { ok: true, parts: [...input.parts] };
  return { ok: true, parts: splitThread(input.body ?? "") };
}

const THREAD_LINE = /^[ \t]*\{\{thread\}\}[ \t]*$/;

/** Content text cut into parts at lines holding only `{{thread}}`, each trimmed of blank lines at its edges. */
export function splitThread(text: string): string[] {
  const parts: string[][] = [[]];
  for (const line of text.split("\n")) {
    if (THREAD_LINE.test(line)) parts.push([]);
    else parts.at(-1)!.push(line);
  }
  return parts.map(trimBlankLines);
}

function trimBlankLines(lines: string[]): string {
  let start = 0;
  let end = lines.length;
  while (start < end && lines[start]!.trim() === "") start++;
  while (end > start && lines[end - 1]!.trim() === "") end--;
  return lines.slice(start, end).join("\n");
}

const failure = (code: "output_too_large" | "render_failed", message: string): RenderViolation => ({
  code,
  message,
  part: null,
  media: null,
  length: null,
  limit: null,
});

/**
 * A rendition's violations as the problems of a 422 for one channel (reference §1: `param` is
 * `channels.<channel id>`, and `detail` names channel, provider, part, length, limit and media; a thread's
 * problems also name parts_needed and parts_allowed).
 */
export function renditionProblems(rendition: Rendition, channelId: string): Problem[] {
  return rendition.violations.map((v) =>
    problem(v.code, v.message, `channels.${channelId}`, {
      channel: channelId,
      provider: rendition.provider,
      part: v.part,
      length: v.length,
      limit: v.limit,
      media: v.media,
      // A thread's length is counted in parts: say so by name, so a client need not know that `length` and
      // `limit` mean parts for these two codes.
      ...(v.code === "thread_too_long" || v.code === "threads_unsupported"
        ? { parts_needed: v.length, parts_allowed: v.limit }
        : {}),
    }),
  );
}
