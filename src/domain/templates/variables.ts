// A template's `variables` is a JSON Schema 2020-12 for its data. Compiling one costs about a millisecond, and
// every preview and post checks data against it, so compiled validators are kept by the schema's JSON text.
import type Ajv2020Type from "ajv/dist/2020";
import type { ErrorObject, ValidateFunction } from "ajv/dist/2020";
import { type Problem, problem } from "../../lib/errors.ts";
import { nestsDeeperThan, TEMPLATE_BOUNDS, variablesBounds } from "./bounds.ts";
import { isRecord } from "./json.ts";
import { TEMPLATE_LIMIT_BYTES, utf8Length } from "./limits.ts";
import { Lru } from "./lru.ts";
import { linearRegExp, withPatternBudget } from "./patterns.ts";

export type CompiledVariables = { ok: true; validate: ValidateFunction } | { ok: false; problems: Problem[] };

/** A finding of ajv, as it appears in a problem's `detail`. */
export interface SchemaError {
  path: string;
  message: string;
  keyword: string;
}

// strict off: authors may use formats and keywords ajv does not know; they are ignored, not refused.
const options = { allErrors: true, strict: false, logger: false } as const;
// This instance only checks schemas against the 2020-12 meta-schema, which registers nothing. Each schema is then
// compiled by an instance of its own: a shared one would keep every tenant's schema and let one tenant's `$id`
// clash with another's (or with the meta-schema's).
// ajv loads on the first schema compiled, not at start-up (about 30 ms and 10 MiB a process need not pay).
let ajv: { Ajv2020: typeof Ajv2020Type; meta: Ajv2020Type } | null = null;
function loadAjv() {
  if (!ajv) {
    const Ajv2020 = (require("ajv/dist/2020") as { default: typeof Ajv2020Type }).default;
    ajv = { Ajv2020, meta: new Ajv2020(options) };
  }
  return ajv;
}
// Tenant patterns run on RE2 (patterns.ts), never on JavaScript's backtracking RegExp.
const compiler = { ...options, meta: false, validateSchema: false, code: { regExp: linearRegExp } } as const;
const compiled = new Lru<string, CompiledVariables>(500);

/** Compiles (or finds compiled) a variables schema; problems are `variables_invalid` with param `variables`. */
export function compileVariables(variables: unknown): CompiledVariables {
  // Before JSON.stringify, which recurses: a schema nested thousands deep would exhaust the stack.
  if (nestsDeeperThan(variables, TEMPLATE_BOUNDS.variablesDepth))
    return { ok: false, problems: variablesBounds(variables) };
  const key = JSON.stringify(variables) ?? "undefined";
  let result = compiled.get(key);
  if (!result) {
    result = compile(variables === undefined ? undefined : JSON.parse(key));
    compiled.set(key, result);
  }
  return result;
}

function compile(schema: unknown): CompiledVariables {
  const refuse = (message: string, detail?: unknown): CompiledVariables => ({
    ok: false,
    problems: [problem("variables_invalid", message, "variables", detail)],
  });
  if (!isRecord(schema) || schema.type !== "object") {
    return refuse(
      'Variables must be a JSON Schema for an object, with "type": "object" and its "properties".',
    );
  }
  const bounds = variablesBounds(schema);
  if (bounds.length) return { ok: false, problems: bounds };
  try {
    const { Ajv2020, meta: metaSchema } = loadAjv();
    if (!metaSchema.validateSchema(schema)) {
      const errors = schemaErrors(metaSchema.errors ?? [], "variables");
      return refuse(`Variables is not a valid JSON Schema 2020-12: ${errors[0]?.message}`, { errors });
    }
    return { ok: true, validate: new Ajv2020(compiler).compile(schema) };
  } catch (error) {
    // An unknown $schema dialect, an unresolvable $ref, a bad regular expression, a repeated $id.
    return refuse(`Variables cannot be compiled as JSON Schema 2020-12: ${(error as Error).message}.`);
  }
}

/**
 * Checks data for a template: `data_too_large` over 64 KiB of JSON, else one `data_invalid` per schema finding,
 * with `param` pointing at the field (`data.author.name`).
 */
export function validateData(variables: unknown, data: unknown, param = "data"): Problem[] {
  const tooLarge = dataTooLarge(data, param);
  if (tooLarge) return [tooLarge];
  const schema = compileVariables(variables);
  if (!schema.ok) return schema.problems;
  const checked = withPatternBudget(() => schema.validate(data));
  if (!checked.ok) return [patternsTooCostly(param, "data_too_large")];
  if (checked.value) return [];
  return schemaErrors(schema.validate.errors ?? [], param).map((e) =>
    problem("data_invalid", e.message, e.path, { keyword: e.keyword }),
  );
}

/** Data whose strings would take the schema's patterns over their time budget (patterns.ts). */
export function patternsTooCostly(param: string, code: "data_too_large" | "example_invalid"): Problem {
  return problem(
    code,
    `Checking \`${param}\` against the patterns of variables takes too long: shorten its longest strings or simplify the patterns.`,
    param,
    { reason: "pattern_budget" },
  );
}

/** Data over 64 KiB as JSON is refused before the schema sees it, so its size also bounds the work. */
export function dataTooLarge(data: unknown, param: string): Problem | undefined {
  const size = utf8Length(JSON.stringify(data) ?? "");
  if (size <= TEMPLATE_LIMIT_BYTES) return undefined;
  const message = `Data is ${size} bytes as JSON, over the limit of ${TEMPLATE_LIMIT_BYTES} bytes (64 KiB).`;
  return problem("data_too_large", message, param, { length: size, limit: TEMPLATE_LIMIT_BYTES });
}

/**
 * Reads ajv's findings as field paths in the API's dotted style. A missing or extra property is named by the
 * property itself rather than by the object that lacks or has it.
 */
export function schemaErrors(errors: ErrorObject[], root: string): SchemaError[] {
  return errors.map((error) => {
    const params = error.params as Record<string, unknown>;
    const named = params.missingProperty ?? params.additionalProperty ?? params.unevaluatedProperty;
    const segments = error.instancePath
      .split("/")
      .slice(1)
      .map((s) => s.replaceAll("~1", "/").replaceAll("~0", "~"));
    if (typeof named === "string") segments.push(named);
    const path = [root, ...segments].join(".");
    const message =
      error.keyword === "required"
        ? `\`${path}\` is required.`
        : typeof named === "string"
          ? `\`${path}\` is not allowed by the schema.`
          : `\`${path}\` ${error.message}.`;
    return { path, message, keyword: error.keyword };
  });
}
