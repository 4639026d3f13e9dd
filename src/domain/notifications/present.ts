// The public Notification shape (reference §4): id, type, org, org_name, subject, body, link, read_at, created_at.
import type { NotificationsTable } from "../../db/tables/notifications.ts";
import { iso, isoOrNull } from "../../lib/clock.ts";

export type NotificationRow = Pick<
  NotificationsTable,
  "id" | "org_id" | "type" | "subject" | "body" | "link" | "read_at" | "created_at"
> & { org_name: string };

/** Links are stored as dashboard paths and presented absolute, so an API client or a mail reader can open them. */
export const absoluteLink = (baseUrl: string, link: string) => `${baseUrl.replace(/\/$/, "")}${link}`;

export const presentNotification = (baseUrl: string) => (n: NotificationRow) => ({
  id: n.id,
  object: "notification" as const,
  type: n.type,
  org: n.org_id,
  org_name: n.org_name,
  subject: n.subject,
  body: n.body,
  link: absoluteLink(baseUrl, n.link),
  read_at: isoOrNull(n.read_at),
  created_at: iso(n.created_at),
});
export type PresentedNotification = ReturnType<ReturnType<typeof presentNotification>>;
