import type { App } from "../../app/context.ts";
import { type Actor, requireScope } from "../actor.ts";
import { loadUsableApp } from "./load.ts";
import { presentApp } from "./present.ts";

export async function getApp(app: App, actor: Actor, id: string) {
  requireScope(actor, "channels:read");
  return presentApp(app.config.baseUrl)(await loadUsableApp(app.db, actor.orgId, id));
}
