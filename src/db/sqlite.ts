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
import { GroupCommit, type GroupLimits } from "./group-commit.ts";
import { sqliteText } from "./sqlite-params.ts";

export class BunSqliteConnection implements DatabaseConnection {
  constructor(readonly db: Database) {}

  /**
   * A statement by text and parameters, without a compiled-query object: the hot paths (the publish worker, the
   * post's write) run thousands a second, and Kysely freezing each parameter list cost more than SQLite took.
   */
  rows<R>(text: string, params: readonly unknown[]): R[] {
    return this.db.query(sqliteText(text)).all(...(params as never[])) as R[];
  }

  async executeQuery<R>(q: CompiledQuery): Promise<QueryResult<R>> {
    // db.query caches the prepared statement by SQL text, so a hot query is prepared once (and, its parameters
    // written as values, stays prepared: sqlite-params.ts).
    const stmt = this.db.query(sqliteText(q.sql));
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

class BunSqliteDriver implements Driver {
  private readonly connection: BunSqliteConnection;
  private readonly checkpointer: Checkpointer | null;
  /** Serializes use of the one connection and commits queued transactions together. */
  private readonly groups: GroupCommit;
  constructor(
    readonly db: Database,
    checkpointer: Checkpointer | null,
    limits?: GroupLimits,
  ) {
    this.connection = new BunSqliteConnection(db);
    this.groups = new GroupCommit(db, limits, () => checkpointer?.committed());
    this.checkpointer = checkpointer;
  }
  async init(): Promise<void> {}
  async acquireConnection(): Promise<DatabaseConnection> {
    await this.groups.acquire();
    return this.connection;
  }
  async beginTransaction(): Promise<void> {
    this.groups.begin();
  }
  async commitTransaction(): Promise<void> {
    this.groups.commit();
  }
  async rollbackTransaction(): Promise<void> {
    this.groups.rollback();
  }
  async releaseConnection(): Promise<void> {
    await this.groups.release();
  }
  async destroy(): Promise<void> {
    this.groups.commitIfIdle();
    this.checkpointer?.stop();
    this.db.close();
  }
}

/**
 * Kysely serializes a single-connection dialect with a mutex of its own that it releases only after the driver's
 * releaseConnection returns; a group member waits for its COMMIT there, so under that mutex no second member could
 * ever join. The driver serializes the connection itself (GroupCommit).
 */
class BunSqliteAdapter extends SqliteAdapter {
  override get supportsMultipleConnections(): boolean {
    return true;
  }
}

export class BunSqliteDialect implements Dialect {
  /** With `path` (a file, not :memory:), WAL checkpoints move to their own thread when commits come quickly. */
  readonly checkpointer: Checkpointer | null;
  constructor(
    readonly db: Database,
    readonly opts: { path?: string; groupLimits?: GroupLimits } = {},
  ) {
    this.checkpointer = opts.path && opts.path !== ":memory:" ? new Checkpointer(opts.path, db) : null;
  }
  createAdapter() {
    return new BunSqliteAdapter();
  }
  createDriver() {
    return new BunSqliteDriver(this.db, this.checkpointer, this.opts.groupLimits);
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
  // Statement journals and sorters in memory, not in temporary files: a multi-row statement inside a savepoint
  // (every group-commit member runs in one) opened and deleted a temporary file each time, which made a post's
  // write take half again as long (bench/api-statements.ts: 986 to 629 µs of CPU a POST /v1/posts).
  db.run("PRAGMA temp_store = MEMORY");
  return db;
}
