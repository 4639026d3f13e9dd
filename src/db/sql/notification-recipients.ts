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

/**
 * Postgres: what raising needs for a batch of events, in one round trip (raising runs inside the causing request's
 * transaction, where each statement is a trip to the server and back through the query path). The items come as
 * one JSON array of objects with the columns named in `u` below (JSON rather than one array per column: the
 * planner's estimate for a JSON set is the same whatever its values, so after a few runs Postgres keeps one
 * generic plan for the statement instead of planning it again on every call, which cost more than running it).
 * That plan cannot know the batch is small, so each look-up is a LATERAL subquery kept apart by OFFSET 0: one
 * index probe per item or recipient, never a scan of members or preferences.
 *
 * Per item, the recipients are the author of `author_post` when `author_in`, and the org's admins and owners when
 * `admins`, less `except_user` and less the post's author (already counted when `author_in`, left out
 * otherwise). An item whose `since` is set is dropped when a notification of its type about its object was raised
 * after it (the daily channel limit). Each recipient's email is decided from their preference for the type, as
 * raise.ts decides it. IDs come from `ids` (made in the process, so they sort with every other ID): item k takes
 * ids[id_start + 1 … id_start + id_count]; when any item has more recipients than that, nothing is inserted and
 * the answer says how many each needs, for one more try. Answers one row per item that has recipients.
 *
 * SQLite: null; its statements are calls into the process, not round trips, and raising there runs the
 * statements above one by one.
 */
export const raiseForEvents = statement<
  [items: string, ids: string[], mail: boolean, now: number],
  { k: number; wanted: number; inserted: number }
>({
  sqlite: null,
  postgres:
    "WITH i AS (SELECT * FROM jsonb_to_recordset(?::jsonb) " +
    "AS u(k int, org_id text, type text, object_id text, subject text, body text, link text, author_post text, " +
    "author_in boolean, except_user text, admins boolean, since bigint, email_default boolean, id_start int, " +
    "id_count int) " +
    "WHERE u.since IS NULL OR NOT EXISTS (SELECT 1 FROM notifications n " +
    "WHERE n.object_id = u.object_id AND n.type = u.type AND n.created_at > u.since)), " +
    "a AS (SELECT i.k, i.author_in, p.user_id FROM i CROSS JOIN LATERAL (SELECT created_by_user AS user_id " +
    "FROM posts WHERE id = i.author_post AND created_by_user IS NOT NULL OFFSET 0) p), " +
    "r0 AS (SELECT a.k, a.user_id FROM a WHERE a.author_in " +
    "UNION ALL SELECT i.k, m.user_id FROM i CROSS JOIN LATERAL (SELECT user_id FROM members " +
    "WHERE org_id = i.org_id AND role IN ('admin', 'owner') OFFSET 0) m " +
    "WHERE i.admins AND m.user_id IS DISTINCT FROM i.except_user " +
    "AND NOT EXISTS (SELECT 1 FROM a WHERE a.k = i.k AND a.user_id = m.user_id)), " +
    "r AS (SELECT r0.k, r0.user_id, row_number() OVER (PARTITION BY r0.k ORDER BY r0.user_id) AS n FROM r0), " +
    "ins AS (INSERT INTO notifications (id, org_id, user_id, type, object_id, subject, body, link, email, " +
    "mail_id, read_at, created_at) " +
    "SELECT (?::text[])[i.id_start + r.n], i.org_id, r.user_id, i.type, i.object_id, i.subject, i.body, i.link, " +
    "CASE WHEN NOT ?::bool OR NOT COALESCE(p.email = 1, i.email_default) THEN 'none' " +
    "WHEN p.delivery = 'daily' THEN 'digest' ELSE 'immediate' END, NULL, NULL, ?::bigint " +
    "FROM r JOIN i ON i.k = r.k LEFT JOIN LATERAL (SELECT email, delivery FROM notification_preferences " +
    "WHERE user_id = r.user_id AND org_id = i.org_id AND type = i.type OFFSET 0) p ON true " +
    "WHERE NOT EXISTS (SELECT 1 FROM r r2 JOIN i i2 ON i2.k = r2.k WHERE r2.n > i2.id_count) RETURNING 1) " +
    "SELECT r.k, count(*)::int AS wanted, (SELECT count(*) FROM ins)::int AS inserted FROM r GROUP BY r.k",
});
