import type { App } from "../../app/context.ts";
import { type Actor, requireScope } from "../actor.ts";
import { loadIssue, presentedIssue } from "./load.ts";

export async function getIssue(app: App, actor: Actor, id: string) {
  requireScope(actor, "newsletters:read");
  return presentedIssue(app.db, await loadIssue(app.db, actor, id));
}
