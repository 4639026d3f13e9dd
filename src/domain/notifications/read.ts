// Marking read: one notification of the person's (another person's ID, or one of another org, is 404 and
// nothing changes), or all of theirs in the org. Reading twice keeps the first read_at.
import type { App } from "../../app/context.ts";
import { notFound } from "../../lib/errors.ts";
import { isId } from "../../lib/ids.ts";
import type { Actor } from "../actor.ts";
import { requirePerson } from "./guard.ts";
import { presentNotification } from "./present.ts";

export async function readNotification(app: App, actor: Actor, id: string) {
  const userId = requirePerson(actor);
  const row = isId("ntf", id)
    ? await app.db
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
        .where("notifications.id", "=", id)
        .where("notifications.user_id", "=", userId)
        .where("notifications.org_id", "=", actor.orgId)
        .executeTakeFirst()
    : undefined;
  if (!row) throw notFound(`No notification ${id}.`, "id");
  if (row.read_at === null) {
    const now = app.clock.now();
    await app.db
      .updateTable("notifications")
      .set({ read_at: now })
      .where("id", "=", id)
      .where("read_at", "is", null)
      .execute();
    row.read_at = now;
  }
  return presentNotification(app.config.baseUrl)(row);
}

export async function readAllNotifications(app: App, actor: Actor) {
  const userId = requirePerson(actor);
  const r = await app.db
    .updateTable("notifications")
    .set({ read_at: app.clock.now() })
    .where("user_id", "=", userId)
    .where("org_id", "=", actor.orgId)
    .where("read_at", "is", null)
    .executeTakeFirst();
  return { object: "notification_read_all" as const, marked: Number(r.numUpdatedRows) };
}
