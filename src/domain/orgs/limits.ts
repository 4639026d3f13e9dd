// Org limits (set by the operator): each unlimited unless set; reaching one refuses with limit_reached.
// Lowering a limit removes nothing, so the check is "would this make count exceed the limit".
import type { Db, Tx } from "../../db/index.ts";
import { ServiceError } from "../errors.ts";

export type LimitName = "brands" | "channels" | "members" | "posts_per_month";

export async function assertWithinLimit(
  tx: Db | Tx,
  orgId: string,
  which: LimitName,
  countAfter: () => Promise<number>,
): Promise<void> {
  const org = await tx
    .selectFrom("orgs")
    .select(["limit_brands", "limit_channels", "limit_members", "limit_posts_per_month"])
    .where("id", "=", orgId)
    .executeTakeFirstOrThrow();
  const limit = org[`limit_${which}`];
  if (limit === null) return;
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
