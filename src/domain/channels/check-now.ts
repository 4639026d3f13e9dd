// "Check now" on the dashboard's Channels page: the daily credential check (check.ts), asked for one channel by a
// person. Refused credentials make it needs_reauth as the daily check would; the channel as it now stands and what
// the check concluded are returned.
import type { App } from "../../app/context.ts";
import { type Actor, requireScope } from "../actor.ts";
import { type CheckResult, checkChannel } from "./check.ts";
import { loadChannel } from "./load.ts";
import { presentChannel } from "./present.ts";

export async function checkChannelNow(app: App, actor: Actor, id: string) {
  requireScope(actor, "channels:write");
  const row = await loadChannel(app.db, actor, id);
  // A sandbox or a network that checks nothing has nothing to conclude; a disabled channel is left as it is.
  const result: CheckResult = row.status === "disabled" ? "skipped" : await checkChannel(app, row);
  return { result, channel: presentChannel(await loadChannel(app.db, actor, id)) };
}
