// Org limits (set by the operator): each unlimited unless set; reaching one refuses with limit_reached.
// Lowering a limit removes nothing, so the check is "would this make count exceed the limit".
import type { Db, Tx } from "../../db/index.ts";
import { dialectOf } from "../../db/raw.ts";
import { lockOrgForCount, orgLimits } from "../../db/sql/org-limits.ts";
import { run } from "../../db/sql/statement.ts";
import { ServiceError } from "../../lib/errors.ts";

export type LimitName = "brands" | "channels" | "members" | "posts_per_month";

export async function assertWithinLimit(
  tx: Db | Tx,
  orgId: string,
  which: LimitName,
  countAfter: () => Promise<number>,
): Promise<void> {
  const dialect = dialectOf(tx);
  const [org] = await run(tx, dialect, orgLimits, [orgId]);
  if (!org) throw new Error(`no org ${orgId}`);
  const limit = org[`limit_${which}`];
  if (limit === null) return;
  // With a limit set, creates in one org take turns (see the statement).
  await run(tx, dialect, lockOrgForCount, [orgId]);
  const count = await countAfter();
  if (count > limit) {
    throw new ServiceError(
      403,
      "limit_reached",
      `This org has reached its limit of ${limit} ${which.replaceAll("_", " ")}.`,
      {
        param: which,
        detail: { limit, count: count - 1 },
      },
    );
  }
}
