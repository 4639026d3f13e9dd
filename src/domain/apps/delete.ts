import type { App } from "../../app/context.ts";
import { type Actor, requireScope } from "../actor.ts";
import { audit } from "../audit/service.ts";
import { inTx } from "../tx.ts";
import { loadOwnApp } from "./load.ts";

/**
 * Removes one of the org's own apps. Channels connected through it keep their tokens and go on publishing; the
 * next renewal finds no app and marks them needs_reauth, so they are reconnected through another app then.
 */
export async function deleteApp(app: App, actor: Actor, id: string) {
  requireScope(actor, "channels:write");
  return inTx(app, async (tx) => {
    const cur = await loadOwnApp(tx, actor.orgId, id);
    await tx.deleteFrom("developer_apps").where("id", "=", cur.id).execute();
    await audit(tx, app, actor, {
      action: "developer_app.delete",
      target: cur.id,
      detail: { provider: cur.provider, name: cur.name },
    });
    return { id: cur.id, object: "developer_app" as const, deleted: true as const };
  });
}
