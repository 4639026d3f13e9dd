// Who hears about what: members by role, minus the person who caused it (interface.md's Recipients column).
import type { Tx } from "../../db/index.ts";

export async function membersWithRoles(tx: Tx, orgId: string, roles: string[]): Promise<string[]> {
  const rows = await tx
    .selectFrom("members")
    .select("user_id")
    .where("org_id", "=", orgId)
    .where("role", "in", roles)
    .execute();
  return rows.map((r) => r.user_id);
}

export const except = (ids: string[], who: string | null | undefined) =>
  who ? ids.filter((id) => id !== who) : ids;
