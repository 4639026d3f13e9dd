// Finding developer apps as an org sees them: its own and the install's. Another org's app reads as missing.
import type { Db, Tx } from "../../db/index.ts";
import type { DeveloperAppsTable } from "../../db/tables/connect.ts";
import { notFound } from "../../lib/errors.ts";
import { isId } from "../../lib/ids.ts";

/** An app the org may use: its own or the install's. */
export async function loadUsableApp(db: Db | Tx, orgId: string, id: string): Promise<DeveloperAppsTable> {
  const row = isId("app", id)
    ? await db
        .selectFrom("developer_apps")
        .selectAll()
        .where("id", "=", id)
        .where((eb) => eb.or([eb("org_id", "=", orgId), eb("org_id", "is", null)]))
        .executeTakeFirst()
    : undefined;
  if (!row) throw notFound(`No developer app ${id} for this org.`, "id");
  return row;
}

/** An app the org registered itself (the ones it may rename or remove). */
export async function loadOwnApp(db: Db | Tx, orgId: string, id: string): Promise<DeveloperAppsTable> {
  const row = await loadUsableApp(db, orgId, id);
  if (row.org_id === null)
    throw notFound(
      `Developer app ${id} is provided by the server; its operator changes it with svc admin apps.`,
      "id",
    );
  return row;
}

/** The apps an org may sign in through for a provider: its own first, then the install's, oldest first. */
export async function usableApps(
  db: Db | Tx,
  orgId: string,
  provider: string,
): Promise<DeveloperAppsTable[]> {
  const rows = await db
    .selectFrom("developer_apps")
    .selectAll()
    .where("provider", "=", provider)
    .where((eb) => eb.or([eb("org_id", "=", orgId), eb("org_id", "is", null)]))
    .orderBy("id", "asc")
    .execute();
  return [...rows.filter((r) => r.org_id !== null), ...rows.filter((r) => r.org_id === null)];
}
