// GET /v1/analytics_sources/{id}.
import type { App } from "../../app/context.ts";
import { type Actor, requireScope } from "../actor.ts";
import { loadAnalyticsSource } from "./load.ts";
import { presentAnalyticsSource } from "./present.ts";

export async function getAnalyticsSource(app: App, actor: Actor, id: string) {
  requireScope(actor, "brands:read");
  return presentAnalyticsSource(await loadAnalyticsSource(app.db, actor, id));
}
