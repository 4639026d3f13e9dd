import type { App } from "../../app/context.ts";
import { type Actor, requireScope } from "../actor.ts";
import { audit } from "../audit/service.ts";
import { inTx, isUniqueViolation } from "../tx.ts";
import { parse } from "../validate.ts";
import { assertNameFree, nameTaken } from "./create.ts";
import { loadOwnApp } from "./load.ts";
import { presentApp } from "./present.ts";
import { AppRename } from "./schema.ts";

/** Renames one of the org's own apps (an install app is renamed by its operator). */
export async function renameApp(app: App, actor: Actor, id: string, input: unknown) {
  requireScope(actor, "channels:write");
  const b = parse(AppRename, input);
  return inTx(app, async (tx) => {
    const cur = await loadOwnApp(tx, actor.orgId, id);
    if (cur.name === b.name) return presentApp(app.config.baseUrl)(cur);
    await assertNameFree(tx, cur.org_id, b.name, cur.id);
    const now = app.clock.now();
    try {
      await tx
        .updateTable("developer_apps")
        .set({ name: b.name, updated_at: now })
        .where("id", "=", cur.id)
        .execute();
    } catch (e) {
      if (isUniqueViolation(e, "developer_apps_name")) throw nameTaken(b.name);
      throw e;
    }
    await audit(tx, app, actor, {
      action: "developer_app.rename",
      target: cur.id,
      detail: { name: { from: cur.name, to: b.name } },
    });
    return presentApp(app.config.baseUrl)({ ...cur, name: b.name, updated_at: now });
  });
}
