// Deriving a post's status reads all its targets, and two transactions that each change one target of the same
// post must not both derive from a read made before the other committed (write skew: each sees the other's
// target still publishing, both write `publishing`, the post is stuck with no final event). So every
// transaction that derives a post's status first takes the post's row lock, and reads the targets in a later
// statement: on Postgres (READ COMMITTED) each statement reads what was committed when it started, so the read
// after the lock sees every target the previous holder changed. Locks are taken in id order, and before the
// transaction changes the post's targets where it can (post, then targets), so two such transactions never wait
// on each other in a cycle.
// FOR NO KEY UPDATE, the lock an UPDATE of the post takes: it serializes derivations and post updates but lets
// inserts that merely reference the post (foreign key checks) go on.
// SQLite needs nothing: every write transaction starts with BEGIN IMMEDIATE (src/db/sqlite.ts), which takes the
// database's write lock before the first read, so such transactions already run one after the other.
import type { Dialect, Tx } from "../../db/index.ts";
import { raw } from "../../db/raw.ts";

const LOCK = "SELECT id FROM posts WHERE id = ANY(?::text[]) ORDER BY id FOR NO KEY UPDATE";

export async function lockPosts(tx: Tx, dialect: Dialect, postIds: readonly string[]): Promise<void> {
  if (dialect !== "postgres" || postIds.length === 0) return;
  await raw(tx, "postgres", LOCK, [[...new Set(postIds)]]);
}
