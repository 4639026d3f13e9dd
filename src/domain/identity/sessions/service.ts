// Dashboard sessions: a random cookie secret whose SHA-256 is the stored key, so a copy of the database signs no
// one in. Every stage change (sign-in, second factor) issues a new secret and ends the old row: a session ID
// someone planted before sign-in is worth nothing after it.
//
// A visitor who has not signed in gets no row at all: their "pre-session" is a token signed with a key derived
// from the master key, carried only in the cookie (a random nonce that binds the CSRF token, its expiry, and a
// passkey challenge when one is open). Loading the sign-in page a million times stores nothing.
import type { App } from "../../../app/context.ts";
import { randomBase62, safeEqual, sha256hex } from "../../../crypto/hash.ts";
import { nodeCrypto } from "../../../crypto/node.ts";
import type { Db, Tx } from "../../../db/index.ts";
import { raw } from "../../../db/raw.ts";
import type { SessionStage, WebSessionsTable } from "../../../db/tables/sessions.ts";
import { iso, isoOrNull } from "../../../lib/clock.ts";
import { notFound } from "../../../lib/errors.ts";
import { newId } from "../../../lib/ids.ts";
import { inTx } from "../../tx.ts";

/** An anonymous session (before sign-in) lives 2 hours; a signed-in one 30 days, ended by 7 idle days. */
export const ANONYMOUS_TTL_MS = 2 * 3600_000;
export const SESSION_TTL_MS = 30 * 86400_000;
export const IDLE_MS = 7 * 86400_000;
/** Sign-in halfway (second factor or enrolment due) must finish within 15 minutes. */
export const PARTIAL_TTL_MS = 15 * 60_000;

export interface ClientMeta {
  ip: string | null;
  userAgent: string | null;
}

export interface Session extends WebSessionsTable {
  /** The cookie value; only the hash is stored (a pre-session's is the signed token, stored nowhere). */
  secret: string;
  /** A pre-session (stage anonymous, no row): its nonce and when its passkey challenge was issued. */
  pre?: { nonce: string; challengeAt: number | null };
}

const ttlOf = (stage: SessionStage) =>
  stage === "anonymous" ? ANONYMOUS_TTL_MS : stage === "active" ? SESSION_TTL_MS : PARTIAL_TTL_MS;

export async function insertSession(
  db: Db | Tx,
  app: App,
  fields: { stage: SessionStage; userId: string | null; orgId: string | null; livemode: boolean },
  meta: ClientMeta,
  extra: Partial<WebSessionsTable> = {},
): Promise<Session> {
  const secret = randomBase62(40);
  const now = app.clock.now();
  const row: WebSessionsTable = {
    id: newId("sess", now),
    hash: sha256hex(secret),
    user_id: fields.userId,
    stage: fields.stage,
    org_id: fields.orgId,
    livemode: fields.livemode ? 1 : 0,
    confirmed_at: null,
    challenge: null,
    ip: meta.ip?.slice(0, 64) ?? null,
    user_agent: meta.userAgent?.slice(0, 300) ?? null,
    created_at: now,
    last_seen_at: now,
    expires_at: now + ttlOf(fields.stage),
    revoked_at: null,
    ...extra,
  };
  await db.insertInto("web_sessions").values(row).execute();
  return { ...row, secret };
}

const PRE = "p1";
const preKey = (app: App) => app.keys.derived("dashboard-pre-sessions");

async function signPre(
  app: App,
  s: { nonce: string; expires: number; challenge: string | null; challengeAt: number | null },
) {
  const body = [PRE, s.nonce, s.expires, s.challenge ?? "", s.challengeAt ?? ""].join(".");
  return `${body}.${nodeCrypto()
    .createHmac("sha256", await preKey(app))
    .update(body)
    .digest("base64url")}`;
}

async function preSession(
  app: App,
  fields: {
    nonce: string;
    expires: number;
    challenge: string | null;
    challengeAt: number | null;
    created: number;
  },
  meta: ClientMeta,
): Promise<Session> {
  return {
    id: `pre_${fields.nonce.slice(0, 12)}`,
    hash: "",
    user_id: null,
    stage: "anonymous",
    org_id: null,
    livemode: 0,
    confirmed_at: null,
    challenge: fields.challenge,
    ip: meta.ip?.slice(0, 64) ?? null,
    user_agent: meta.userAgent?.slice(0, 300) ?? null,
    created_at: fields.created,
    last_seen_at: fields.created,
    expires_at: fields.expires,
    revoked_at: null,
    secret: await signPre(app, fields),
    pre: { nonce: fields.nonce, challengeAt: fields.challengeAt },
  };
}

/** A pre-session for a visitor who is not signed in: nothing is stored; it lives 2 hours in the cookie. */
export const startAnonymousSession = (app: App, meta: ClientMeta): Promise<Session> => {
  const now = app.clock.now();
  return preSession(
    app,
    {
      nonce: randomBase62(32),
      expires: now + ANONYMOUS_TTL_MS,
      challenge: null,
      challengeAt: null,
      created: now,
    },
    meta,
  );
};

/** The pre-session a signed token stands for, or null (forged, another key's, expired, malformed). */
async function loadPreSession(app: App, token: string, meta: ClientMeta): Promise<Session | null> {
  const parts = token.split(".");
  if (parts.length !== 6 || parts[0] !== PRE) return null;
  const [, nonce, expires, challenge, challengeAt, mac] = parts as [
    string,
    string,
    string,
    string,
    string,
    string,
  ];
  const body = parts.slice(0, 5).join(".");
  if (
    !safeEqual(
      mac,
      nodeCrypto()
        .createHmac("sha256", await preKey(app))
        .update(body)
        .digest("base64url"),
    )
  )
    return null;
  const exp = Number(expires);
  if (!Number.isSafeInteger(exp) || exp <= app.clock.now()) return null;
  return preSession(
    app,
    {
      nonce,
      expires: exp,
      challenge: challenge || null,
      challengeAt: challengeAt ? Number(challengeAt) : null,
      created: exp - ANONYMOUS_TTL_MS,
    },
    meta,
  );
}

/**
 * Keeps a passkey challenge on the session: on its row, or for a pre-session in its signed token (the caller
 * sends the new cookie). `at` is when it was issued, so a passkey accepts no challenge older than its last use.
 */
export async function setSessionChallenge(app: App, session: Session, challenge: string | null) {
  const now = app.clock.now();
  if (session.pre) {
    const next = await preSession(
      app,
      {
        nonce: session.pre.nonce,
        expires: session.expires_at,
        challenge,
        challengeAt: challenge ? now : null,
        created: session.created_at,
      },
      { ip: session.ip, userAgent: session.user_agent },
    );
    Object.assign(session, { secret: next.secret, challenge, pre: next.pre });
    return;
  }
  await app.db.updateTable("web_sessions").set({ challenge }).where("id", "=", session.id).execute();
  session.challenge = challenge;
}

// Columns named, not `*`: on Postgres the text is a prepared statement, which must keep its result's shape when a
// migration adds a column (src/db/prepared.ts).
const SESSION_BY_HASH = `SELECT s.id, s.hash, s.user_id, s.stage, s.org_id, s.livemode, s.confirmed_at, s.challenge,
  s.ip, s.user_agent, s.created_at, s.last_seen_at, s.expires_at, s.revoked_at, s.sso_org_id, s.sso_break_glass,
  (SELECT u.disabled_at FROM users u WHERE u.id = s.user_id) AS disabled_at
  FROM web_sessions s WHERE s.hash = ?`;

/** The live session for a cookie value, or null (unknown, revoked, expired, idle too long, disabled person). */
export async function loadSession(
  app: App,
  secret: string | null | undefined,
  meta: ClientMeta = { ip: null, userAgent: null },
): Promise<Session | null> {
  if (secret?.startsWith(`${PRE}.`)) return loadPreSession(app, secret, meta);
  if (!secret || secret.length !== 40) return null;
  // The person's disabled_at as a scalar subquery: the same answer as a left join on users' key, and on SQLite
  // (bun:sqlite) about a quarter of its cost on this, every dashboard request's first statement. Plain SQL text:
  // building it with the query builder took longer than running it.
  const [row] = await raw<WebSessionsTable & { disabled_at: number | null }>(
    app.db,
    app.dialect,
    SESSION_BY_HASH,
    [sha256hex(secret)],
  );
  const now = app.clock.now();
  if (!row || row.revoked_at !== null || row.expires_at <= now || row.disabled_at) return null;
  if (row.stage === "active" && row.last_seen_at < now - IDLE_MS) return null;
  // Written at most once a minute: a write per page view would be most of the dashboard's writes.
  if (now - row.last_seen_at > 60_000)
    await raw(app.db, app.dialect, "UPDATE web_sessions SET last_seen_at = ? WHERE id = ?", [now, row.id]);
  const { disabled_at: _d, ...session } = row;
  return { ...session, secret };
}

/** Ends `old` and issues a new session with a new secret in one transaction (sign-in steps rotate the ID). */
export async function rotateSession(
  app: App,
  old: Session,
  fields: { stage: SessionStage; userId: string; orgId: string | null; livemode: boolean },
  meta: ClientMeta,
  extra: Partial<WebSessionsTable> = {},
): Promise<Session> {
  return inTx(app, async (tx) => {
    // A pre-session has no row to end: its token is simply replaced by the new cookie.
    if (!old.pre)
      await tx
        .updateTable("web_sessions")
        .set({ revoked_at: app.clock.now() })
        .where("id", "=", old.id)
        .execute();
    return insertSession(tx, app, fields, meta, extra);
  });
}

/** The synchronizer token for forms and htmx requests: an HMAC of the session's secret, so it is bound to this
 * session and useless with any other (no stored copy needed). */
export const csrfTokenOf = (session: Session) =>
  nodeCrypto()
    .createHmac("sha256", session.pre?.nonce ?? session.secret)
    .update("svc:csrf")
    .digest("base64url");

export const csrfValid = (session: Session, token: string | null | undefined) =>
  typeof token === "string" && safeEqual(token, csrfTokenOf(session));

export async function updateSession(app: App, session: Session, set: Partial<WebSessionsTable>) {
  if (!session.pre) await app.db.updateTable("web_sessions").set(set).where("id", "=", session.id).execute();
  Object.assign(session, set);
}

export async function signOut(app: App, session: Session): Promise<void> {
  await updateSession(app, session, { revoked_at: app.clock.now() });
}

export const presentSession = (s: WebSessionsTable, currentId: string) => ({
  id: s.id,
  object: "session" as const,
  current: s.id === currentId,
  ip: s.ip,
  user_agent: s.user_agent,
  created_at: iso(s.created_at),
  last_seen_at: iso(s.last_seen_at),
  revoked_at: isoOrNull(s.revoked_at),
});

/** The person's signed-in sessions that still work, newest first. */
export async function listSessions(app: App, session: Session) {
  const now = app.clock.now();
  const rows = await app.db
    .selectFrom("web_sessions")
    .selectAll()
    .where("user_id", "=", session.user_id)
    .where("stage", "=", "active")
    .where("revoked_at", "is", null)
    .where("expires_at", ">", now)
    .where("last_seen_at", ">", now - IDLE_MS)
    .orderBy("created_at", "desc")
    .execute();
  return rows.map((r) => presentSession(r, session.id));
}

/** Revokes one of the person's own sessions; another person's session ID looks missing. */
export async function revokeSession(app: App, session: Session, id: string) {
  const res = await app.db
    .updateTable("web_sessions")
    .set({ revoked_at: app.clock.now() })
    .where("id", "=", id)
    .where("user_id", "=", session.user_id)
    .where("revoked_at", "is", null)
    .executeTakeFirst();
  if (Number(res.numUpdatedRows) === 0) throw notFound(`No session ${id}.`, "id");
}

/** Ends the person's dashboard sessions still open, except `keepId` (the browser making the change). */
export async function endSessionsOf(tx: Tx, app: App, userId: string, keepId: string | null) {
  let q = tx
    .updateTable("web_sessions")
    .set({ revoked_at: app.clock.now() })
    .where("user_id", "=", userId)
    .where("revoked_at", "is", null);
  if (keepId) q = q.where("id", "!=", keepId);
  const res = await q.executeTakeFirst();
  return Number(res.numUpdatedRows);
}

/** Deletes sessions that ended (expired or idle too long) more than a day ago (the sessions.prune task). */
export async function pruneSessions(app: App): Promise<number> {
  const dayAgo = app.clock.now() - 86400_000;
  const res = await app.db
    .deleteFrom("web_sessions")
    .where((eb) => eb.or([eb("expires_at", "<", dayAgo), eb("last_seen_at", "<", dayAgo - IDLE_MS)]))
    .executeTakeFirst();
  return Number(res.numDeletedRows);
}
