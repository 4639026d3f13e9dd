// Request shapes for templates. Valibot decides the shape (a wrong type or unknown field is a 400); the rules of a
// template source are checked by validateSource, so one 422 can list the key, approval and every source problem.
import * as v from "valibot";
import { type Problem, ServiceError } from "../../lib/errors.ts";
import { name, parse } from "../validate.ts";

const source = {
  /** JSON Schema 2020-12 for the data; checked by validateSource (variables_invalid). */
  variables: v.optional(v.unknown()),
  examples: v.optional(v.array(v.unknown())),
  body: v.optional(v.string()),
  overrides: v.optional(v.record(v.string(), v.string())),
  fit: v.optional(v.record(v.string(), v.string())),
};

export const TemplateCreate = v.strictObject({
  ...source,
  brand: v.string(),
  key: v.string(),
  name: v.optional(name()),
  approval: v.optional(v.string()),
});

export const TemplateVersionCreate = v.strictObject({ ...source, name: v.optional(name()) });

export const TemplateUpdate = v.strictObject({
  name: v.optional(name()),
  approval: v.optional(v.string()),
});

export const TemplatePreview = v.strictObject({
  ...source,
  brand: v.optional(v.string()),
  /** A stored template: `key`, `key@N` or its ID; instead of the source fields. */
  template: v.optional(v.string()),
  data: v.optional(v.unknown()),
  providers: v.optional(v.array(v.string())),
});

/** The source fields as given; validateSource reads them whole. */
export type SourceFields = {
  variables?: unknown;
  examples?: unknown[];
  body?: string;
  overrides?: Record<string, string>;
  fit?: Record<string, string>;
};

/**
 * Parses the shape (throwing its 400) but returns the 422 rules broken instead of throwing them, so the caller can
 * add its own problems to the same list. A 422 means the shape held, so the raw input is then safe to read.
 */
export function parseCollecting<S extends v.GenericSchema>(
  schema: S,
  input: unknown,
): { value: v.InferOutput<S>; problems: Problem[] } {
  try {
    return { value: parse(schema, input), problems: [] };
  } catch (e) {
    if (e instanceof ServiceError && e.status === 422 && e.errors)
      return { value: input as v.InferOutput<S>, problems: e.errors };
    throw e;
  }
}
