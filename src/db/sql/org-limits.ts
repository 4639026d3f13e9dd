// An org's limits (set by the operator), read by every create that counts against one.
import type { OrgsTable } from "../schema.ts";
import { statement } from "./statement.ts";

export type OrgLimits = Pick<
  OrgsTable,
  "limit_brands" | "limit_channels" | "limit_members" | "limit_posts_per_month"
>;

/** Plain text: every live-mode post create checks its monthly limit. */
export const orgLimits = statement<[orgId: string], OrgLimits>(
  "SELECT limit_brands, limit_channels, limit_members, limit_posts_per_month FROM orgs WHERE id = ?",
);

/**
 * With a limit set, creates in one org take turns: the count and the insert after it must not interleave with
 * another transaction's (two concurrent creates at the boundary would both see room). Postgres locks the org row
 * until the transaction ends; SQLite runs one write transaction at a time already (BEGIN IMMEDIATE).
 */
export const lockOrgForCount = statement<[orgId: string], { id: string }>({
  sqlite: null,
  postgres: "SELECT id FROM orgs WHERE id = ? FOR UPDATE",
});
