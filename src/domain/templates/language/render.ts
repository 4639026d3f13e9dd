// Rendering fills a parsed template with data. The output is social text, not HTML, so nothing is escaped: a
// `<` or `&` in the data is what the author wants posted. Declared optional fields that are left out read as null.
import { type Problem, problem } from "../../../lib/errors.ts";
import { isRecord } from "../json.ts";
import { TEMPLATE_LIMIT_BYTES, utf8Length } from "../limits.ts";
import { type FieldPath, type Node, type PrintNode, showPath, type Template } from "./ast.ts";

export type RenderResult = { ok: true; parts: string[] } | { ok: false; problems: Problem[] };

/**
 * Renders a template into thread parts. Each part is trimmed of blank lines at its edges, and parts left empty
 * (a thread section whose content was all conditional) are dropped, keeping at least one so the caller can report
 * an empty post. Every value that cannot be printed is reported; output over 64 KiB stops rendering at once,
 * since a short body can repeat a large value many times.
 */
export function renderTemplate(template: Template, data: unknown, param = "body"): RenderResult {
  const problems: Problem[] = [];
  const parts: string[][] = [[]];
  let bytes = 0;
  let tooLarge = false;

  const emit = (text: string) => {
    bytes += utf8Length(text);
    if (bytes > TEMPLATE_LIMIT_BYTES) tooLarge = true;
    else parts.at(-1)!.push(text);
  };

  const walk = (nodes: Node[], dot: unknown) => {
    for (const node of nodes) {
      if (tooLarge) return;
      switch (node.kind) {
        case "text":
          emit(node.text);
          break;
        case "thread":
          parts.push([]);
          break;
        case "print": {
          const value = lookUp(dot, node.path);
          const text = printable(value);
          if (typeof text === "string") emit(text);
          else problems.push(unprintable(param, node, text.reason));
          break;
        }
        case "if":
        case "with": {
          const value = lookUp(dot, node.path);
          if (truthy(value)) walk(node.ifTrue, node.kind === "with" ? value : dot);
          else walk(node.ifFalse, dot);
          break;
        }
      }
    }
  };
  walk(template.nodes, data);

  if (tooLarge) {
    const message = `Rendered text is over the limit of ${TEMPLATE_LIMIT_BYTES} bytes (64 KiB) of UTF-8.`;
    return {
      ok: false,
      problems: [problem("output_too_large", message, param, { limit: TEMPLATE_LIMIT_BYTES })],
    };
  }
  if (problems.length > 0) return { ok: false, problems };
  const texts = parts.map((chunks) => trimBlankLines(chunks.join(""))).filter((text) => text !== "");
  return { ok: true, parts: texts.length > 0 ? texts : [""] };
}

/** Falsy as the spec lists it: nothing, "", false, 0 and the empty list. An empty object is still something. */
export function truthy(value: unknown): boolean {
  if (Array.isArray(value)) return value.length > 0;
  return value !== null && value !== undefined && value !== "" && value !== false && value !== 0;
}

function lookUp(dot: unknown, path: FieldPath): unknown {
  let value = dot;
  for (const name of path) {
    // Own properties only: `.constructor` must not reach into the prototype of the data.
    if (!isRecord(value) || !Object.hasOwn(value, name)) return undefined;
    value = value[name];
  }
  return value;
}

/** Text for a value, or why it has none. Lists print as "a, b, c"; absent items in a list are skipped. */
function printable(value: unknown): string | { reason: string } {
  if (value === null || value === undefined) return "";
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  if (!Array.isArray(value)) return { reason: `is ${describe(value)}` };
  const items: string[] = [];
  for (const [i, item] of value.entries()) {
    if (item === null || item === undefined) continue;
    if (typeof item === "string" || typeof item === "number" || typeof item === "boolean")
      items.push(String(item));
    else return { reason: `has ${describe(item)} at index ${i}` };
  }
  return items.join(", ");
}

const describe = (value: unknown) => (Array.isArray(value) ? "a list" : `an ${typeof value}`);

function unprintable(param: string, node: PrintNode, reason: string): Problem {
  const { line, column } = node.at;
  const field = showPath(node.path);
  const message =
    `\`${field}\` at line ${line}, column ${column} cannot be printed: it ${reason}. ` +
    "Print one of its fields instead, as in `{{.field.name}}`.";
  return problem("render_failed", message, param, { path: field, line, column });
}

function trimBlankLines(text: string): string {
  const lines = text.split("\n");
  const blank = (line: string) => line.trim() === "";
  let start = 0;
  let end = lines.length;
  while (start < end && blank(lines[start]!)) start++;
  while (end > start && blank(lines[end - 1]!)) end--;
  return lines.slice(start, end).join("\n");
}
