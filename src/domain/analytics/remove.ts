// DELETE /v1/analytics_sources/{id} (brands:write): the source, its sealed credentials and its daily counts go.
import type { App } from "../../app/context.ts";
import { type Actor, requireScope } from "../actor.ts";
import { audit } from "../audit/service.ts";
import { inTx } from "../tx.ts";
import { loadAnalyticsSource } from "./load.ts";

export async function removeAnalyticsSource(app: App, actor: Actor, id: string) {
  requireScope(actor, "brands:write");
  return inTx(app, async (tx) => {
    const s = await loadAnalyticsSource(tx, actor, id);
    await tx.deleteFrom("analytics_daily").where("source_id", "=", s.id).execute();
    await tx.deleteFrom("analytics_sources").where("id", "=", s.id).execute();
    await audit(tx, app, actor, {
      action: "analytics_source.remove",
      target: s.id,
      detail: { provider: s.provider },
    });
    return { id: s.id, object: "analytics_source" as const, deleted: true as const };
  });
}
