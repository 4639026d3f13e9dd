// Parsing turns the scanned tokens into a tree: blocks open with `{{if}}`/`{{with}}`, may switch branch once with
// `{{else}}`, and close with `{{end}}`. Like scanning, it keeps going after a mistake so every one is reported.
import type { Problem } from "../../../lib/errors.ts";
import type { IfNode, Node, Position, Template, WithNode } from "./ast.ts";
import { scan, syntaxProblem } from "./scan.ts";

/** Deeper nesting is no real template, and walking it recursively could exhaust the stack. */
export const MAX_NESTING = 50;

export type ParseResult = { ok: true; template: Template } | { ok: false; problems: Problem[] };

/** An open block; once its `{{else}}` is seen, nodes go to the `ifFalse` branch. */
interface Open {
  node: IfNode | WithNode;
  elseAt?: Position;
}

/**
 * Parses a template body (or a provider override). `param` names the field in the problems it reports, such as
 * `body` or `overrides.mastodon`.
 */
export function parseTemplate(source: string, param = "body"): ParseResult {
  const { tokens, problems } = scan(source, param);
  const root: Node[] = [];
  const stack: Open[] = [];
  const target = (): Node[] => {
    const top = stack.at(-1);
    if (!top) return root;
    return top.elseAt ? top.node.ifFalse : top.node.ifTrue;
  };

  for (const token of tokens) {
    if (token.kind === "text") {
      target().push({ kind: "text", text: token.text });
      continue;
    }
    const { action, at } = token;
    switch (action.type) {
      case "print":
        target().push({ kind: "print", path: action.path, at });
        break;
      case "thread":
        target().push({ kind: "thread", at });
        break;
      case "if":
      case "with": {
        const node: IfNode | WithNode = { kind: action.type, path: action.path, at, ifTrue: [], ifFalse: [] };
        if (stack.length >= MAX_NESTING) {
          problems.push(syntaxProblem(param, at, `blocks nest deeper than ${MAX_NESTING} levels.`));
          return failed(problems);
        }
        target().push(node);
        stack.push({ node });
        break;
      }
      case "else": {
        const top = stack.at(-1);
        if (!top)
          problems.push(syntaxProblem(param, at, "stray `{{else}}`: no `{{if}}` or `{{with}}` is open."));
        else if (top.elseAt) {
          const message = `second \`{{else}}\` in one block (the first is on line ${top.elseAt.line}).`;
          problems.push(syntaxProblem(param, at, message));
        } else top.elseAt = at;
        break;
      }
      case "end":
        if (!stack.pop())
          problems.push(syntaxProblem(param, at, "stray `{{end}}`: no `{{if}}` or `{{with}}` is open."));
        break;
    }
  }
  for (const open of stack) {
    const { kind, at } = open.node;
    problems.push(syntaxProblem(param, at, `\`{{${kind}}}\` is never closed; add \`{{end}}\`.`));
  }
  return problems.length === 0 ? { ok: true, template: { nodes: root } } : failed(problems);
}

/** Scanning and nesting find problems in two passes; the author reads them best top to bottom. */
function failed(problems: Problem[]): ParseResult {
  const at = (p: Problem) => p.detail as Position;
  problems.sort((a, b) => at(a).line - at(b).line || at(a).column - at(b).column);
  return { ok: false, problems };
}
