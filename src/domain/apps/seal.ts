// A developer app's client secret at rest: an org's app is sealed with the org's data key, an install's app (no
// org) with the master key; both bound to the row and column, so a value copied to another row does not open.
import type { App } from "../../app/context.ts";
import type { Db, Tx } from "../../db/index.ts";
import type { DeveloperAppsTable } from "../../db/tables/connect.ts";

const at = (id: string) => ({ table: "developer_apps", row: id, column: "client_secret" });

export async function sealClientSecret(
  db: Db | Tx,
  app: App,
  orgId: string | null,
  id: string,
  secret: string,
): Promise<string> {
  return orgId === null ? app.keys.sealInstall(at(id), secret) : app.keys.seal(db, orgId, at(id), secret);
}

/** The client secret in the clear, for the token endpoint. */
export async function openClientSecret(
  db: Db | Tx,
  app: App,
  row: Pick<DeveloperAppsTable, "id" | "org_id" | "client_secret">,
): Promise<string> {
  return row.org_id === null
    ? app.keys.openInstall(at(row.id), row.client_secret)
    : app.keys.open(db, row.org_id, at(row.id), row.client_secret);
}
