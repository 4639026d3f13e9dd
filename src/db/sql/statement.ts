// Hand-written SQL, once per operation. Every other file in this folder exports its statements by name, each with
// its SQLite and its Postgres text (null where a dialect needs no statement at all, such as a lock SQLite's single
// writer makes needless); domain code imports a statement by name and runs it here, so it holds no SQL text and
// no dialect branch. test/db/sql.test.ts checks every export of every file here against both databases.
//
// Four kinds, all made by the functions below:
// - statement: fixed texts that take the same parameters on both dialects (a text with no `?` takes none);
// - shaped: texts built per shape (how many rows, which table), for IN lists and VALUES rows;
// - rows: a many-row INSERT, SQLite with one VALUES row per row, Postgres with one array per column (unnest), so
//   one prepared text serves any number of rows;
// - condition: one term of a query-builder WHERE (no top-level OR), for SQL the builder cannot say, such as a
//   literal a partial index needs.
// Texts use `?`; raw.ts numbers them for Postgres and prepares them there by name.
import { type RawBuilder, sql } from "kysely";
import type { Db, Dialect, Tx } from "../index.ts";
import { flushPending, type PendingWrites, pendingWrites, raw } from "../raw.ts";

/** One text per dialect; null: that dialect runs nothing. */
export interface Texts {
  readonly sqlite: string | null;
  readonly postgres: string | null;
}

export interface Statement<P extends readonly unknown[] = readonly unknown[], R = unknown> extends Texts {
  readonly kind: "statement";
  /** Per dialect: the text has `?` placeholders (one without any runs with no parameters). */
  readonly takes: { readonly sqlite: boolean; readonly postgres: boolean };
  /** Types only: the parameters and the row. */
  readonly types?: { params: P; row: R };
}

type Shape = readonly (string | number | boolean)[];

export interface Shaped<S extends Shape, P extends readonly unknown[] = unknown[], R = unknown> {
  readonly kind: "shaped";
  /** The statement for this shape (built once per shape). */
  of(...shape: S): Statement<P, R>;
  /** A representative shape, for the test. */
  readonly example: S;
}

export interface Rows<Row> {
  readonly kind: "rows";
  readonly columns: readonly (keyof Row & string)[];
  /** The statement for this many rows (Postgres: one text for any number). */
  of(rows: number): Statement<unknown[], unknown>;
  readonly example: readonly [rows: number];
}

export interface Condition<I extends readonly unknown[] = readonly unknown[]> extends Texts {
  readonly kind: "condition";
  /** The table the term is about, for the test (`SELECT 1 FROM table WHERE term`). */
  readonly table: string;
  /** The parameters from the caller's input, when they are not the input itself. */
  readonly bind?: (input: I, dialect: Dialect) => readonly unknown[];
  /** Types only. */
  readonly types?: { input: I };
}

export type SqlExport = Statement | Shaped<Shape> | Rows<Record<string, unknown>> | Condition;

const KINDS = new Set(["statement", "shaped", "rows", "condition"]);
/** True for what a file in this folder may export. */
export const isSqlExport = (v: unknown): v is SqlExport =>
  typeof v === "object" && v !== null && KINDS.has((v as { kind?: unknown }).kind as string);

/** Placeholders in a text, as raw.ts counts them for Postgres. */
export const placeholders = (text: string | null): number => (text === null ? 0 : text.split("?").length - 1);

/** A statement: one text for both dialects, or one each (null where that dialect runs nothing). */
export function statement<P extends readonly unknown[], R = unknown>(texts: string | Texts): Statement<P, R> {
  const t = typeof texts === "string" ? { sqlite: texts, postgres: texts } : texts;
  return {
    kind: "statement",
    sqlite: t.sqlite,
    postgres: t.postgres,
    takes: { sqlite: placeholders(t.sqlite) > 0, postgres: placeholders(t.postgres) > 0 },
  };
}

const NO_PARAMS: readonly unknown[] = [];

/** Runs a statement; on a dialect whose text is null it runs nothing and returns no rows. */
export function run<P extends readonly unknown[], R>(
  db: Db | Tx,
  dialect: Dialect,
  s: Statement<P, R>,
  params: NoInfer<P>,
): Promise<R[]> {
  const text = s[dialect];
  if (text === null) return Promise.resolve([]);
  return raw<R>(db, dialect, text, s.takes[dialect] ? params : NO_PARAMS);
}

/** Shapes kept per shaped statement; past this they are built on each call (no shape family grows unbounded). */
const KEEP = 256;

/** A statement whose text depends on its shape; `example` is a shape the test can check. */
export function shaped<S extends Shape, P extends readonly unknown[] = unknown[], R = unknown>(
  build: (...shape: S) => string | Texts,
  example: S,
): Shaped<S, P, R> {
  const known = new Map<string, Statement<P, R>>();
  return {
    kind: "shaped",
    example,
    of(...shape: S) {
      const key = shape.length === 1 ? String(shape[0]) : shape.join("|");
      let s = known.get(key);
      if (s === undefined) {
        s = statement<P, R>(build(...shape));
        if (known.size < KEEP) known.set(key, s);
      }
      return s;
    },
  };
}

/**
 * A many-row INSERT of these columns: `sqlite(n)` gives the text for n rows (parameters row after row),
 * `postgres` one text taking one array per column, in `columns` order.
 */
export function rows<Row>(r: {
  columns: readonly (keyof Row & string)[];
  sqlite: (rows: number) => string;
  postgres: string;
}): Rows<Row> {
  const forCount = shaped<[number]>((n) => ({ sqlite: r.sqlite(n), postgres: r.postgres }), [2]);
  return { kind: "rows", columns: r.columns, example: [2], of: (n) => forCount.of(n) };
}

/** The text and parameters that insert `items` (for a caller that hands them on rather than running them). */
export function bindRows<Row>(
  dialect: Dialect,
  s: Rows<Row>,
  items: readonly Row[],
): { text: string; params: unknown[] } {
  const text = s.of(items.length)[dialect]!;
  const cols = s.columns;
  if (dialect === "postgres")
    // One array per column; raw() sends each as a literal (text-array.ts).
    return { text, params: cols.map((c) => items.map((row) => row[c])) };
  const params: unknown[] = new Array(items.length * cols.length);
  let k = 0;
  for (const row of items) for (const c of cols) params[k++] = row[c] ?? null;
  return { text, params };
}

/** Inserts `items` (nothing when there are none). */
export async function runRows<Row>(
  db: Db | Tx,
  dialect: Dialect,
  s: Rows<Row>,
  items: readonly Row[],
): Promise<void> {
  if (items.length === 0) return;
  const { text, params } = bindRows(dialect, s, items);
  await raw(db, dialect, text, params);
}

/**
 * Writes of one change run together: on Postgres in one statement (the last write, the others its CTEs; see
 * PendingWrites in raw.ts), or handed to `pending` for the transaction's next statement to run; on SQLite, which
 * has no data-modifying CTEs, one after the other.
 */
export async function writeTogether(
  db: Db | Tx,
  dialect: Dialect,
  writes: readonly { text: string; params: readonly unknown[] }[],
  pending?: PendingWrites,
): Promise<void> {
  if (dialect === "sqlite") {
    for (const w of writes) await raw(db, dialect, w.text, w.params);
    return;
  }
  const into = pending ?? pendingWrites();
  for (const w of writes) {
    into.texts.push(w.text);
    into.params.push(...w.params);
  }
  if (!pending) await flushPending(db, dialect, into);
}

/**
 * A WHERE term about `table`: one text for both dialects, or one each; `bind` maps the caller's input to the
 * parameters (default: the input is the parameters).
 */
export function condition<I extends readonly unknown[] = readonly unknown[]>(
  table: string,
  texts: string | { sqlite: string; postgres: string },
  bind?: (input: I, dialect: Dialect) => readonly unknown[],
): Condition<I> {
  const t = typeof texts === "string" ? { sqlite: texts, postgres: texts } : texts;
  return { kind: "condition", table, sqlite: t.sqlite, postgres: t.postgres, ...(bind ? { bind } : {}) };
}

/** The term for a query-builder `.where(…)`, its parameters bound. */
export function where<I extends readonly unknown[]>(
  dialect: Dialect,
  c: Condition<I>,
  input: NoInfer<I>,
): RawBuilder<boolean> {
  const parts = c[dialect]!.split("?");
  if (parts.length === 1) return sql<boolean>`${sql.raw(parts[0]!)}`;
  const params = c.bind ? c.bind(input, dialect) : input;
  return sql<boolean>`${sql.join(
    parts.map((p, i) => (i === 0 ? sql.raw(p) : sql`${params[i - 1]}${sql.raw(p)}`)),
    sql``,
  )}`;
}
