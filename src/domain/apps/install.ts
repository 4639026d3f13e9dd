// The install's developer apps, offered to every org (`svc admin apps add|list|rename|remove`). They belong to no
// org, so their secrets are sealed with the master key and their changes audited as the operator's.
import type { App } from "../../app/context.ts";
import { notFound } from "../../lib/errors.ts";
import { isId } from "../../lib/ids.ts";
import { auditOperator } from "../audit/service.ts";
import { inTx, isUniqueViolation } from "../tx.ts";
import { parse } from "../validate.ts";
import { assertNameFree, nameTaken, registerApp } from "./create.ts";
import { redirectUri } from "./present.ts";
import { AppRename } from "./schema.ts";

/** What the operator sees of an install app (the client ID too: it is theirs). */
const presentInstallApp =
  (baseUrl: string) => (a: { id: string; provider: string; name: string; client_id: string }) => ({
    id: a.id,
    provider: a.provider,
    name: a.name,
    client_id: a.client_id,
    redirect_uri: redirectUri(baseUrl, a.provider),
  });

export async function addInstallApp(app: App, command: string, input: unknown) {
  return inTx(app, async (tx) => {
    const row = await registerApp(tx, app, null, input);
    await auditOperator(tx, app, command, {
      action: "developer_app.create",
      target: row.id,
      detail: { provider: row.provider, name: row.name, client_id: row.client_id },
    });
    return presentInstallApp(app.config.baseUrl)(row);
  });
}

export async function listInstallApps(app: App) {
  const rows = await app.db
    .selectFrom("developer_apps")
    .selectAll()
    .where("org_id", "is", null)
    .orderBy("id", "asc")
    .execute();
  return rows.map(presentInstallApp(app.config.baseUrl));
}

async function loadInstallApp(app: App, id: string) {
  const row = isId("app", id)
    ? await app.db
        .selectFrom("developer_apps")
        .selectAll()
        .where("id", "=", id)
        .where("org_id", "is", null)
        .executeTakeFirst()
    : undefined;
  if (!row) throw notFound(`No install developer app ${id}.`, "app");
  return row;
}

export async function renameInstallApp(app: App, command: string, id: string, input: unknown) {
  const b = parse(AppRename, input);
  const cur = await loadInstallApp(app, id);
  return inTx(app, async (tx) => {
    await assertNameFree(tx, null, b.name, cur.id);
    try {
      await tx
        .updateTable("developer_apps")
        .set({ name: b.name, updated_at: app.clock.now() })
        .where("id", "=", cur.id)
        .execute();
    } catch (e) {
      if (isUniqueViolation(e, "developer_apps_name")) throw nameTaken(b.name);
      throw e;
    }
    await auditOperator(tx, app, command, {
      action: "developer_app.rename",
      target: cur.id,
      detail: { name: { from: cur.name, to: b.name } },
    });
    return presentInstallApp(app.config.baseUrl)({ ...cur, name: b.name });
  });
}

/** Removes an install app; channels connected through it keep working until their token needs renewal. */
export async function removeInstallApp(app: App, command: string, id: string) {
  const cur = await loadInstallApp(app, id);
  await inTx(app, async (tx) => {
    await tx.deleteFrom("developer_apps").where("id", "=", cur.id).execute();
    await auditOperator(tx, app, command, {
      action: "developer_app.delete",
      target: cur.id,
      detail: { provider: cur.provider, name: cur.name },
    });
  });
  return { id: cur.id, deleted: true as const };
}
