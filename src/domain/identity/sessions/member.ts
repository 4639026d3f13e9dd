// Who a signed-in session acts as: the person, in the org the session has chosen (the org switcher), in the
// session's mode (the test/live switcher). Pages call the domain with this Actor, like a user token would.
import type { App } from "../../../app/context.ts";
import { raw } from "../../../db/raw.ts";
import { notFound } from "../../../lib/errors.ts";
import type { Actor } from "../../actor.ts";
import { countChannelsNeedingReauth } from "../../channels/needs-reauth.ts";
import { unreadCount } from "../../notifications/list.ts";
import { type Role, scopesOfRole } from "../../scopes.ts";
import { inTx } from "../../tx.ts";
import type { Session } from "./service.ts";

export interface Membership {
  id: string;
  name: string;
  status: string;
  status_note: string | null;
  require_mfa: boolean;
  require_sso: boolean;
  role: Role;
}

export async function membershipsOf(app: App, userId: string): Promise<Membership[]> {
  const rows = await app.db
    .selectFrom("members")
    .innerJoin("orgs", "orgs.id", "members.org_id")
    .select([
      "orgs.id",
      "orgs.name",
      "orgs.status",
      "orgs.status_note",
      "orgs.require_mfa",
      "orgs.require_sso",
      "members.role",
    ])
    .where("members.user_id", "=", userId)
    .orderBy("orgs.name")
    .orderBy("orgs.id")
    .execute();
  return rows.map((r) => ({
    ...r,
    require_mfa: r.require_mfa === 1,
    require_sso: r.require_sso === 1,
    role: r.role as Role,
  }));
}

export interface SessionMember {
  email: string;
  name: string | null;
  actor: Actor;
  org: Membership;
  orgs: Membership[];
}

/**
 * The person, their orgs and, for the session's org, the bell's and the reconnect banner's counts, in one
 * statement: every dashboard page reads these, and five statements (each through the query builder) cost more
 * than the post's own page took to read. Nothing is cached between requests: a member removed, a role changed or
 * an org renamed shows on the very next page.
 */
const FRAME_SQL = `SELECT u.email AS user_email, u.name AS user_name, o.id, o.name, o.status, o.status_note,
  o.require_mfa, o.require_sso, m.role,
  CASE WHEN o.id = ? THEN (SELECT count(*) FROM notifications n
    WHERE n.user_id = u.id AND n.org_id = o.id AND n.read_at IS NULL) END AS unread,
  CASE WHEN o.id = ? THEN (SELECT count(*) FROM channels c
    WHERE c.org_id = o.id AND c.livemode = ? AND c.status = 'needs_reauth') END AS reauth
FROM users u JOIN members m ON m.user_id = u.id JOIN orgs o ON o.id = m.org_id
WHERE u.id = ?
ORDER BY o.name, o.id`;

interface FrameRow {
  user_email: string;
  user_name: string | null;
  id: string;
  name: string;
  status: string;
  status_note: string | null;
  require_mfa: number;
  require_sso: number;
  role: string;
  unread: number | null;
  reauth: number | null;
}

export interface SessionFrame {
  member: SessionMember | null;
  /** The bell's count in the member's org (null when not asked for). */
  unread: number | null;
  /** Channels of the member's org and mode that need reconnecting (null when not asked for). */
  reauth: number | null;
}

/**
 * The Actor of a signed-in session (null when the person is in no org any more) and, with `counts`, the frame's
 * two counts for the org the session acts in. A session whose org the person has left acts in their first org;
 * its counts are then read apart (rare: the statement counted for the org the session named).
 */
export async function sessionFrame(
  app: App,
  session: Session,
  requestId: string,
  counts: boolean,
): Promise<SessionFrame> {
  const none = { member: null, unread: null, reauth: null };
  if (!session.user_id) return none;
  const countIn = counts ? session.org_id : null;
  const rows = await raw<FrameRow>(app.db, app.dialect, FRAME_SQL, [
    countIn,
    countIn,
    session.livemode === 1 ? 1 : 0,
    session.user_id,
  ]);
  const orgs: Membership[] = rows.map((r) => ({
    id: r.id,
    name: r.name,
    status: r.status,
    status_note: r.status_note,
    require_mfa: Number(r.require_mfa) === 1,
    require_sso: Number(r.require_sso) === 1,
    role: r.role as Role,
  }));
  const i = Math.max(
    0,
    orgs.findIndex((o) => o.id === session.org_id),
  );
  const row = rows[i];
  const org = orgs[i];
  if (!row || !org) return none;
  const member: SessionMember = {
    email: row.user_email,
    name: row.user_name,
    org,
    orgs,
    actor: {
      kind: "user",
      orgId: org.id,
      livemode: session.livemode === 1,
      scopes: scopesOfRole(org.role),
      brandId: null,
      apiKeyId: null,
      keyScopes: null,
      keyExpiresAt: null,
      userId: session.user_id,
      userTokenId: null,
      role: org.role,
      operator: null,
      requestId,
    },
  };
  if (!counts) return { member, unread: null, reauth: null };
  if (row.unread !== null && row.reauth !== null)
    return { member, unread: Number(row.unread), reauth: Number(row.reauth) };
  const [unread, reauth] = await Promise.all([
    unreadCount(app, session.user_id, org.id),
    countChannelsNeedingReauth(app, member.actor),
  ]);
  return { member, unread, reauth };
}

/** The Actor of a signed-in session, or null when the person is in no org (any more). */
export async function sessionMember(
  app: App,
  session: Session,
  requestId: string,
): Promise<SessionMember | null> {
  return (await sessionFrame(app, session, requestId, false)).member;
}

/** The org switcher: only an org the person is a member of (another one looks missing). */
export async function switchOrg(app: App, session: Session, orgId: string): Promise<void> {
  if (!session.user_id) throw notFound("No such org.", "org");
  const orgs = await membershipsOf(app, session.user_id);
  if (!orgs.some((o) => o.id === orgId)) throw notFound("You are not a member of that org.", "org");
  await inTx(app, (tx) =>
    tx.updateTable("web_sessions").set({ org_id: orgId }).where("id", "=", session.id).execute(),
  );
  session.org_id = orgId;
}

/** The test/live switcher: the session's mode, which every page's Actor carries. */
export async function switchMode(app: App, session: Session, livemode: boolean): Promise<void> {
  const v = livemode ? 1 : 0;
  await app.db.updateTable("web_sessions").set({ livemode: v }).where("id", "=", session.id).execute();
  session.livemode = v;
}
