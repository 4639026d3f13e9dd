// Kysely over bun:sqlite. Our own small driver because write transactions must start with BEGIN IMMEDIATE:
// several processes may share one SQLite file (server + worker), and a deferred transaction that reads first
// and writes later fails with SQLITE_BUSY instead of waiting its turn.
import { Database } from "bun:sqlite";
import {
  type CompiledQuery,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type Kysely,
  type QueryResult,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
} from "kysely";
import { Checkpointer } from "./checkpointer.ts";

export class BunSqliteConnection implements DatabaseConnection {
  constructor(readonly db: Database) {}

  /**
   * A statement by text and parameters, without a compiled-query object: the hot paths (the publish worker, the
   * post's write) run thousands a second, and Kysely freezing each parameter list cost more than SQLite took.
   */
  rows<R>(text: string, params: readonly unknown[]): R[] {
    return this.db.query(text).all(...(params as never[])) as R[];
  }

  async executeQuery<R>(q: CompiledQuery): Promise<QueryResult<R>> {
    // db.query caches the prepared statement by SQL text, so a hot query is prepared once.
    const stmt = this.db.query(q.sql);
    const params = q.parameters as never[];
    if (stmt.columnNames.length > 0) return { rows: stmt.all(...params) as R[] };
    const r = stmt.run(...params);
    return { rows: [], numAffectedRows: BigInt(r.changes), insertId: BigInt(r.lastInsertRowid) };
  }

  // biome-ignore lint/correctness/useYield: streaming is not used; Kysely requires the method.
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error("streamQuery is not supported on bun:sqlite");
  }
}

/** Serializes use of the one connection: a transaction holds it until commit or rollback. */
class Mutex {
  private tail: Promise<void> = Promise.resolve();
  private release: (() => void) | null = null;
  async lock(): Promise<void> {
    const prev = this.tail;
    let release!: () => void;
    this.tail = new Promise<void>((r) => {
      release = r;
    });
    await prev;
    this.release = release;
  }
  unlock(): void {
    const r = this.release;
    this.release = null;
    r?.();
  }
}

class BunSqliteDriver implements Driver {
  private readonly mutex = new Mutex();
  private readonly connection: BunSqliteConnection;
  constructor(
    readonly db: Database,
    private readonly checkpointer: Checkpointer | null,
  ) {
    this.connection = new BunSqliteConnection(db);
  }
  async init(): Promise<void> {}
  async acquireConnection(): Promise<DatabaseConnection> {
    await this.mutex.lock();
    return this.connection;
  }
  async beginTransaction(): Promise<void> {
    this.db.run("BEGIN IMMEDIATE");
  }
  async commitTransaction(): Promise<void> {
    this.db.run("COMMIT");
    this.checkpointer?.committed();
  }
  async rollbackTransaction(): Promise<void> {
    this.db.run("ROLLBACK");
  }
  async releaseConnection(): Promise<void> {
    this.mutex.unlock();
  }
  async destroy(): Promise<void> {
    this.checkpointer?.stop();
    this.db.close();
  }
}

export class BunSqliteDialect implements Dialect {
  /** With `path` (a file, not :memory:), WAL checkpoints move to their own thread when commits come quickly. */
  readonly checkpointer: Checkpointer | null;
  constructor(
    readonly db: Database,
    opts: { path?: string } = {},
  ) {
    this.checkpointer = opts.path && opts.path !== ":memory:" ? new Checkpointer(opts.path, db) : null;
  }
  createAdapter() {
    return new SqliteAdapter();
  }
  createDriver() {
    return new BunSqliteDriver(this.db, this.checkpointer);
  }
  createQueryCompiler() {
    return new SqliteQueryCompiler();
  }
  createIntrospector(db: Kysely<unknown>) {
    return new SqliteIntrospector(db);
  }
}

/** How long a statement waits for another connection's write lock (bun:sqlite waits synchronously). */
export const BUSY_TIMEOUT_MS = 5000;

export function openSqlite(path: string): Database {
  const db = new Database(path, { create: true, strict: true });
  // busy_timeout first: switching a new file to WAL needs a lock another process opening it may hold.
  db.run(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`);
  db.run("PRAGMA journal_mode = WAL");
  db.run("PRAGMA synchronous = NORMAL");
  db.run("PRAGMA foreign_keys = ON");
  return db;
}
