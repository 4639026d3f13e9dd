// Org limits (set by the operator): each unlimited unless set; reaching one refuses with limit_reached.
// Lowering a limit removes nothing, so the check is "would this make count exceed the limit".
import type { Db, Tx } from "../../db/index.ts";
import { dialectOf, raw } from "../../db/raw.ts";
import type { OrgsTable } from "../../db/schema.ts";
import { ServiceError } from "../../lib/errors.ts";

export type LimitName = "brands" | "channels" | "members" | "posts_per_month";
type Limits = Pick<OrgsTable, `limit_${LimitName}`>;

export async function assertWithinLimit(
  tx: Db | Tx,
  orgId: string,
  which: LimitName,
  countAfter: () => Promise<number>,
): Promise<void> {
  // Plain text: every live-mode post create checks its monthly limit here.
  const [org] = await raw<Limits>(
    tx,
    dialectOf(tx),
    "SELECT limit_brands, limit_channels, limit_members, limit_posts_per_month FROM orgs WHERE id = ?",
    [orgId],
  );
  if (!org) throw new Error(`no org ${orgId}`);
  const limit = org[`limit_${which}`];
  if (limit === null) return;
  // With a limit set, creates in one org take turns: the count and the insert after it must not interleave with
  // another transaction's (two concurrent creates at the boundary would both see room). SQLite transactions are
  // serialized already; Postgres locks the org row until this transaction ends.
  if (dialectOf(tx) === "postgres")
    await raw(tx, "postgres", "SELECT id FROM orgs WHERE id = ? FOR UPDATE", [orgId]);
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
