// Input validation with valibot. A schema says both the shape (wrong type, unknown or missing field: 400) and
// the rules (422 with the spec's code). Rule actions carry their code in the message as "code: text".
import * as v from "valibot";
import type { ErrorCode } from "../lib/error-codes.ts";
import { invalid, type Problem, ServiceError } from "../lib/errors.ts";

/** A rule message carrying its stable code, e.g. rule("name_invalid", "Name must be 1 to 100 characters."). */
export const rule = (code: ErrorCode, text: string) => `${code}: ${text}`;

// The catalogue (every code with its meaning) loads with the first refused input, not at start: require is
// synchronous, and a parse that fails is the only one that asks.
let known: ((code: string) => code is ErrorCode) | null = null;
function isErrorCode(code: string): code is ErrorCode {
  known ??= (require("../lib/error-codes.ts") as typeof import("../lib/error-codes.ts")).isErrorCode;
  return known(code);
}

function paramOf(issue: v.BaseIssue<unknown>): string | undefined {
  const keys = (issue.path ?? []).map((p) => String((p as { key: unknown }).key));
  return keys.length ? keys.join(".") : undefined;
}

function toProblem(issue: v.BaseIssue<unknown>): { status: 400 | 422; problem: Problem } {
  const param = paramOf(issue);
  // A rule carries its code in the message, whatever kind of valibot issue it is (picklist is a schema).
  const coded = /^([a-z_]+): (.*)$/s.exec(issue.message);
  if (coded && isErrorCode(coded[1]!))
    return { status: 422, problem: { code: coded[1], param, message: coded[2]! } };
  if (issue.received === "undefined") {
    return {
      status: 400,
      problem: { code: "parameter_missing", param, message: `Missing required parameter ${param}.` },
    };
  }
  if (issue.type === "strict_object" && issue.expected === "never") {
    return {
      status: 400,
      problem: { code: "parameter_unknown", param, message: `Unknown parameter ${param}.` },
    };
  }
  return {
    status: 400,
    problem: {
      code: "parameter_invalid",
      param,
      message: `Invalid value for ${param ?? "body"}: expected ${issue.expected}, got ${issue.received}.`,
    },
  };
}

let levenshtein: typeof import("fastest-levenshtein") | undefined;

/** The closest of `known` to a mistyped name, when it is close enough to be what was meant. */
export function closestName(name: string, known: readonly string[]): string | undefined {
  if (known.length === 0) return undefined;
  const lower = name.toLowerCase();
  const same = known.find((k) => k.toLowerCase() === lower);
  if (same) return same;
  // Loaded with the first mistyped name: a process whose clients spell every field right never needs it.
  levenshtein ??= require("fastest-levenshtein") as typeof import("fastest-levenshtein");
  const { closest, distance } = levenshtein;
  const best = closest(lower, [...known]);
  const d = distance(lower, best.toLowerCase());
  // A third of the name may be wrong (at least two edits: a swap of two letters is two), never all of it.
  return d <= Math.max(2, Math.floor(name.length / 3)) && d < name.length ? best : undefined;
}

/**
 * One 400 listing every unknown field at once (a client fixing them one request at a time learns nothing from
 * the first answer about the rest), each with a "did you mean" when a known name is close.
 */
export function unknownParameters(
  unknown: { param: string; name: string }[],
  known: (param: string) => readonly string[],
  what = "parameter",
): ServiceError {
  const problems: Problem[] = unknown.map(({ param, name }) => {
    const hint = closestName(name, known(param));
    return {
      code: "parameter_unknown",
      param,
      message: `Unknown ${what} ${param}.${hint ? ` Did you mean ${hint}?` : ""}`,
    };
  });
  const first = problems[0]!;
  const message =
    problems.length === 1 ? first.message : `Unknown ${what}s: ${unknown.map((u) => u.param).join(", ")}.`;
  return new ServiceError(400, "parameter_unknown", message, { param: first.param!, errors: problems });
}

type AnySchema = {
  type?: string;
  entries?: Record<string, AnySchema>;
  wrapped?: AnySchema;
  item?: AnySchema;
  items?: AnySchema[];
  value?: AnySchema;
  options?: AnySchema[];
};

const unwrap = (s: AnySchema | undefined): AnySchema | undefined => {
  let at = s;
  while (at?.wrapped) at = at.wrapped;
  return at;
};

/**
 * The object schemas that may apply at a path of the input (several under a union). Valibot's schemas are plain
 * objects: an object's `entries`, an optional's `wrapped`, an array's `item`, a record's `value`, a union's
 * `options`.
 */
function objectsAt(schema: AnySchema, keys: string[]): AnySchema[] {
  let here: AnySchema[] = [schema];
  for (const key of keys) {
    const next: AnySchema[] = [];
    for (const raw of here) {
      const s = unwrap(raw);
      if (!s) continue;
      for (const o of s.options ? s.options.map(unwrap) : [s]) {
        if (!o) continue;
        const child = o.entries?.[key] ?? o.item ?? o.items?.[Number(key)] ?? o.value;
        if (child) next.push(child);
      }
    }
    here = next;
  }
  return here
    .map(unwrap)
    .flatMap((s) => (s?.options ? s.options.map(unwrap) : [s]))
    .filter((s): s is AnySchema => !!s?.entries);
}

/**
 * Every unknown field of the objects where valibot found one. Valibot stops at the first unknown key of each
 * object, so the object is read again here for the rest, with the names the schema knows there.
 */
function unknownFields(schema: v.GenericSchema, issues: v.BaseIssue<unknown>[]): ServiceError | undefined {
  const unknown: { param: string; name: string }[] = [];
  const knownAt = new Map<string, string[]>();
  const seen = new Set<string>();
  for (const issue of issues) {
    if (!(issue.type === "strict_object" && issue.expected === "never")) continue;
    const path = issue.path ?? [];
    const last = path.at(-1) as { key: unknown; input: unknown } | undefined;
    if (!last) continue;
    const parentKeys = path.slice(0, -1).map((p) => String((p as { key: unknown }).key));
    const prefix = parentKeys.map((k) => `${k}.`).join("");
    const flagged = String(last.key);
    // The object schemas at this path that lack the flagged key: the one valibot held the object to.
    const objects = objectsAt(schema as AnySchema, parentKeys).filter(
      (o) => !Object.hasOwn(o.entries!, flagged),
    );
    const known = [...new Set(objects.flatMap((o) => Object.keys(o.entries!)))];
    const names =
      objects.length > 0 && typeof last.input === "object" && last.input !== null
        ? Object.keys(last.input).filter((k) => !known.includes(k))
        : [flagged];
    for (const name of names) {
      const param = `${prefix}${name}`;
      if (seen.has(param)) continue;
      seen.add(param);
      knownAt.set(param, known);
      unknown.push({ param, name });
    }
  }
  if (unknown.length === 0) return undefined;
  return unknownParameters(unknown, (param) => knownAt.get(param) ?? []);
}

/** Parses input or throws: the first 400 if the shape is wrong, else a 422 listing every broken rule. */
export function parse<S extends v.GenericSchema>(schema: S, input: unknown): v.InferOutput<S> {
  const r = v.safeParse(schema, input, { abortEarly: false });
  if (r.success) return r.output;
  const unknown = unknownFields(schema, r.issues);
  if (unknown) throw unknown;
  const mapped = r.issues.map((i) => toProblem(i));
  const shape = mapped.find((m) => m.status === 400);
  if (shape) {
    const p = shape.problem;
    throw new ServiceError(400, p.code, p.message, p.param === undefined ? {} : { param: p.param });
  }
  throw invalid(mapped.map((m) => m.problem));
}

// Shared field schemas.
export const name = (code: ErrorCode = "name_invalid", what = "Name") =>
  v.pipe(
    v.string(),
    v.trim(),
    v.minLength(1, rule(code, `${what} must be 1 to 100 characters.`)),
    v.maxLength(100, rule(code, `${what} must be 1 to 100 characters.`)),
  );
