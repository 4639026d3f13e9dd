import type { App } from "../../app/context.ts";
import { type Actor, requireScope } from "../actor.ts";
import { loadMailAccount } from "./load.ts";
import { presentMailAccount } from "./present.ts";

export async function getMailAccount(app: App, actor: Actor, id: string) {
  requireScope(actor, "channels:read");
  return presentMailAccount(await loadMailAccount(app.db, actor, id));
}
