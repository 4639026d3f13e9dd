// A post's page shows every attempt of each of its targets, on every load and every poll of a target's card: one
// hand-written statement for all of them, since the query builder's tree cost more than the read.

import { marks } from "../raw.ts";
import type { PostAttemptsTable } from "../tables/posts.ts";
import { shaped } from "./statement.ts";

/** The attempts of `n` targets of the org, by target then attempt: (org, …target IDs). */
export const attemptsOfTargets = shaped<[n: number], unknown[], PostAttemptsTable>(
  (n) => `SELECT id, org_id, target_id, attempt, started_at, finished_at, outcome, error_code, error_message,
      settlement FROM post_attempts WHERE org_id = ? AND target_id IN (${marks(n)}) ORDER BY target_id, attempt`,
  [3],
);
