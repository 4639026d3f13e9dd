// GET /v1/ad_accounts/{id}.
import type { App } from "../../app/context.ts";
import { type Actor, requireScope } from "../actor.ts";
import { loadAdAccount } from "./load.ts";
import { presentAdAccount } from "./present.ts";

export async function getAdAccount(app: App, actor: Actor, id: string) {
  requireScope(actor, "ads:read");
  return presentAdAccount(await loadAdAccount(app.db, actor, id));
}
