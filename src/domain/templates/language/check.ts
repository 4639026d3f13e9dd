// Static checks catch, before anything is published, the two mistakes data cannot reveal reliably: a field the
// variables schema never declares (a typo prints nothing), and an optional field printed where it may be absent
// (the post would read "Hello ," on the day the field is left out).
import { type Problem, problem } from "../../../lib/errors.ts";
import { isRecord } from "../json.ts";
import { type FieldPath, type Node, type Position, type PrintNode, showPath, type Template } from "./ast.ts";

/** Where the walk stands: the dot as an absolute path, and the absolute paths known truthy here. */
interface Scope {
  dot: FieldPath;
  guards: FieldPath[];
}

/** Where a path leads in the schema: undeclared from segment `missingAt`, or declared with optional prefixes. */
type Lookup = { declared: false; missingAt: number } | { declared: true; optional: number[] };

/**
 * Checks every field a template uses against its `variables` schema (an object schema; nested objects are walked
 * through `properties`, and `required` decides what is optional). Returns every problem found, each with `param`.
 */
export function checkTemplate(template: Template, variables: unknown, param = "body"): Problem[] {
  const problems: Problem[] = [];
  const walk = (nodes: Node[], scope: Scope) => {
    for (const node of nodes) {
      if (node.kind === "text" || node.kind === "thread") continue;
      const path = [...scope.dot, ...node.path];
      const lookup = lookUp(variables, path);
      if (!lookup.declared) {
        problems.push(missing(param, node.path, path, lookup.missingAt, node.at));
      }
      if (node.kind === "print") {
        const open = lookup.declared
          ? lookup.optional.find((n) => !guarded(path, n, scope.guards))
          : undefined;
        if (open !== undefined) problems.push(unguarded(param, node, path.slice(0, open), scope.dot.length));
        continue;
      }
      const inner = { dot: node.kind === "with" ? path : scope.dot, guards: [...scope.guards, path] };
      walk(node.ifTrue, inner);
      walk(node.ifFalse, scope);
    }
  };
  walk(template.nodes, { dot: [], guards: [] });
  return problems;
}

function lookUp(variables: unknown, path: FieldPath): Lookup {
  const optional: number[] = [];
  let schema = variables;
  for (const [i, name] of path.entries()) {
    const properties = isRecord(schema) ? schema.properties : undefined;
    if (!isRecord(properties) || !Object.hasOwn(properties, name)) return { declared: false, missingAt: i };
    const required = isRecord(schema) && Array.isArray(schema.required) && schema.required.includes(name);
    if (!required) optional.push(i + 1);
    schema = properties[name];
  }
  return { declared: true, optional };
}

/**
 * The optional prefix `path[0..length)` is safe when some truthy guard starts with it: if `.a.b` tested truthy,
 * `.a` was there too. So a guard on the field itself, on a parent that is the optional part, or on a sibling
 * beneath that parent all count.
 */
function guarded(path: FieldPath, length: number, guards: FieldPath[]): boolean {
  return guards.some((g) => g.length >= length && path.slice(0, length).every((name, i) => g[i] === name));
}

function missing(param: string, written: FieldPath, path: FieldPath, at: number, pos: Position): Problem {
  const declared = path.slice(0, at + 1);
  const message =
    `\`${showPath(written)}\`${relative(written, path)} at line ${pos.line}, column ${pos.column} ` +
    `is not declared in variables (no property \`${showPath(declared)}\`).`;
  return problem("variable_missing", message, param, { path: showPath(path), ...pos });
}

/**
 * The enclosing `{{with}}` guards the dot, so the unguarded part always lies below it and the advice can be written
 * relative to the dot, the way the author would type it at that spot.
 */
function unguarded(param: string, print: PrintNode, optional: FieldPath, dotLength: number): Problem {
  const { line, column } = print.at;
  const field = showPath(optional.slice(dotLength));
  const message =
    `\`${showPath(print.path)}\` at line ${line}, column ${column} prints optional \`${field}\` unguarded; ` +
    `wrap it in \`{{if ${field}}}…{{end}}\` or \`{{with ${field}}}…{{end}}\`, or make it required.`;
  return problem("variable_unguarded", message, param, { path: showPath(optional), line, column });
}

const relative = (written: FieldPath, path: FieldPath) =>
  written.length === path.length ? "" : ` (that is \`${showPath(path)}\`)`;
