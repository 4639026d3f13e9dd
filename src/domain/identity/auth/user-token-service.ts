// A person's user tokens (the Devices page and `svc auth logout`): listed, revoked one by one, or all at once
// (a password change or reset). Tokens belong to the person, not to an org, so these never look at actor.orgId
// for visibility: another person's token reads as missing.
import type { App } from "../../../app/context.ts";
import type { Tx } from "../../../db/index.ts";
import { notFound, ServiceError } from "../../../lib/errors.ts";
import { isId } from "../../../lib/ids.ts";
import type { Actor } from "../../actor.ts";
import { audit } from "../../audit/service.ts";
import { inTx } from "../../tx.ts";
import { presentUserToken } from "./user-token-present.ts";

const YEAR = 365 * 86400_000;

function personOf(actor: Actor): string {
  if (actor.kind !== "user" || !actor.userId)
    throw new ServiceError(403, "forbidden", "Only a person has user tokens; sign in with svc auth login.");
  return actor.userId;
}

/** The person's working tokens, newest first (revoked and year-unused ones are gone for good). */
export async function listUserTokens(app: App, actor: Actor) {
  const userId = personOf(actor);
  const cutoff = app.clock.now() - YEAR;
  const rows = await app.db
    .selectFrom("user_tokens")
    .selectAll()
    .where("user_id", "=", userId)
    .where("revoked_at", "is", null)
    .orderBy("id", "desc")
    .execute();
  return {
    object: "list" as const,
    data: rows.filter((t) => (t.last_used_at ?? t.created_at) >= cutoff).map(presentUserToken),
    has_more: false,
    url: "/devices",
  };
}

/** Revokes one of the person's tokens (the Devices page). */
export async function revokeUserToken(app: App, actor: Actor, id: string) {
  const userId = personOf(actor);
  return inTx(app, async (tx) => {
    const row = isId("utok", id)
      ? await tx
          .selectFrom("user_tokens")
          .selectAll()
          .where("id", "=", id)
          .where("user_id", "=", userId)
          .executeTakeFirst()
      : undefined;
    if (!row) throw notFound(`No token ${id}.`, "id");
    if (row.revoked_at === null) {
      await tx.updateTable("user_tokens").set({ revoked_at: app.clock.now() }).where("id", "=", id).execute();
      await audit(tx, app, actor, { action: "user_token.revoke", target: id, detail: { name: row.name } });
    }
    return { id, object: "user_token" as const, deleted: true as const };
  });
}

/** DELETE /v1/auth/token: the calling token revokes itself (`svc auth logout`). */
export async function revokeCurrentUserToken(app: App, actor: Actor) {
  if (actor.kind !== "user" || !actor.userTokenId)
    throw new ServiceError(
      403,
      "forbidden",
      "Only a user token can sign itself out; API keys are revoked with /v1/api_keys.",
    );
  return revokeUserToken(app, actor, actor.userTokenId);
}

/** Every working token of a person, revoked in `tx` (password change or reset; reference §9). */
export async function revokeAllUserTokens(tx: Tx, app: App, userId: string): Promise<number> {
  const r = await tx
    .updateTable("user_tokens")
    .set({ revoked_at: app.clock.now() })
    .where("user_id", "=", userId)
    .where("revoked_at", "is", null)
    .executeTakeFirst();
  return Number(r.numUpdatedRows);
}
