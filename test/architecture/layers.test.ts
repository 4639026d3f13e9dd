// Imports never cross a floor the wrong way (ARCHITECTURE.md, "Layout" and rule 1). Every import of src/, views/ and
// migrations/ is read as text (static, re-export, dynamic; type-only ones too), resolved to a file, and checked
// against the one table below. Nothing of the project is imported, so this runs in well under a second.
//
// A failure lists every offending import as `from-file -> to-file`. Fix the import, or, when it is deliberate, add
// it to EXCEPTIONS (or CYCLE_EXCEPTIONS) with the reason: an exception is a decision someone can read and revisit.
//
// To see the guard bite: "the guard bites" below runs the same checker on a small tree written to a temp dir with a
// lib file importing the domain, a platform importing db/, a cycle and the rest, and asserts each is reported.
import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { type Import, importCycles, loopThrough, readImportGraph } from "../helpers/import-graph.ts";

// ── The layer map ───────────────────────────────────────────────────────────────────────────────────────────────

interface Floor {
  floor: number;
  name: string;
  /** Folders (ending in `/`) or single files, relative to the repository root; the longest match wins. */
  paths: readonly string[];
  /** Set with a reason: files of this floor may `import type` from any floor (value imports still may not). */
  typesFromAnyFloor?: string;
}

/** From the ground up. A file imports only from its own floor or below. */
const FLOORS: readonly Floor[] = [
  { floor: 0, name: "lib", paths: ["src/lib/"] },
  // Views are presenters: the surfaces render them (pages), and so may whatever sends email (views/ holds the
  // emails too, ARCHITECTURE.md "Layout"). So they sit just above lib/, below everything that renders them: their
  // only value imports are lib/ and each other, which this floor enforces by itself. They may name the shapes they
  // show (`import type` from the domain's present.ts or errors), never call into the domain, db/ or a surface.
  {
    floor: 0.5,
    name: "views",
    paths: ["views/"],
    typesFromAnyFloor: "presenters render what the domain presents and may name its types, never call it",
  },
  // migrations/ is db/'s own: the migrator imports the steps, and the steps see only db/ (and lib/).
  { floor: 1, name: "db", paths: ["src/db/", "migrations/"] },
  { floor: 2, name: "crypto, net, mail", paths: ["src/crypto/", "src/net/", "src/mail/"] },
  { floor: 3, name: "app", paths: ["src/app/"] },
  { floor: 4, name: "platforms", paths: ["src/platforms/"] },
  { floor: 5, name: "domain", paths: ["src/domain/"] },
  { floor: 6, name: "queue, telemetry", paths: ["src/queue/", "src/telemetry/"] },
  { floor: 7, name: "surfaces", paths: ["src/http/", "src/mcp/", "src/cli/"] },
  { floor: 8, name: "composition root", paths: ["src/boot.ts", "src/main.ts"] },
];

/** What is read: every .ts/.tsx file under these. */
const SCANNED = ["src", "views", "migrations"];

/** The surfaces (rule b): they parse, call a domain function and render; db/ only for its types. */
const SURFACES = ["src/http/", "src/mcp/", "src/cli/", "views/"];
/** The CLI client talks to /v1 over HTTPS: no domain, no db/, not even their types. Admin commands act directly. */
const CLI_CLIENT = "src/cli/";
const CLI_ADMIN = "src/cli/admin/";
const DB = "src/db/";
const DOMAIN = "src/domain/";
const PLATFORMS = "src/platforms/";
/** The sandbox network's public permalink page (GET /sandbox/<target id>): it reads through the domain. */
const SANDBOX_PAGE = "src/http/web/sandbox.ts";

interface Exception {
  from: string;
  to: string;
  reason: string;
}

/**
 * Imports allowed although a rule below forbids them (rules a to d). Each one names both files and says why, e.g.
 *   { from: "src/platforms/x/adapter.ts", to: "src/db/tables/x.ts", reason: "…" }
 * An exception that no longer matches an offending import fails the test, so the list only shrinks.
 */
const EXCEPTIONS: readonly Exception[] = [];

/** Imports left out of cycle detection (rule e), each with why the loop is deliberate. Same staleness check. */
const CYCLE_EXCEPTIONS: readonly Exception[] = [];

// ── The checker ─────────────────────────────────────────────────────────────────────────────────────────────────

function floorOf(file: string): Floor | undefined {
  let best: Floor | undefined;
  let bestLength = -1;
  for (const f of FLOORS)
    for (const p of f.paths) {
      const hit = p.endsWith("/") ? file.startsWith(p) : file === p;
      if (hit && p.length > bestLength) {
        best = f;
        bestLength = p.length;
      }
    }
  return best;
}

const under = (file: string, dirs: readonly string[]) => dirs.some((d) => file.startsWith(d));
const arrow = (i: Import) => `${i.from} -> ${i.to}${i.typeOnly ? " (import type)" : ""}`;
const same = (i: { from: string; to: string }, e: Exception) => i.from === e.from && i.to === e.to;

interface Report {
  /** Scanner and parser disagree, or a relative import names no file: the graph itself is not to be trusted. */
  unreadable: string[];
  /** Files (scanned or imported) that no floor of the table covers. */
  unplaced: string[];
  /** a. An import of a higher floor. */
  upward: string[];
  /** b. A surface importing db/ for more than types; CLI client code importing the domain or db/ at all. */
  surfaces: string[];
  /** c. A platform adapter importing db/. */
  platforms: string[];
  /** d. The sandbox permalink page importing db/. */
  sandbox: string[];
  /** e. Import cycles, one line per strongly connected component. */
  cycles: string[];
  /** Exceptions that match no offending import any more. */
  staleExceptions: string[];
}

function checkLayers(
  root: string,
  exceptions: readonly Exception[] = EXCEPTIONS,
  cycleExceptions: readonly Exception[] = CYCLE_EXCEPTIONS,
): Report {
  const graph = readImportGraph(root, SCANNED);
  const scanned = new Set(graph.files);
  const used = new Set<Exception>();
  const report: Report = {
    unreadable: [
      ...graph.disagreements,
      ...graph.unresolved.map((u) => `${u.from}:${u.line}: "${u.specifier}" names no file`),
    ],
    unplaced: [],
    upward: [],
    surfaces: [],
    platforms: [],
    sandbox: [],
    cycles: [],
    staleExceptions: [],
  };

  /** Records a violation unless an exception covers the import. */
  const flag = (list: string[], i: Import, detail = "") => {
    const waived = exceptions.find((e) => same(i, e));
    if (waived) used.add(waived);
    else list.push(arrow(i) + detail);
  };

  const unplaced = new Set(graph.files.filter((f) => !floorOf(f)));
  for (const i of graph.imports) {
    // Imports of non-source files outside the map (package.json) carry no code of ours.
    if (!scanned.has(i.to) && !/\.(ts|tsx)$/.test(i.to)) continue;
    const from = floorOf(i.from);
    const to = floorOf(i.to);
    if (!to) unplaced.add(i.to);
    if (!from || !to) continue;

    if (to.floor > from.floor && !(i.typeOnly && from.typesFromAnyFloor))
      flag(report.upward, i, `   [floor ${from.floor} ${from.name} -> floor ${to.floor} ${to.name}]`);

    const cliClient = i.from.startsWith(CLI_CLIENT) && !i.from.startsWith(CLI_ADMIN);
    if (cliClient && under(i.to, [DOMAIN, DB])) flag(report.surfaces, i, "   [CLI client: calls /v1 only]");
    else if (under(i.from, SURFACES) && i.to.startsWith(DB) && !i.typeOnly)
      flag(report.surfaces, i, "   [surface: call the domain]");

    if (i.from.startsWith(PLATFORMS) && i.to.startsWith(DB)) flag(report.platforms, i);
    if (i.from === SANDBOX_PAGE && i.to.startsWith(DB)) flag(report.sandbox, i);
  }
  report.unplaced = [...unplaced].sort();

  const edges = graph.imports.filter((i) => {
    const waived = cycleExceptions.find((e) => same(i, e));
    if (waived) used.add(waived);
    return !waived;
  });
  // A hop of the shown loop that only `import type` makes is marked, so the cheapest edge to cut is visible.
  const valueEdges = new Set(edges.filter((e) => !e.typeOnly).map((e) => `${e.from} ${e.to}`));
  for (const scc of importCycles(graph.files, edges)) {
    const loop = loopThrough(scc, edges);
    const hops = loop.map((f, k) =>
      k === 0 || valueEdges.has(`${loop[k - 1]} ${f}`) ? f : `(import type) ${f}`,
    );
    report.cycles.push(`${scc.length} files: ${hops.join(" -> ")}   [all: ${scc.join(", ")}]`);
  }

  report.staleExceptions = [...exceptions, ...cycleExceptions]
    .filter((e) => !used.has(e))
    .map((e) => `${e.from} -> ${e.to} (${e.reason})`);
  return report;
}

/** Fails with the rule and every offending line, one per line. */
function expectNone(lines: string[], rule: string) {
  if (lines.length > 0) throw new Error(`${rule}: ${lines.length}\n  ${lines.join("\n  ")}`);
}

// ── The rules, on this repository ───────────────────────────────────────────────────────────────────────────────

const ROOT = resolve(import.meta.dir, "../..");
const started = performance.now();
const tree = checkLayers(ROOT);
const elapsed = performance.now() - started;

describe("layers", () => {
  test("every import is read and resolved, quickly", () => {
    expectNone(
      tree.unreadable,
      "imports the scanner could not read the way Bun's parser does, or unresolved",
    );
    expect(elapsed).toBeLessThan(2000);
  });

  test("every file has a floor in the table", () => {
    expectNone(tree.unplaced, "files no floor covers (add their folder to FLOORS)");
  });

  test("a. nothing imports a higher floor (type-only imports too)", () => {
    expectNone(tree.upward, "imports of a higher floor");
  });

  test("b. surfaces import db/ only for types; the CLI client imports neither the domain nor db/", () => {
    expectNone(tree.surfaces, "surface imports of db/ (or of the domain, from the CLI client)");
  });

  test("c. platform adapters own no tables: src/platforms/ imports no db/", () => {
    expectNone(tree.platforms, "platform imports of db/");
  });

  test("d. the sandbox permalink page goes through the domain", () => {
    expect(existsSync(join(ROOT, SANDBOX_PAGE))).toBe(true);
    expectNone(tree.sandbox, `${SANDBOX_PAGE} imports of db/`);
  });

  test("e. no import cycles (type-only imports included)", () => {
    expectNone(tree.cycles, "import cycles");
  });

  test("every exception still waives an import", () => {
    expectNone(tree.staleExceptions, "exceptions that match no offending import (remove them)");
  });
});

// ── The guard bites ─────────────────────────────────────────────────────────────────────────────────────────────

describe("the guard bites", () => {
  const dir = mkdtempSync(join(tmpdir(), "svc-layers-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  /** Writes a file of the synthetic tree, one argument per line. */
  const write = (path: string, ...lines: string[]) => {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), `${lines.join("\n")}\n`);
  };

  // Upward, in each import form: static, dynamic, re-export.
  write(
    "src/lib/clock.ts",
    'import { createPost } from "../domain/posts/create.ts";',
    "export const now = createPost;",
  );
  write("src/lib/late.ts", "export async function later() {", '  return import("../queue/loop.ts");', "}");
  write("src/lib/again.ts", 'export * from "../app/config.ts";');
  write("src/db/index.ts", "export const db = {};");
  write("src/db/tables/posts.ts", "export interface PostsTable {", "  id: string;", "}");
  write("src/app/config.ts", "export const config = {};");
  write("src/queue/loop.ts", "export const loop = 1;");
  write(
    "src/domain/posts/create.ts",
    'import { db } from "../../db/index.ts";',
    "export const createPost = () => db;",
  );
  // A cycle whose closing edge is type-only: it still counts.
  write("src/domain/a.ts", 'import { b } from "./b.ts";', "export const a = () => b;");
  write("src/domain/b.ts", 'import type { A } from "./a.ts";', "export const b = 1;", "export type B = A;");
  // A platform naming a table type.
  write(
    "src/platforms/bluesky/adapter.ts",
    'import type { PostsTable } from "../../db/tables/posts.ts";',
    "export type Row = PostsTable;",
  );
  write(
    "src/http/web/sandbox.ts",
    'import { db } from "../../db/index.ts";',
    'import { createPost } from "../../domain/posts/create.ts";',
    "export const page = [db, createPost];",
  );
  // Allowed: a surface naming a table type; an admin command calling the domain.
  write(
    "src/http/api/v1/posts.ts",
    'import type { PostsTable } from "../../../db/tables/posts.ts";',
    'import { createPost } from "../../../domain/posts/create.ts";',
    "export type R = PostsTable;",
    "export const r = createPost;",
  );
  write(
    "src/cli/admin/bootstrap.ts",
    'import { createPost } from "../../domain/posts/create.ts";',
    "export const b = createPost;",
  );
  // The CLI client naming a table type (forbidden), and import-like text that is no import.
  write(
    "src/cli/posts/list.ts",
    'import { type PostsTable } from "../../db/tables/posts.ts";',
    "export type R = PostsTable;",
    '// import { db } from "../../db/index.ts";',
    "const s = \"import { x } from '../../domain/a.ts'\";",
    'const re = /"\\/v1\\/posts" import("..\\/..\\/queue\\/loop.ts")/;',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the fixture's own template literal, as source text
    'export const t = `${s} import("../../queue/loop.ts")`;',
    "export const u = re;",
  );
  write("src/mcp/tools.ts", 'import { db } from "../db/index.ts";', "export const t = db;");
  // Views: types from anywhere, values from lib/ only.
  write("views/error.tsx", 'import type { B } from "../src/domain/b.ts";', "export type E = B;");
  write(
    "views/posts.tsx",
    'import { a } from "../src/domain/a.ts";',
    "export const p = <p>Don't {String(a)}</p>;",
  );
  write("src/main.ts", "#!/usr/bin/env bun", 'import { page } from "./http/web/sandbox.ts";', "void page;");
  write("src/stray/thing.ts", "export const x = 1;");

  const report = checkLayers(dir, [
    { from: "src/mcp/tools.ts", to: "src/db/index.ts", reason: "a waived import" },
    { from: "src/lib/ids.ts", to: "src/db/index.ts", reason: "an exception that matches nothing" },
  ]);

  test("reads every kind of import, and nothing in strings, comments or regular expressions", () => {
    expect(report.unreadable).toEqual([]);
  });

  test("a. a lower floor importing a higher one, by any import form, and a view calling the domain", () => {
    expect(report.upward.map((l) => l.split("   ")[0])).toEqual([
      "src/lib/again.ts -> src/app/config.ts",
      "src/lib/clock.ts -> src/domain/posts/create.ts",
      "src/lib/late.ts -> src/queue/loop.ts",
      "views/posts.tsx -> src/domain/a.ts",
    ]);
  });

  test("b. a surface importing db/ for values, the CLI client importing db/ at all; not a type or admin", () => {
    expect(report.surfaces.map((l) => l.split("   ")[0]).sort()).toEqual([
      "src/cli/posts/list.ts -> src/db/tables/posts.ts (import type)",
      "src/http/web/sandbox.ts -> src/db/index.ts",
    ]);
  });

  test("c. a platform importing db/, even for a type", () => {
    expect(report.platforms).toEqual([
      "src/platforms/bluesky/adapter.ts -> src/db/tables/posts.ts (import type)",
    ]);
  });

  test("d. the sandbox page importing db/", () => {
    expect(report.sandbox).toEqual(["src/http/web/sandbox.ts -> src/db/index.ts"]);
  });

  test("e. a cycle, closed by a type-only import", () => {
    expect(report.cycles).toEqual([
      "2 files: src/domain/a.ts -> src/domain/b.ts -> (import type) src/domain/a.ts   [all: src/domain/a.ts, src/domain/b.ts]",
    ]);
  });

  test("a file outside the map; an exception waives its import, a stale one is reported", () => {
    expect(report.unplaced).toEqual(["src/stray/thing.ts"]);
    expect(report.surfaces.join("\n")).not.toContain("src/mcp/tools.ts");
    expect(report.staleExceptions).toEqual([
      "src/lib/ids.ts -> src/db/index.ts (an exception that matches nothing)",
    ]);
  });
});
