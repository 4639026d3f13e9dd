// Who a signed-in session acts as: the person, in the org the session has chosen (the org switcher), in the
// session's mode (the test/live switcher). Pages call the domain with this Actor, like a user token would.
import type { App } from "../../../app/context.ts";
import { notFound } from "../../../lib/errors.ts";
import type { Actor } from "../../actor.ts";
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

/** The Actor of a signed-in session, or null when the person is in no org (any more). */
export async function sessionMember(
  app: App,
  session: Session,
  requestId: string,
): Promise<SessionMember | null> {
  if (!session.user_id) return null;
  const user = await app.db
    .selectFrom("users")
    .select(["email", "name"])
    .where("id", "=", session.user_id)
    .executeTakeFirst();
  const orgs = await membershipsOf(app, session.user_id);
  const org = orgs.find((o) => o.id === session.org_id) ?? orgs[0];
  if (!org || !user) return null;
  return {
    email: user.email,
    name: user.name,
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
