// What requiring single sign-on takes away: password sign-in and password reset for a person whose orgs all
// require it (a person also in other orgs signs in, but an org requiring it opens only to a session that came
// through its sign-in: sso_session), and CLI tokens approved from a session that did not (sso_session_required).
// Owners keep a break-glass path: a password sign-in that is audited in each such org they own.
import type { App } from "../../../app/context.ts";
import type { Tx } from "../../../db/index.ts";
import { ServiceError } from "../../../lib/errors.ts";

export const ssoRequiredError = () =>
  new ServiceError(
    403,
    "sso_required",
    "Your org requires single sign-on: use Continue with single sign-on.",
    { param: "email" },
  );

async function memberships(db: App["db"] | Tx, userId: string) {
  return db
    .selectFrom("members")
    .innerJoin("orgs", "orgs.id", "members.org_id")
    .select(["orgs.id", "orgs.require_sso", "members.role"])
    .where("members.user_id", "=", userId)
    .execute();
}

/** True when every org of the person requires single sign-on (and they are in at least one). */
export async function onlySsoOrgs(db: App["db"] | Tx, userId: string): Promise<boolean> {
  const m = await memberships(db, userId);
  return m.length > 0 && m.every((o) => o.require_sso === 1);
}

/**
 * After a right password: refuses (sso_required) when every org of the person requires single sign-on, unless
 * this is an owner's break-glass sign-in; returns the orgs the break-glass opens (to audit), else [].
 */
export async function passwordSignInPolicy(app: App, userId: string, breakGlass: boolean): Promise<string[]> {
  const m = await memberships(app.db, userId);
  const required = m.filter((o) => o.require_sso === 1);
  if (breakGlass) {
    const owned = required.filter((o) => o.role === "owner").map((o) => o.id);
    if (owned.length === 0)
      throw new ServiceError(
        403,
        "forbidden",
        "Break-glass sign-in is for owners of an org that requires single sign-on.",
        { param: "email" },
      );
    return owned;
  }
  if (m.length > 0 && required.length === m.length) throw ssoRequiredError();
  return [];
}

/** Whether a session may open an org's pages: always, unless the org requires single sign-on. */
export function sessionOpensOrg(
  session: { sso_org_id?: string | null; sso_break_glass?: number },
  org: { id: string; require_sso: boolean; role: string },
): boolean {
  if (!org.require_sso) return true;
  if (session.sso_org_id === org.id) return true;
  return session.sso_break_glass === 1 && org.role === "owner";
}

export const ssoSessionError = () =>
  new ServiceError(
    403,
    "sso_session",
    "This org requires single sign-on: sign in through it to open the org.",
  );
