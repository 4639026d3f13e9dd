// A template is named by a key its brand chooses (`release-notes`) and referenced by key, by `key@<version>`, or
// by ID. Keys may not start with `tmpl_`, so a reference that does is always an ID and never ambiguous.
import { type Problem, problem } from "../../lib/errors.ts";

const KEY = /^[a-z0-9_-]{1,100}$/;
// `tmpl_` and a UUIDv7 in lowercase Crockford base32: 26 characters, the first 0-7 (reference §1, IDs).
const ID = /^tmpl_[0-7][0-9a-hjkmnp-tv-z]{25}$/;
const ID_PREFIX = "tmpl_";
const VERSION = /^[1-9][0-9]{0,8}$/;

export type TemplateRef = { kind: "id"; id: string } | { kind: "key"; key: string; version?: number };

export const isTemplateKey = (key: string): boolean => KEY.test(key) && !key.startsWith(ID_PREFIX);

/** `key_invalid` unless the key is 1 to 100 lowercase letters, digits, dashes or underscores. */
export function checkTemplateKey(key: unknown, param = "key"): Problem | undefined {
  if (typeof key === "string" && isTemplateKey(key)) return undefined;
  const message =
    "A template key is 1 to 100 lowercase letters, digits, dashes and underscores, and does not start with `tmpl_`.";
  return problem("key_invalid", message, param);
}

/** Reads `key`, `key@N` or `tmpl_…`; anything else is `template_invalid`. */
export function parseTemplateRef(reference: string, param = "template"): TemplateRef | Problem {
  if (reference.startsWith(ID_PREFIX)) {
    return ID.test(reference) ? { kind: "id", id: reference } : invalidRef(reference, param);
  }
  const at = reference.indexOf("@");
  const key = at < 0 ? reference : reference.slice(0, at);
  if (!isTemplateKey(key)) return invalidRef(reference, param);
  if (at < 0) return { kind: "key", key };
  const version = reference.slice(at + 1);
  return VERSION.test(version)
    ? { kind: "key", key, version: Number(version) }
    : invalidRef(reference, param);
}

export const isProblem = (value: TemplateRef | Problem): value is Problem => "code" in value;

const invalidRef = (reference: string, param: string) =>
  problem(
    "template_invalid",
    `\`${reference}\` is not a template reference; use a key, \`key@<version>\` (a positive number) or a template ID.`,
    param,
  );
