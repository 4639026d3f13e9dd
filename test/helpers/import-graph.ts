// The import graph of a source tree, read as text (nothing is imported): every `import … from`, `export … from`,
// `import "…"`, `import("…")` and `require("…")` with a literal specifier, resolved to files, each marked type-only
// or not. Used by the architecture guards (test/architecture/).
//
// Two readers, checked against each other per file. Bun's transpiler (a real parser) lists exactly the imports
// that survive type erasure, but drops the type-only ones. A small scanner here (comments, strings, template
// literals and regular expressions skipped) lists every import with its syntax (`import type`, `{ type A }`,
// `export type`). A value import the parser sees and the scanner does not (or the other way round) is reported as
// a disagreement, so a file the scanner misreads fails loudly instead of hiding an import.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";

/** One import between two files, paths relative to the root with `/`. */
export interface Import {
  from: string;
  to: string;
  specifier: string;
  /** Erased at runtime: `import type`, only `type` names, `export type … from`, or a type-level `import("…")`. */
  typeOnly: boolean;
  line: number;
}

export interface ImportGraph {
  /** Every scanned file, relative to the root. */
  files: string[];
  imports: Import[];
  /** Relative specifiers that name no file (tsc reports these too). */
  unresolved: { from: string; specifier: string; line: number }[];
  /** Files where the scanner and Bun's parser do not agree on the value imports. */
  disagreements: string[];
}

// ── Tokens ──────────────────────────────────────────────────────────────────────────────────────────────────────

export type TokenKind = "id" | "num" | "str" | "punct" | "regex" | "tmpl";

export interface Token {
  kind: TokenKind;
  /** Identifier or punctuator text; a string's value; a template chunk's raw text. */
  value: string;
  line: number;
  /** Template chunks of one template literal share an id (a literal with `${…}` is several chunks). */
  template?: number;
}

/** Words after which a `/` starts a regular expression rather than a division. */
const BEFORE_EXPRESSION = new Set([
  "return",
  "typeof",
  "case",
  "do",
  "else",
  "in",
  "of",
  "new",
  "delete",
  "void",
  "throw",
  "instanceof",
  "yield",
  "await",
]);

const isIdStart = (c: string) => /[A-Za-z_$\u0080-\uffff]/.test(c);
const isIdPart = (c: string) => /[\w$\u0080-\uffff]/.test(c);

/**
 * Splits TypeScript (or TSX) into tokens. Strings and regular expressions end at a line break, as in the language, so
 * a misread character in JSX text (an apostrophe, a slash) can only confuse the rest of its own line.
 */
export function tokenize(src: string): Token[] {
  const tokens: Token[] = [];
  /** Open `{` and `${`: a `}` closes the innermost, and resumes a template when it closes a `${`. */
  const braces: ({ template: number } | null)[] = [];
  let templates = 0;
  let line = 1;
  let i = 0;
  const n = src.length;

  const regexAllowed = () => {
    const prev = tokens[tokens.length - 1];
    if (!prev) return true;
    if (prev.kind === "punct") return prev.value !== ")" && prev.value !== "]";
    if (prev.kind === "id") return BEFORE_EXPRESSION.has(prev.value);
    return false;
  };

  /** Reads template text from i (just after the backtick or the `}` of a `${`) to its end or next `${`. */
  const templateChunk = (id: number) => {
    const startLine = line;
    let text = "";
    while (i < n) {
      const c = src[i]!;
      if (c === "\\") {
        text += src.slice(i, i + 2);
        if (src[i + 1] === "\n") line++;
        i += 2;
        continue;
      }
      if (c === "`") {
        i++;
        break;
      }
      if (c === "$" && src[i + 1] === "{") {
        i += 2;
        braces.push({ template: id });
        break;
      }
      if (c === "\n") line++;
      text += c;
      i++;
    }
    tokens.push({ kind: "tmpl", value: text, line: startLine, template: id });
  };

  while (i < n) {
    const c = src[i]!;
    if (c === "\n") {
      line++;
      i++;
      continue;
    }
    if (c === " " || c === "\t" || c === "\r" || c === "\f" || c === "\v" || c === "\ufeff") {
      i++;
      continue;
    }
    if (c === "/" && src[i + 1] === "/") {
      while (i < n && src[i] !== "\n") i++;
      continue;
    }
    if (c === "/" && src[i + 1] === "*") {
      const end = src.indexOf("*/", i + 2);
      const stop = end === -1 ? n : end + 2;
      for (let k = i; k < stop; k++) if (src[k] === "\n") line++;
      i = stop;
      continue;
    }
    if (c === '"' || c === "'") {
      let value = "";
      i++;
      while (i < n && src[i] !== c && src[i] !== "\n") {
        if (src[i] === "\\" && i + 1 < n) {
          value += src[i + 1];
          i += 2;
          if (src[i - 1] === "\n") line++;
          continue;
        }
        value += src[i];
        i++;
      }
      if (src[i] === c) i++;
      tokens.push({ kind: "str", value, line });
      continue;
    }
    if (c === "`") {
      i++;
      templateChunk(++templates);
      continue;
    }
    if (c === "/" && regexAllowed()) {
      const start = i;
      let inClass = false;
      i++;
      while (i < n && src[i] !== "\n") {
        const d = src[i]!;
        if (d === "\\") {
          i += 2;
          continue;
        }
        if (d === "[") inClass = true;
        else if (d === "]") inClass = false;
        else if (d === "/" && !inClass) {
          i++;
          break;
        }
        i++;
      }
      while (i < n && isIdPart(src[i]!)) i++;
      tokens.push({ kind: "regex", value: src.slice(start, i), line });
      continue;
    }
    if (isIdStart(c)) {
      const start = i;
      while (i < n && isIdPart(src[i]!)) i++;
      tokens.push({ kind: "id", value: src.slice(start, i), line });
      continue;
    }
    if (/[0-9]/.test(c) || (c === "." && /[0-9]/.test(src[i + 1] ?? ""))) {
      const start = i;
      while (i < n && /[\w.]/.test(src[i]!)) i++;
      tokens.push({ kind: "num", value: src.slice(start, i), line });
      continue;
    }
    if (c === "{") {
      braces.push(null);
      tokens.push({ kind: "punct", value: c, line });
      i++;
      continue;
    }
    if (c === "}") {
      const open = braces.pop();
      i++;
      if (open) templateChunk(open.template);
      else tokens.push({ kind: "punct", value: c, line });
      continue;
    }
    // Other punctuators one character at a time; `=>`, `>>` and the like need no joining for what is read here.
    tokens.push({ kind: "punct", value: c, line });
    i++;
  }
  return tokens;
}

// ── Import statements ───────────────────────────────────────────────────────────────────────────────────────────

export interface Specifier {
  specifier: string;
  kind: "static" | "dynamic" | "require";
  /** Syntactically type-only (static imports and exports); dynamic ones are decided by Bun's parser. */
  typeOnly: boolean;
  line: number;
}

const isPunct = (t: Token | undefined, v: string) => t?.kind === "punct" && t.value === v;
const isId = (t: Token | undefined, v: string) => t?.kind === "id" && t.value === v;

/** A `{ … }` list of names starting at tokens[open]: whether every name is `type`-marked, and where it ends. */
function namedList(tokens: Token[], open: number): { allTypes: boolean; empty: boolean; end: number } | null {
  let k = open + 1;
  let names = 0;
  let typed = 0;
  let current: Token[] = [];
  const flush = () => {
    if (current.length === 0) return;
    names++;
    // `type A`, `type A as B`; but `type` alone or `type as B` names a binding called `type`.
    if (isId(current[0], "type") && current.length >= 2 && !(current.length === 3 && isId(current[1], "as")))
      typed++;
    current = [];
  };
  for (; k < tokens.length && k < open + 2000; k++) {
    const t = tokens[k]!;
    if (isPunct(t, "}")) {
      flush();
      return { allTypes: names > 0 && typed === names, empty: names === 0, end: k };
    }
    if (isPunct(t, ",")) flush();
    else current.push(t);
  }
  return null;
}

/** `from "x"` at tokens[k]: the specifier token, or null. */
function fromAt(tokens: Token[], k: number): Token | null {
  return isId(tokens[k], "from") && tokens[k + 1]?.kind === "str" ? tokens[k + 1]! : null;
}

/** Every import, re-export, dynamic import and require with a literal specifier, in source order. */
export function scanSpecifiers(src: string): Specifier[] {
  const tokens = tokenize(src);
  const found: Specifier[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (t.kind !== "id" || isPunct(tokens[i - 1], ".")) continue;
    const next = tokens[i + 1];
    if (t.value === "require" || t.value === "import") {
      if (isPunct(next, "(")) {
        const arg = tokens[i + 2];
        if (arg?.kind === "str" && (isPunct(tokens[i + 3], ")") || isPunct(tokens[i + 3], ",")))
          found.push({
            specifier: arg.value,
            kind: t.value === "import" ? "dynamic" : "require",
            typeOnly: false,
            line: t.line,
          });
        continue;
      }
    }
    if (t.value === "import") {
      if (next?.kind === "str") {
        found.push({ specifier: next.value, kind: "static", typeOnly: false, line: t.line });
        continue;
      }
      if (isPunct(next, ".")) continue; // import.meta
      // import [type] [Default] [, { … } | , * as ns | { … } | * as ns] from "x"
      let k = i + 1;
      let typeOnly = false;
      if (isId(tokens[k], "type") && !isPunct(tokens[k + 1], ",") && !isId(tokens[k + 1], "from")) {
        typeOnly = true;
        k++;
      }
      let binding = false;
      let allTypes = true;
      let ok = true;
      while (k < tokens.length && !fromAt(tokens, k)) {
        const u = tokens[k]!;
        if (isPunct(u, "{")) {
          const list = namedList(tokens, k);
          if (!list) {
            ok = false;
            break;
          }
          if (!list.allTypes || list.empty) allTypes = false;
          k = list.end + 1;
        } else if (u.kind === "id" || isPunct(u, "*") || isPunct(u, ",")) {
          if (u.kind === "id" && u.value !== "as") binding = true;
          if (isPunct(u, "*")) binding = true;
          k++;
        } else {
          ok = false;
          break;
        }
      }
      const spec = ok ? fromAt(tokens, k) : null;
      if (spec)
        found.push({
          specifier: spec.value,
          kind: "static",
          typeOnly: typeOnly || (!binding && allTypes),
          line: t.line,
        });
      continue;
    }
    if (t.value === "export") {
      // export [type] * [as ns] from "x" | export [type] { … } from "x"
      let k = i + 1;
      let typeOnly = false;
      if (isId(tokens[k], "type") && (isPunct(tokens[k + 1], "{") || isPunct(tokens[k + 1], "*"))) {
        typeOnly = true;
        k++;
      }
      if (isPunct(tokens[k], "*")) {
        k++;
        if (isId(tokens[k], "as")) k += 2;
        const spec = fromAt(tokens, k);
        if (spec) found.push({ specifier: spec.value, kind: "static", typeOnly, line: t.line });
      } else if (isPunct(tokens[k], "{")) {
        const list = namedList(tokens, k);
        const spec = list ? fromAt(tokens, list.end + 1) : null;
        if (list && spec)
          found.push({
            specifier: spec.value,
            kind: "static",
            typeOnly: typeOnly || (list.allTypes && !list.empty),
            line: t.line,
          });
      }
    }
  }
  return found;
}

// ── The graph ───────────────────────────────────────────────────────────────────────────────────────────────────

const SOURCE = /\.(ts|tsx|mts|cts)$/;
const isRelative = (s: string) => s.startsWith("./") || s.startsWith("../");
const toPosix = (p: string) => p.split(sep).join("/");

function listSources(dir: string, out: string[]) {
  if (!existsSync(dir)) return;
  for (const name of readdirSync(dir)) {
    if (name === "node_modules" || name.startsWith(".")) continue;
    const p = join(dir, name);
    if (statSync(p).isDirectory()) listSources(p, out);
    else if (SOURCE.test(name) && !name.endsWith(".d.ts")) out.push(p);
  }
}

/** The file a relative specifier names, as the bundler resolves it (with or without the extension). */
function resolveFile(fromAbs: string, specifier: string): string | null {
  const base = resolve(dirname(fromAbs), specifier.split("?")[0]!);
  for (const candidate of [
    base,
    `${base}.ts`,
    `${base}.tsx`,
    join(base, "index.ts"),
    join(base, "index.tsx"),
  ])
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  return null;
}

const transpilers = {
  ts: new Bun.Transpiler({ loader: "ts" }),
  tsx: new Bun.Transpiler({ loader: "tsx" }),
};

/**
 * Reads every .ts/.tsx file under `dirs` (relative to `root`) and resolves its relative imports. Imports of packages
 * are left out; imports of files outside `dirs` are kept (their `to` lies outside the scanned files).
 */
export function readImportGraph(root: string, dirs: string[]): ImportGraph {
  const abs: string[] = [];
  for (const d of dirs) {
    const p = join(root, d);
    if (existsSync(p) && statSync(p).isFile()) abs.push(p);
    else listSources(p, abs);
  }
  abs.sort();
  const rel = (p: string) => toPosix(relative(root, p));
  const graph: ImportGraph = { files: abs.map(rel), imports: [], unresolved: [], disagreements: [] };

  for (const file of abs) {
    const from = rel(file);
    // A `#!` line (src/main.ts) is no syntax either reader takes; blank it, keeping the line count.
    const src = readFileSync(file, "utf8").replace(/^#!.*/, "");
    const mine = scanSpecifiers(src).filter((s) => isRelative(s.specifier));
    const parsed = transpilers[file.endsWith(".tsx") ? "tsx" : "ts"]
      .scanImports(src)
      .filter((s) => isRelative(s.path));

    // What survives type erasure, by Bun's parser: static imports and re-exports, dynamic imports, requires.
    const valueStatic = new Set(parsed.filter((s) => s.kind === "import-statement").map((s) => s.path));
    const valueDynamic = new Set(parsed.filter((s) => s.kind !== "import-statement").map((s) => s.path));
    const mineStatic = new Set(
      mine.filter((s) => s.kind === "static" && !s.typeOnly).map((s) => s.specifier),
    );
    const mineDynamic = new Set(mine.filter((s) => s.kind !== "static").map((s) => s.specifier));
    const problems = [
      ...[...valueStatic].filter((s) => !mineStatic.has(s)).map((s) => `parser sees import "${s}"`),
      ...[...mineStatic].filter((s) => !valueStatic.has(s)).map((s) => `scanner sees value import "${s}"`),
      ...[...valueDynamic].filter((s) => !mineDynamic.has(s)).map((s) => `parser sees import("${s}")`),
    ];
    if (problems.length > 0) graph.disagreements.push(`${from}: ${problems.join("; ")}`);

    for (const s of mine) {
      // A dynamic import() Bun's parser does not keep is a type position: `typeof import("x")`.
      const typeOnly = s.kind === "static" ? s.typeOnly : !valueDynamic.has(s.specifier);
      const target = resolveFile(file, s.specifier);
      if (!target) {
        graph.unresolved.push({ from, specifier: s.specifier, line: s.line });
        continue;
      }
      graph.imports.push({ from, to: rel(target), specifier: s.specifier, typeOnly, line: s.line });
    }
  }
  return graph;
}

// ── Cycles ──────────────────────────────────────────────────────────────────────────────────────────────────────

/** Tarjan's strongly connected components with more than one file (or a file importing itself), each sorted. */
export function importCycles(files: string[], edges: { from: string; to: string }[]): string[][] {
  const next = new Map<string, string[]>();
  for (const f of files) next.set(f, []);
  for (const e of edges) if (next.has(e.from) && next.has(e.to)) next.get(e.from)!.push(e.to);

  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const found: string[][] = [];
  let counter = 0;

  // Iterative, so a long import chain cannot overflow the call stack.
  for (const start of files) {
    if (index.has(start)) continue;
    const work: { node: string; i: number }[] = [{ node: start, i: 0 }];
    index.set(start, counter);
    low.set(start, counter++);
    stack.push(start);
    onStack.add(start);
    while (work.length > 0) {
      const top = work[work.length - 1]!;
      const out = next.get(top.node)!;
      if (top.i < out.length) {
        const w = out[top.i++]!;
        if (!index.has(w)) {
          index.set(w, counter);
          low.set(w, counter++);
          stack.push(w);
          onStack.add(w);
          work.push({ node: w, i: 0 });
        } else if (onStack.has(w)) low.set(top.node, Math.min(low.get(top.node)!, index.get(w)!));
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent) low.set(parent.node, Math.min(low.get(parent.node)!, low.get(top.node)!));
      if (low.get(top.node) === index.get(top.node)) {
        const scc: string[] = [];
        let w: string;
        do {
          w = stack.pop()!;
          onStack.delete(w);
          scc.push(w);
        } while (w !== top.node);
        if (scc.length > 1 || next.get(top.node)!.includes(top.node)) found.push(scc.sort());
      }
    }
  }
  return found.sort((a, b) => a[0]!.localeCompare(b[0]!));
}

/** One shortest loop through the first file of a component: `a -> b -> a`, for a readable message. */
export function loopThrough(scc: string[], edges: { from: string; to: string }[]): string[] {
  const members = new Set(scc);
  const start = scc[0]!;
  const prev = new Map<string, string>();
  const queue = [start];
  const seen = new Set([start]);
  while (queue.length > 0) {
    const node = queue.shift()!;
    for (const e of edges) {
      if (e.from !== node || !members.has(e.to)) continue;
      if (e.to === start) {
        const path = [start];
        for (let k: string | undefined = node; k !== undefined && k !== start; k = prev.get(k))
          path.splice(1, 0, k);
        return [...path, start];
      }
      if (!seen.has(e.to)) {
        seen.add(e.to);
        prev.set(e.to, node);
        queue.push(e.to);
      }
    }
  }
  return [start, start];
}
