// Input every surface refuses the same way, on both databases, before any domain code walks it:
// - text no database stores: NUL (Postgres text and jsonb refuse it) and lone UTF-16 surrogates (they have no
//   UTF-8 form; a driver would store U+FFFD instead), in any string or object key;
// - numbers JSON cannot carry back (1e309 parses to Infinity and would be written as null);
// - JSON nested deeper than MAX_JSON_DEPTH, which a recursive walk (validation, templates, JSON.stringify) would
//   overflow the stack on. The walk here is iterative, so any depth JSON.parse accepts is measured safely.
// Each refusal is 400 parameter_invalid naming the field (dotted path, array indexes as numbers).
import { badRequest } from "../lib/errors.ts";

/** Deep enough for any document svc takes (a template's variables schema included), far from the stack's end. */
export const MAX_JSON_DEPTH = 100;

/** A string a database can store as it is: no NUL, no lone surrogate. */
export const storable = (s: string): boolean => !s.includes("\u0000") && s.isWellFormed();

const unstorable = (param: string) =>
  badRequest(
    "parameter_invalid",
    `${param} holds a character that cannot be stored (NUL or an unpaired UTF-16 surrogate).`,
    param,
  );

/** Refuses a query or path value that cannot be stored. */
export function guardText(value: string, param: string): void {
  if (!storable(value)) throw unstorable(param);
}

const join = (path: string, key: string | number) => (path === "" ? String(key) : `${path}.${key}`);

/** Checks a parsed JSON body: depth, strings and keys, numbers. `root` prefixes the params it names. */
export function guardJson(value: unknown, root = ""): void {
  const stack: { v: unknown; path: string; depth: number }[] = [{ v: value, path: root, depth: 0 }];
  while (stack.length > 0) {
    const { v, path, depth } = stack.pop()!;
    if (typeof v === "string") {
      if (!storable(v)) throw unstorable(path || "body");
    } else if (typeof v === "number") {
      if (!Number.isFinite(v))
        throw badRequest(
          "parameter_invalid",
          `${path || "body"} is a number out of range.`,
          path || undefined,
        );
    } else if (v !== null && typeof v === "object") {
      if (depth >= MAX_JSON_DEPTH) {
        // Name the top-level field: the full path of a deep value is as long as the value is deep.
        const field = path.split(".")[0] || undefined;
        throw badRequest(
          "parameter_invalid",
          `${field ?? "The body"} is nested more than ${MAX_JSON_DEPTH} levels deep.`,
          field,
        );
      }
      if (Array.isArray(v)) {
        for (let i = 0; i < v.length; i++) stack.push({ v: v[i], path: join(path, i), depth: depth + 1 });
      } else {
        for (const [k, child] of Object.entries(v)) {
          const at = join(path, k);
          if (!storable(k)) throw unstorable(at);
          stack.push({ v: child, path: at, depth: depth + 1 });
        }
      }
    }
  }
}
