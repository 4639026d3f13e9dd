// What raising a notification reads in the transaction of the event that causes it (domain/notifications/): kept
// to plain text, one statement each, so raising stays well under a millisecond.
import { statement } from "./statement.ts";

/** An org's admins and owners with their preference for one type (nulls: never set, the default applies). */
export const adminsWithPreference = statement<
  [type: string, orgId: string],
  { user_id: string; email: number | null; delivery: "immediate" | "daily" | null }
>(
  "SELECT m.user_id, p.email, p.delivery FROM members m LEFT JOIN notification_preferences p " +
    "ON p.user_id = m.user_id AND p.org_id = m.org_id AND p.type = ? " +
    "WHERE m.org_id = ? AND m.role IN ('admin', 'owner')",
);

/** Whether a notification of this type about this object was raised since a time (the daily channel limit). */
export const recentNotificationAbout = statement<
  [objectId: string, type: string, since: number],
  { id: string }
>("SELECT id FROM notifications WHERE object_id = ? AND type = ? AND created_at > ? LIMIT 1");

/** The person whose sign-in created a post (null for an API key). */
export const postAuthor = statement<[postId: string], { created_by_user: string | null }>(
  "SELECT created_by_user FROM posts WHERE id = ?",
);
