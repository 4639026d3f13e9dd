// What one template may cost. Its variables schema, examples and texts come from a tenant and are compiled,
// checked and rendered in this process, on the event loop every tenant shares: each is bounded before any of that
// work starts, so no template (and no preview of one) can hold the process for long.
import { type Problem, problem } from "../../lib/errors.ts";
import { isRecord } from "./json.ts";
import { TEMPLATE_LIMIT_BYTES, utf8Length } from "./limits.ts";
import { compilePattern } from "./patterns.ts";

export const TEMPLATE_BOUNDS = {
  /** The variables schema as JSON, in UTF-8 bytes (the same 64 KiB as data and rendered text). */
  variablesBytes: TEMPLATE_LIMIT_BYTES,
  /** Objects and arrays nested in the schema. */
  variablesDepth: 32,
  /** Entries of every `properties` and `patternProperties` together. */
  variablesProperties: 1000,
  /** Regular expressions (`pattern` values and `patternProperties` keys) together. */
  variablesPatterns: 100,
  /** Examples in a source. */
  examples: 20,
  /** A body or an override, in UTF-8 bytes. */
  textBytes: TEMPLATE_LIMIT_BYTES,
} as const;

// Values there are data, not schemas: a `pattern` key inside a `const` is not a regular expression.
const DATA_KEYWORDS = new Set(["const", "enum", "examples", "default"]);

/**
 * Checks a variables schema's shape costs without recursion (a schema nested 50,000 deep must not exhaust the
 * stack): depth, properties, patterns (each must compile on RE2, see patterns.ts), then size. Problems are
 * `variables_invalid` with param `variables` and the schema location in the message and detail.
 */
export function variablesBounds(schema: unknown): Problem[] {
  const refuse = (message: string, detail?: Record<string, unknown>) =>
    problem("variables_invalid", message, "variables", detail);
  const problems: Problem[] = [];
  let properties = 0;
  let patterns = 0;
  const checkPattern = (pattern: string, path: string) => {
    patterns++;
    if (patterns > TEMPLATE_BOUNDS.variablesPatterns) return;
    const compiled = compilePattern(pattern);
    if (!compiled.ok)
      problems.push(
        refuse(`The regular expression at \`${path}\` is refused: ${compiled.reason}.`, { path, pattern }),
      );
  };
  const stack: { value: unknown; path: string; depth: number; data: boolean }[] = [
    { value: schema, path: "variables", depth: 0, data: false },
  ];
  while (stack.length) {
    const { value, path, depth, data } = stack.pop()!;
    if (typeof value !== "object" || value === null) continue;
    if (depth + 1 > TEMPLATE_BOUNDS.variablesDepth) {
      const message = `Variables nest deeper than ${TEMPLATE_BOUNDS.variablesDepth} levels (at \`${path}\`).`;
      return [refuse(message, { path, limit: TEMPLATE_BOUNDS.variablesDepth })];
    }
    const entries = Array.isArray(value)
      ? value.map((v, i) => [String(i), v] as const)
      : Object.entries(value);
    for (const [key, child] of entries) {
      const at = `${path}.${key}`;
      if (!data && !Array.isArray(value)) {
        if (key === "pattern" && typeof child === "string") checkPattern(child, at);
        if ((key === "properties" || key === "patternProperties") && isRecord(child))
          properties += Object.keys(child).length;
        if (key === "patternProperties" && isRecord(child))
          for (const p of Object.keys(child)) checkPattern(p, `${at}.${p}`);
      }
      stack.push({
        value: child,
        path: at,
        depth: depth + 1,
        data: data || (!Array.isArray(value) && DATA_KEYWORDS.has(key)),
      });
    }
  }
  if (properties > TEMPLATE_BOUNDS.variablesProperties)
    problems.push(
      refuse(
        `Variables declare ${properties} properties, over the limit of ${TEMPLATE_BOUNDS.variablesProperties}.`,
        { limit: TEMPLATE_BOUNDS.variablesProperties },
      ),
    );
  if (patterns > TEMPLATE_BOUNDS.variablesPatterns)
    problems.push(
      refuse(
        `Variables hold ${patterns} regular expressions, over the limit of ${TEMPLATE_BOUNDS.variablesPatterns}.`,
        { limit: TEMPLATE_BOUNDS.variablesPatterns },
      ),
    );
  const size = utf8Length(JSON.stringify(schema) ?? "");
  if (size > TEMPLATE_BOUNDS.variablesBytes)
    problems.push(
      refuse(
        `Variables are ${size} bytes as JSON, over the limit of ${TEMPLATE_BOUNDS.variablesBytes} (64 KiB).`,
        {
          length: size,
          limit: TEMPLATE_BOUNDS.variablesBytes,
        },
      ),
    );
  return problems;
}

/** More examples than a source may hold: `example_invalid` on `examples`. */
export function examplesBound(examples: unknown[]): Problem | undefined {
  if (examples.length <= TEMPLATE_BOUNDS.examples) return undefined;
  return problem(
    "example_invalid",
    `${examples.length} examples given; a template holds at most ${TEMPLATE_BOUNDS.examples}.`,
    "examples",
    { limit: TEMPLATE_BOUNDS.examples },
  );
}

/** A body or override over 64 KiB: `template_syntax` on its field (it is not parsed). */
export function textBound(text: string, param: string): Problem | undefined {
  const size = utf8Length(text);
  if (size <= TEMPLATE_BOUNDS.textBytes) return undefined;
  return problem(
    "template_syntax",
    `\`${param}\` is ${size} bytes, over the limit of ${TEMPLATE_BOUNDS.textBytes} bytes (64 KiB).`,
    param,
    { length: size, limit: TEMPLATE_BOUNDS.textBytes },
  );
}

/** Whether JSON nests deeper than `limit` levels, found without recursion (JSON.stringify would recurse). */
export function nestsDeeperThan(value: unknown, limit: number): boolean {
  const stack: { value: unknown; depth: number }[] = [{ value, depth: 0 }];
  while (stack.length) {
    const top = stack.pop()!;
    if (typeof top.value !== "object" || top.value === null) continue;
    if (top.depth + 1 > limit) return true;
    for (const child of Object.values(top.value)) stack.push({ value: child, depth: top.depth + 1 });
  }
  return false;
}
