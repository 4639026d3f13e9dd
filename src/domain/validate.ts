// Input validation with valibot. A schema says both the shape (wrong type, unknown or missing field: 400) and
// the rules (422 with the spec's code). Rule actions carry their code in the message as "code: text".
import * as v from "valibot";
import { type ErrorCode, isErrorCode } from "../lib/error-codes.ts";
import { invalid, type Problem, ServiceError } from "../lib/errors.ts";

/** A rule message carrying its stable code, e.g. rule("name_invalid", "Name must be 1 to 100 characters."). */
export const rule = (code: ErrorCode, text: string) => `${code}: ${text}`;

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

/** Parses input or throws: the first 400 if the shape is wrong, else a 422 listing every broken rule. */
export function parse<S extends v.GenericSchema>(schema: S, input: unknown): v.InferOutput<S> {
  const r = v.safeParse(schema, input, { abortEarly: false });
  if (r.success) return r.output;
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
