// What an agent reads about each argument of a tool. The input schemas are valibot schemas; a description (and a
// JSON Schema `format` where one applies) rides on each as valibot metadata, which the JSON Schema conversion
// copies into the tool's inputSchema. Validation is unchanged: metadata checks nothing. A test walks every tool's
// input schema and fails on a property without a description.
import * as v from "valibot";
import { platforms } from "../platforms/rules-registry.ts";

/** JSON Schema keywords added beside the description (`format`, `examples`, named `properties`). */
type Extra = Record<string, unknown>;

// biome-ignore lint/suspicious/noExplicitAny: any valibot schema, as the object entries hold them
type Entry = v.GenericSchema<any, any, any>;

/** A schema with its description; an optional's description goes on what it wraps, so it reaches the property. */
export function described<S extends Entry>(schema: S, description: string, extra: Extra = {}): S {
  const meta = v.metadata({ description, ...extra });
  if (schema.type === "optional") {
    const o = schema as unknown as v.OptionalSchema<Entry, unknown>;
    return v.optional(v.pipe(o.wrapped, meta), o.default) as unknown as S;
  }
  return v.pipe(schema, meta) as unknown as S;
}

/** Every entry of an object's entries described: a name without a description is a mistake caught at start. */
export function describedEntries<E extends Record<string, Entry>>(
  entries: E,
  docs: { [K in keyof E]: string | readonly [string, Extra] },
): E {
  const out: Record<string, Entry> = {};
  for (const [name, schema] of Object.entries(entries)) {
    const doc = docs[name as keyof E];
    if (doc === undefined) throw new Error(`MCP input field ${name} has no description`);
    out[name] = typeof doc === "string" ? described(schema, doc) : described(schema, doc[0], { ...doc[1] });
  }
  return out as E;
}

const FIT_CHOICES = ["error", "truncate", "thread"];

/**
 * The JSON Schema keywords that name a per-network map's keys (fit, overrides): one property per provider, and
 * nothing else. The valibot schema stays a record, so an unknown provider is still the API's `provider_unknown`.
 */
export function perProvider(schemaFor: (name: string) => Extra): Extra {
  return {
    propertyNames: { enum: platforms.map((p) => p.provider) },
    properties: Object.fromEntries(platforms.map((p) => [p.provider, schemaFor(p.name)])),
    additionalProperties: false,
  };
}

export const FIT_DOC: [string, Extra] = [
  "Per network, what to do with text longer than its limit: `error` (default: the post is refused and the preview " +
    "lists it), `truncate` (cut each part short, ending in …; the only choice that drops text) or `thread` (split " +
    "into as many parts as needed; more parts than the network allows is thread_too_long). Keys are providers " +
    "as list_platforms names them; a sandbox channel follows the provider it emulates.",
  perProvider((name) => ({
    type: "string",
    enum: FIT_CHOICES,
    description: `How to fit text that is too long for ${name}.`,
  })),
];

export const OVERRIDES_DOC: [string, Extra] = [
  "Per network, a text to send there instead of the body (a line holding only {{thread}} starts a new part). " +
    "Keys are providers as list_platforms names them.",
  perProvider((name) => ({ type: "string", description: `The text ${name} receives instead of the body.` })),
];

// Descriptions shared by several tools.
export const BRAND = "The brand: its id (brand_…) or slug, as list_brands gives them.";
export const POST = "The post's id (post_…).";
export const TARGET = "The target's id (ptgt_…): one channel of a post, from get_post's `targets`.";
