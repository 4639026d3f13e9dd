// The person's notifications in the org they act in, newest first; `unread` keeps only the unread ones.
import type { App } from "../../app/context.ts";
import { badRequest } from "../../lib/errors.ts";
import type { Actor } from "../actor.ts";
import { listParams, page } from "../pagination.ts";
import { requirePerson } from "./guard.ts";
import { presentNotification } from "./present.ts";

/** `?unread`, `?unread=true` and `?unread=1` mean unread only; `false`/`0` or absent mean all. */
function unreadParam(v: unknown): boolean {
  if (v === undefined || v === "false" || v === "0" || v === false) return false;
  if (v === "" || v === "true" || v === "1" || v === true) return true;
  throw badRequest("parameter_invalid", "unread must be true or false.", "unread");
}

export async function listNotifications(app: App, actor: Actor, query: Record<string, unknown>) {
  const userId = requirePerson(actor);
  const p = listParams(query, "ntf");
  const unread = unreadParam(query.unread);
  let q = app.db
    .selectFrom("notifications")
    .innerJoin("orgs", "orgs.id", "notifications.org_id")
    .select([
      "notifications.id",
      "notifications.org_id",
      "notifications.type",
      "notifications.subject",
      "notifications.body",
      "notifications.link",
      "notifications.read_at",
      "notifications.created_at",
      "orgs.name as org_name",
    ])
    .where("notifications.user_id", "=", userId)
    .where("notifications.org_id", "=", actor.orgId);
  if (unread) q = q.where("notifications.read_at", "is", null);
  return page(
    q,
    p,
    unread ? "/v1/notifications?unread=true" : "/v1/notifications",
    presentNotification(app.config.baseUrl),
    "notifications.id",
  );
}

/** The bell's figure: one count over the partial index of unread rows. */
export async function unreadCount(app: App, userId: string, orgId: string): Promise<number> {
  const r = await app.db
    .selectFrom("notifications")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("user_id", "=", userId)
    .where("org_id", "=", orgId)
    .where("read_at", "is", null)
    .executeTakeFirstOrThrow();
  return Number(r.n);
}
