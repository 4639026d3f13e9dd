// A template's `variables` may hold regular expressions (`pattern`, the keys of `patternProperties`), and they run
// in this process against tenant data. JavaScript's RegExp backtracks: `^(a+)+$` against 40 `a`s and a `!` takes
// seconds, and holds the event loop (every other tenant's request) meanwhile. So tenant patterns run on RE2
// (re2js, a pure JavaScript port), whose matching time is linear in the input: patterns RE2 cannot express
// (backreferences, lookaround) are refused when the template is written.
// Linear is not free: the time is about (program size × input length), so a pattern's program is capped, and one
// check of data against a schema (validateData, an example) may spend at most PATTERN_BUDGET_MS matching; a call
// that would exceed it is stopped before it runs and the check is refused.
import type { RE2JS } from "re2js";
import { once } from "../../lib/once.ts";

// re2js loads with the first pattern compiled, not at start-up (about 5 ms). With require: compilePattern is
// synchronous (ajv calls it while it compiles a schema).
const re2 = once(() => (require("re2js") as typeof import("re2js")).RE2JS);

/** Most instructions a compiled pattern may have (`[a-z0-9_-]{3,16}` has 33; `a{1000}` has 1,002). */
export const PATTERN_MAX_PROGRAM = 2000;
/** Longest pattern source, in characters. */
export const PATTERN_MAX_LENGTH = 1000;
/** Time one check of data against a schema may spend matching patterns. */
export const PATTERN_BUDGET_MS = 50;
/** Most (program size × characters) one match may cost: about 80 ms at the slowest rate measured (5 ns). */
export const PATTERN_MAX_WORK = 16_000_000;

/** A pattern's RE2 form, or why it has none. */
export function compilePattern(pattern: string): { ok: true; re: RE2JS } | { ok: false; reason: string } {
  if (pattern.length > PATTERN_MAX_LENGTH)
    return {
      ok: false,
      reason: `it is ${pattern.length} characters, over the limit of ${PATTERN_MAX_LENGTH}`,
    };
  let re: RE2JS;
  try {
    // JavaScript spellings RE2 lacks (`\uXXXX`, `(?<name>`, `\cJ`) are translated first.
    re = re2().compile(re2().translateRegExp(pattern));
  } catch (e) {
    const why = (e as Error).message.replace(/^error parsing regexp: /, "");
    return {
      ok: false,
      reason: `it cannot run in linear time (${why}); backreferences and lookaround are not supported`,
    };
  }
  if (re.programSize() > PATTERN_MAX_PROGRAM)
    return {
      ok: false,
      reason: `it compiles to ${re.programSize()} instructions, over the limit of ${PATTERN_MAX_PROGRAM}`,
    };
  return { ok: true, re };
}

/** Thrown out of a validator when the current check has spent its matching budget. */
export class PatternBudgetExceeded extends Error {
  constructor() {
    super("pattern budget exceeded");
  }
}

// The budget of the check running now. Validators are synchronous, so one check runs at a time per process.
let deadline = Number.POSITIVE_INFINITY;

/** Runs a synchronous check with the matching budget; false when it ran out (the check's result is then void). */
export function withPatternBudget<T>(check: () => T): { ok: true; value: T } | { ok: false } {
  deadline = performance.now() + PATTERN_BUDGET_MS;
  try {
    return { ok: true, value: check() };
  } catch (e) {
    if (e instanceof PatternBudgetExceeded) return { ok: false };
    throw e;
  } finally {
    deadline = Number.POSITIVE_INFINITY;
  }
}

/**
 * ajv's regular expression engine (its `code.regExp` option) for tenant schemas. ajv compiles each pattern
 * once when it compiles the schema (a pattern RE2 refuses throws there) and calls `test` for each string.
 */
export function linearRegExp(
  pattern: string,
  _flags: string,
): { test(s: string): boolean; toString(): string } {
  const compiled = compilePattern(pattern);
  if (!compiled.ok) throw new Error(`pattern ${JSON.stringify(pattern)}: ${compiled.reason}`);
  const { re } = compiled;
  const size = re.programSize();
  return {
    test(s: string) {
      if (performance.now() > deadline || size * (s.length + 1) > PATTERN_MAX_WORK)
        throw new PatternBudgetExceeded();
      return re.test(s);
    },
    toString: () => pattern,
  };
}
// ajv writes this name into generated code only for standalone validators, which are not used.
linearRegExp.code = "linearRegExp";
