// Group commit for the one SQLite connection. Each COMMIT writes every page its transaction touched to the WAL,
// and every ~1,000 WAL pages SQLite checkpoints (copies them back with an fsync; 10 ms on the project's machine,
// with the event loop stopped). A post create touches about 20 B-trees. Transactions that use the connection
// close together run inside one SQLite transaction instead, each after the first in its own savepoint (a member's
// failure rolls back only its own writes; the first's, made before anyone joined, roll back with the whole
// transaction, and the group ends there), and the group commits once: pages the members share (index leaves,
// the tail of the events table) are written once per group, and checkpoints come as much less often.
//
// No member learns it succeeded before the real COMMIT did: Kysely awaits releaseConnection before handing a
// transaction's (or a query's) result to its caller, and that is where a member waits for its group. A COMMIT
// that fails rejects every member. Whoever holds the connection while a group is open (a plain query too) is in
// the group: it sees the members' writes and waits for the same COMMIT.
import type { Database } from "bun:sqlite";

export interface GroupLimits {
  /** Members per group at most: the first member waits for the rest, so this bounds its added latency. */
  maxMembers: number;
  /** How long a group stays open for more members. */
  maxGroupMs: number;
}

export const GROUP_LIMITS: GroupLimits = { maxMembers: 16, maxGroupMs: 4 };

const SAVEPOINT = "svc_group_member";

interface Group {
  opened: number;
  members: number;
  done: Promise<void>;
  resolve: () => void;
  reject: (e: unknown) => void;
  /** Set when the shared transaction ended without COMMIT (SQLite rolls back on some errors): all fail. */
  lost: unknown;
}

function newGroup(): Group {
  let resolve!: () => void;
  let reject!: (e: unknown) => void;
  const done = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  // A group whose only member failed has nobody waiting on it.
  done.catch(() => {});
  return { opened: performance.now(), members: 0, done, resolve, reject, lost: null };
}

export class GroupCommit {
  private readonly waiters: (() => void)[] = [];
  private held = false;
  private group: Group | null = null;
  /** The current holder's last transaction rolled back: its caller fails anyway and need not wait. */
  private memberFailed = false;
  /**
   * Whether the current member runs in a savepoint. The group's first member needs none: nothing else is in the
   * transaction yet, so its failure rolls back the whole of it. A lone transaction (the publish worker's step,
   * most API writes) then costs BEGIN and COMMIT, not two more statements.
   */
  private inSavepoint = false;
  private commitScheduled = false;

  constructor(
    private readonly db: Database,
    private readonly limits: GroupLimits = GROUP_LIMITS,
    /** Called after each real COMMIT (the WAL checkpointer counts them). */
    private readonly onCommit: () => void = () => {},
  ) {}

  async acquire(): Promise<void> {
    if (this.held) await new Promise<void>((r) => this.waiters.push(r));
    this.held = true;
    this.memberFailed = false;
  }

  begin(): void {
    if (this.group && !this.db.inTransaction) {
      // A SAVEPOINT now would open a transaction of its own outside the group.
      this.memberFailed = true;
      this.loseGroup(new Error("the shared SQLite transaction ended"));
      throw this.group.lost;
    }
    this.memberFailed = false;
    if (!this.group) {
      this.db.run("BEGIN IMMEDIATE");
      this.group = newGroup();
      this.inSavepoint = false;
      return;
    }
    this.db.run(`SAVEPOINT ${SAVEPOINT}`);
    this.inSavepoint = true;
  }

  commit(): void {
    if (this.inSavepoint) this.db.run(`RELEASE ${SAVEPOINT}`);
    this.inSavepoint = false;
  }

  rollback(): void {
    this.memberFailed = true;
    if (!this.db.inTransaction) {
      // SQLite already rolled the whole transaction back (an I/O error, a full disk): the group is lost.
      this.loseGroup(new Error("the shared SQLite transaction was rolled back"));
      return;
    }
    if (!this.inSavepoint) {
      // The group's first member: the transaction holds only its writes. The group ends with it, unjoined.
      this.db.run("ROLLBACK");
      const g = this.group;
      this.group = null;
      g?.reject(new Error("the group's first transaction rolled back"));
      return;
    }
    this.inSavepoint = false;
    this.db.run(`ROLLBACK TO ${SAVEPOINT}`);
    this.db.run(`RELEASE ${SAVEPOINT}`);
  }

  async release(): Promise<void> {
    const g = this.group;
    if (!g) return this.handOver();
    g.members++;
    const failed = this.memberFailed;
    if (g.lost === null && !this.db.inTransaction)
      this.loseGroup(new Error("the shared SQLite transaction ended"));
    if (
      g.lost === null &&
      g.members < this.limits.maxMembers &&
      performance.now() - g.opened < this.limits.maxGroupMs
    ) {
      // bun:sqlite is synchronous, so a transaction runs start to end without letting another request's code
      // in, and nobody is ever waiting when it ends. The COMMIT waits one turn of the event loop instead:
      // requests whose input arrived meanwhile run, and their statements join the group.
      if (!this.commitScheduled) {
        this.commitScheduled = true;
        setImmediate(() => this.commitIfIdle());
      }
      this.handOver();
      if (!failed) await g.done;
      return;
    }
    const error = this.end(g);
    this.handOver();
    if (error !== null && !failed) throw error;
  }

  /** Commits the open group unless someone holds the connection (their release decides). */
  commitIfIdle(): void {
    this.commitScheduled = false;
    const g = this.group;
    if (!g || this.held) return;
    this.end(g);
  }

  /** COMMIT (or, for a lost group, nothing) and settle every member; the error every member gets, if any. */
  private end(g: Group): unknown {
    this.group = null;
    let error = g.lost;
    if (error === null) {
      try {
        this.db.run("COMMIT");
        this.onCommit();
      } catch (e) {
        if (this.db.inTransaction) this.db.run("ROLLBACK");
        error = e;
      }
    }
    if (error === null) g.resolve();
    else g.reject(error);
    return error;
  }

  private loseGroup(e: unknown): void {
    if (this.group && this.group.lost === null) this.group.lost = e;
  }

  private handOver(): void {
    const next = this.waiters.shift();
    if (next) next();
    else this.held = false;
  }
}
