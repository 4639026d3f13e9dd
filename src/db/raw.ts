// Hot-path SQL without the query builder: the worker's claim and completion run these thousands of times a second,
// and building Kysely operation trees for them cost more than SQLite took to run them. Text is written once with
// `?` placeholders; Postgres gets `$n` (converted once per text and cached).
import { type CompiledQuery, createQueryId, PostgresAdapter, RawNode } from "kysely";
import type { Db, Dialect, Tx } from "./index.ts";
import { preparedNames } from "./prepared.ts";
import type { BunSqliteConnection } from "./sqlite.ts";
import { withArrayLiterals } from "./text-array.ts";

const pgText = new Map<string, string>();
/** Postgres: each text's node, made once (Kysely's CompiledQuery.raw makes and freezes one on every call). */
const rawNodes = new Map<string, RawNode>();
/** SQLite: each open transaction's connection (see raw). */
const txConnections = new WeakMap<Db | Tx, BunSqliteConnection>();

function forDialect(text: string, dialect: Dialect): string {
  if (dialect === "sqlite") return text;
  let q = pgText.get(text);
  if (q === undefined) {
    let n = 0;
    q = text.replace(/\?/g, () => `$${++n}`);
    pgText.set(text, q);
    preparedNames.set(q, `svc_${preparedNames.size + 1}`);
  }
  return q;
}

/** The dialect of a Kysely instance or transaction, for shared lookups that are given a Db but no App. */
export const dialectOf = (db: Db | Tx): Dialect =>
  db.getExecutor().adapter instanceof PostgresAdapter ? "postgres" : "sqlite";

export async function raw<R>(
  db: Db | Tx,
  dialect: Dialect,
  text: string,
  params: readonly unknown[],
): Promise<R[]> {
  if (dialect === "sqlite") {
    // Straight to the connection: a transaction's own, kept from its first statement (a transaction has one
    // connection for its life, and bun:sqlite runs each statement to its end synchronously), so its later
    // statements skip the query executor's connection hand-out, a few promises each; a plain call waits its turn.
    const own = db.isTransaction ? txConnections.get(db) : undefined;
    if (own) return own.rows<R>(text, params);
    return db.getExecutor().provideConnection(async (c) => {
      if (db.isTransaction) txConnections.set(db, c as BunSqliteConnection);
      return (c as BunSqliteConnection).rows<R>(text, params);
    });
  }
  const sql = forDialect(text, dialect);
  let query = rawNodes.get(sql);
  if (query === undefined) {
    query = RawNode.createWithSql(sql);
    rawNodes.set(sql, query);
  }
  // What CompiledQuery.raw gives, without freezing the parameters: freezing an array of a hundred values on every
  // statement was 3-4 % of the worker's samples in a Postgres drain. Nothing here changes them. Arrays go as
  // literals quoted natively (text-array.ts).
  const parameters = withArrayLiterals(params);
  const compiled: CompiledQuery<R> = { sql, query, parameters, queryId: createQueryId() };
  const r = await db.executeQuery<R>(compiled);
  return r.rows;
}

const lists = new Map<number, string>();
/** `?, ?, …` for n parameters. */
export function marks(n: number): string {
  let s = lists.get(n);
  if (s === undefined) {
    s = Array.from({ length: n }, () => "?").join(", ");
    lists.set(n, s);
  }
  return s;
}

/** `(?, ?), (?, ?), …` for `rows` rows of `cols` parameters. */
export function rowMarks(rows: number, cols: number): string {
  const one = `(${marks(cols)})`;
  return Array.from({ length: rows }, () => one).join(", ");
}

/** `a.x, a.y, …` (or `x, y, …`) for a column list. */
export function columns(list: readonly string[], alias?: string): string {
  return alias ? list.map((c) => `${alias}.${c}`).join(", ") : list.join(", ");
}

/**
 * Data-modifying statements (Postgres) a step hands to the next statement of its transaction, which runs them as
 * CTEs of its own: one round trip fewer. Texts use `?`; their parameters come before that statement's own.
 */
export interface PendingWrites {
  texts: string[];
  params: unknown[];
  /** Posts these writes update: the statement that runs them must not update them again (Postgres leaves a row
   * updated twice in one statement to chance). */
  postIds: string[];
}

export const pendingWrites = (): PendingWrites => ({ texts: [], params: [], postIds: [] });

/** Runs what is still pending on its own (when no later statement took it). */
export async function flushPending(db: Db | Tx, dialect: Dialect, pending: PendingWrites): Promise<void> {
  if (pending.texts.length === 0) return;
  // The last write is the statement; those before it are its CTEs, in order.
  const before = pending.texts.slice(0, -1);
  const last = pending.texts[pending.texts.length - 1]!;
  const text = before.length ? `WITH ${before.map((t, i) => `w${i} AS (${t})`).join(", ")} ${last}` : last;
  const params = pending.params;
  pending.texts = [];
  pending.params = [];
  pending.postIds = [];
  await raw(db, dialect, text, params);
}
