// Scanning cuts a body into text and actions and reads each action on its own. Syntax problems found here do not
// stop the scan, so an author sees every broken action at once rather than fixing them one round trip at a time.
import { type Problem, problem } from "../../../lib/errors.ts";
import type { FieldPath, Position } from "./ast.ts";

export type Action =
  | { type: "print"; path: FieldPath }
  | { type: "if" | "with"; path: FieldPath }
  | { type: "else" | "end" | "thread" };

export type Token = { kind: "text"; text: string } | { kind: "action"; action: Action; at: Position };

/** Block actions that vanish with their whole line when they stand alone on it, as in Mustache. */
const LINE_ACTIONS = new Set<Action["type"]>(["if", "with", "else", "end", "thread"]);

const FIELD = /^\.(?:[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*)?$/;

export const syntaxProblem = (param: string, at: Position, message: string): Problem =>
  problem("template_syntax", `Line ${at.line}, column ${at.column}: ${message}`, param, { ...at });

export function scan(source: string, param: string): { tokens: Token[]; problems: Problem[] } {
  const where = cursor(source);
  const problems: Problem[] = [];
  const actions: { action: Action; at: Position; start: number; end: number }[] = [];

  let i = 0;
  let nextClose = -1;
  let lineEnd = -1;
  while (i < source.length) {
    const open = source.indexOf("{{", i);
    if (open < 0) break;
    // The line's end is found once per line too: searched from every `{{` of a long line, the scan was
    // quadratic (a 1 MiB one-line body took seconds, holding the event loop).
    if (lineEnd < open) lineEnd = endOfLine(source, open);
    // Found once and reused while it lies ahead, so a long line of unclosed `{{` is not searched again and again.
    if (nextClose < open + 2) nextClose = source.indexOf("}}", open + 2);
    const close = nextClose;
    const at = where(open);
    const inner = close < 0 ? "" : source.slice(open + 2, close);
    // An action never spans lines: a missing `}}` would otherwise swallow text up to some later action.
    const reopened = inner.indexOf("{{");
    if (close < 0 || close > lineEnd || reopened >= 0) {
      problems.push(syntaxProblem(param, at, "unclosed action: `{{` has no matching `}}` on its line."));
      // With no `}}` left on the line, any later `{{` on it is unclosed too: one report per line is enough.
      i = close >= 0 && close <= lineEnd ? open + 2 + reopened : lineEnd;
      continue;
    }
    const { action, problem } = readAction(inner.trim());
    if (problem) problems.push(syntaxProblem(param, at, problem));
    if (action) actions.push({ action, at, start: open, end: close + 2 });
    i = close + 2;
  }

  const tokens: Token[] = [];
  let textStart = 0;
  for (const a of actions) {
    let [start, end] = [a.start, a.end];
    const line = LINE_ACTIONS.has(a.action.type) ? wholeLine(source, a.start, a.end) : undefined;
    if (line) [start, end] = line;
    else if (a.action.type === "thread") {
      problems.push(syntaxProblem(param, a.at, "`{{thread}}` must stand alone on its line."));
      continue;
    }
    if (start > textStart) tokens.push({ kind: "text", text: source.slice(textStart, start) });
    tokens.push({ kind: "action", action: a.action, at: a.at });
    textStart = end;
  }
  if (textStart < source.length) tokens.push({ kind: "text", text: source.slice(textStart) });
  return { tokens, problems };
}

/**
 * Reads the inside of `{{…}}`. A malformed block action still yields its action beside the problem, so the
 * `{{end}}` that closes it is not reported as stray as well.
 */
function readAction(inner: string): { action?: Action; problem?: string } {
  if (inner === "") return { problem: "empty action `{{}}`." };
  if (inner.startsWith(".")) {
    const path = readPath(inner);
    return path ? { action: { type: "print", path } } : { problem: badPath(inner) };
  }
  const [word = "", ...args] = inner.split(/\s+/);
  switch (word) {
    case "if":
    case "with": {
      const path = args.length === 1 ? readPath(args[0]!) : undefined;
      if (path) return { action: { type: word, path } };
      const problem =
        args.length === 1
          ? badPath(args[0]!)
          : `\`{{${word}}}\` takes one field, as in \`{{${word} .name}}\`.`;
      return { action: { type: word, path: [] }, problem };
    }
    case "else":
    case "end":
    case "thread": {
      if (args.length === 0) return { action: { type: word } };
      const problem =
        word === "else" && args[0] === "if"
          ? "`{{else if}}` is not supported; put an `{{if}}` inside the `{{else}}`."
          : `\`{{${word}}}\` takes nothing after it.`;
      return { action: { type: word }, problem };
    }
    default: {
      const hint = readPath(`.${inner}`) ? ` To print a field, write \`{{.${inner}}}\`.` : "";
      return {
        problem: `unknown keyword \`${word}\`; actions are .field, if, with, else, end and thread.${hint}`,
      };
    }
  }
}

function readPath(text: string): FieldPath | undefined {
  if (!FIELD.test(text)) return undefined;
  return text === "." ? [] : text.slice(1).split(".");
}

const badPath = (text: string) =>
  `bad field path \`${text}\`; write \`.name\` or \`.parent.child\` (letters, digits and underscores).`;

const endOfLine = (source: string, from: number) => {
  const nl = source.indexOf("\n", from);
  return nl < 0 ? source.length : nl;
};

/** The span of the whole line (with its line break) when the action is the only thing on it but blanks. */
function wholeLine(source: string, start: number, end: number): [number, number] | undefined {
  const blank = (i: number) => source[i] === " " || source[i] === "\t" || source[i] === "\r";
  let lineStart = start;
  while (lineStart > 0 && blank(lineStart - 1)) lineStart--;
  if (lineStart > 0 && source[lineStart - 1] !== "\n") return undefined;
  let lineEnd = end;
  while (lineEnd < source.length && blank(lineEnd)) lineEnd++;
  if (lineEnd < source.length && source[lineEnd] !== "\n") return undefined;
  return [lineStart, Math.min(lineEnd + 1, source.length)];
}

/**
 * Offset → line and column, for offsets asked in increasing order (as the scan goes), so the whole body is walked
 * once. Columns count code points: an emoji earlier on the line counts once.
 */
function cursor(source: string): (offset: number) => Position {
  let offset = 0;
  let line = 1;
  let column = 1;
  return (to) => {
    for (; offset < to; offset++) {
      const code = source.charCodeAt(offset);
      if (code === 10) {
        line++;
        column = 1;
      } else if (code < 0xdc00 || code > 0xdfff) column++; // the second half of a surrogate pair adds nothing
    }
    return { line, column };
  };
}
