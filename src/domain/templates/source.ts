// A TemplateSource is checked as a whole before it is stored or previewed, and every problem is listed at once:
// an author (or an agent) fixing a template should see the full list in one round trip, each problem with the
// `param` it belongs to.
import type { ValidateFunction } from "ajv/dist/2020";
import { type Problem, problem } from "../../lib/errors.ts";
import { examplesBound, textBound } from "./bounds.ts";
import type { Template } from "./language/ast.ts";
import { checkTemplate } from "./language/check.ts";
import { parseTemplate } from "./language/parse.ts";
import { renderTemplate } from "./language/render.ts";
import { withPatternBudget } from "./patterns.ts";
import { compileVariables, dataTooLarge, patternsTooCostly, schemaErrors } from "./variables.ts";

export { validateData } from "./variables.ts";

export const FITS = ["error", "truncate", "thread"] as const;
/** What to do with text longer than a platform takes: refuse it, cut it, or split it into a thread. */
export type Fit = (typeof FITS)[number];

export interface TemplateSource {
  variables: unknown;
  examples: unknown[];
  body: string;
  overrides: Record<string, string>;
  fit: Record<string, Fit>;
}

/** A source as it arrives, before it is known to be whole. */
export type TemplateSourceInput = {
  variables?: unknown;
  examples?: unknown;
  body?: unknown;
  overrides?: Record<string, unknown>;
  fit?: Record<string, unknown>;
};

export interface SourceRules {
  /** Whether a name is a provider the install knows (`mastodon`, `bluesky`, …). */
  isProvider(name: string): boolean;
}

/** One parsed text of the source (the body or an override) and the field it came from. */
interface Text {
  param: string;
  template: Template;
}

/**
 * Validates a template source and returns every problem (empty when it is sound): body, variables schema, each
 * override's provider and syntax, each fit, static checks of every text, and each example against the schema
 * and rendered through every text.
 */
export function validateSource(source: TemplateSourceInput, rules: SourceRules): Problem[] {
  const problems: Problem[] = [];
  const variables = compileVariables(source.variables);
  if (!variables.ok) problems.push(...variables.problems);

  const texts: Text[] = [];
  const addText = (param: string, text: unknown) => {
    if (typeof text !== "string" || text.trim() === "") {
      problems.push(problem("body_missing", `\`${param}\` must be non-empty template text.`, param));
      return;
    }
    const tooLarge = textBound(text, param);
    if (tooLarge) {
      problems.push(tooLarge);
      return;
    }
    const parsed = parseTemplate(text, param);
    if (!parsed.ok) {
      problems.push(...parsed.problems);
      return;
    }
    if (variables.ok) problems.push(...checkTemplate(parsed.template, source.variables, param));
    texts.push({ param, template: parsed.template });
  };
  addText("body", source.body);
  for (const [provider, text] of Object.entries(source.overrides ?? {})) {
    const param = `overrides.${provider}`;
    // An unknown provider's text is not parsed or rendered: the overrides are not a way to multiply the work.
    if (!rules.isProvider(provider)) problems.push(unknownProvider(param, provider));
    else addText(param, text);
  }

  for (const [provider, fit] of Object.entries(source.fit ?? {})) {
    const param = `fit.${provider}`;
    if (!rules.isProvider(provider)) problems.push(unknownProvider(param, provider));
    if (!FITS.includes(fit as Fit)) {
      const message = `\`${param}\` must be one of ${FITS.join(", ")}; got ${JSON.stringify(fit)}.`;
      problems.push(problem("fit_invalid", message, param));
    }
  }

  const examples = source.examples;
  if (!Array.isArray(examples) || examples.length === 0) {
    problems.push(problem("example_required", "Give at least one example of the data.", "examples"));
  } else if (examplesBound(examples)) {
    problems.push(examplesBound(examples)!);
  } else if (variables.ok) {
    examples.forEach((example, i) => {
      problems.push(...checkExample(example, `examples.${i}`, variables.validate, texts));
    });
  }
  return problems;
}

/** An example must fit the schema, and then render through every text that parsed (the others are reported). */
function checkExample(example: unknown, param: string, validate: ValidateFunction, texts: Text[]): Problem[] {
  const tooLarge = dataTooLarge(example, param);
  if (tooLarge) return [tooLarge];
  const checked = withPatternBudget(() => validate(example));
  if (!checked.ok) return [patternsTooCostly(param, "example_invalid")];
  if (!checked.value) {
    const errors = schemaErrors(validate.errors ?? [], param);
    const message = `Example does not match variables: ${errors.map((e) => e.message).join(" ")}`;
    return [problem("example_invalid", message, param, { errors })];
  }
  const problems: Problem[] = [];
  for (const { param: text, template } of texts) {
    const rendered = renderTemplate(template, example, text);
    if (rendered.ok) continue;
    for (const p of rendered.problems) {
      const detail = { ...(p.detail as object), template: text };
      problems.push(problem(p.code, `Example \`${param}\` in \`${text}\`: ${p.message}`, param, detail));
    }
  }
  return problems;
}

const unknownProvider = (param: string, provider: string) =>
  problem("provider_unknown", `Unknown provider \`${provider}\` in \`${param}\`.`, param);
