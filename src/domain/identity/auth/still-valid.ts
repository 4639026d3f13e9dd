// Whether the credential behind an Actor still holds: a long-lived answer (the event stream) asks again every few
// seconds and when this process changes a credential, so revoking or expiring a key, revoking a user token,
// disabling a person, removing them from the org or suspending the org ends it within seconds on every process.
// The checks are the ones `authenticate` makes when a request arrives.
import type { App } from "../../../app/context.ts";
import type { Actor } from "../../actor.ts";

const YEAR = 365 * 86400_000;

/** The signal a process emits after it revoked or ended a credential; open streams re-check at once. */
export const CREDENTIALS_SIGNAL = "credentials";

export function credentialsChanged(app: App): void {
  app.signals.emit(CREDENTIALS_SIGNAL);
}

export async function credentialStillValid(app: App, actor: Actor): Promise<boolean> {
  const now = app.clock.now();
  if (actor.kind === "api_key") {
    if (!actor.apiKeyId) return false;
    const k = await app.db
      .selectFrom("api_keys")
      .innerJoin("orgs", "orgs.id", "api_keys.org_id")
      .select(["api_keys.revoked_at", "api_keys.expires_at", "orgs.status"])
      .where("api_keys.id", "=", actor.apiKeyId)
      .executeTakeFirst();
    return (
      !!k &&
      k.revoked_at === null &&
      (k.expires_at === null || Number(k.expires_at) > now) &&
      k.status !== "suspended"
    );
  }
  if (actor.kind === "user") {
    if (!actor.userId) return false;
    if (actor.userTokenId) {
      const t = await app.db
        .selectFrom("user_tokens")
        .select(["revoked_at", "created_at", "last_used_at"])
        .where("id", "=", actor.userTokenId)
        .executeTakeFirst();
      if (!t || t.revoked_at !== null || Number(t.last_used_at ?? t.created_at) < now - YEAR) return false;
    }
    const m = await app.db
      .selectFrom("members")
      .innerJoin("users", "users.id", "members.user_id")
      .innerJoin("orgs", "orgs.id", "members.org_id")
      .select(["users.disabled_at", "orgs.status"])
      .where("members.user_id", "=", actor.userId)
      .where("members.org_id", "=", actor.orgId)
      .executeTakeFirst();
    return !!m && m.disabled_at === null && m.status !== "suspended";
  }
  // The operator's own commands do not hold streams open.
  return true;
}
