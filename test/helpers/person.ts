// The Actor a dashboard session stands for: a person acting in one org with their role there (no token).
import type { App } from "../../src/app/context.ts";
import type { Actor } from "../../src/domain/actor.ts";
import { type Role, scopesOfRole } from "../../src/domain/scopes.ts";

export async function personActor(app: App, userId: string, orgId: string, livemode = false): Promise<Actor> {
  const m = await app.db
    .selectFrom("members")
    .select("role")
    .where("user_id", "=", userId)
    .where("org_id", "=", orgId)
    .executeTakeFirstOrThrow();
  const role = m.role as Role;
  return {
    kind: "user",
    orgId,
    livemode,
    scopes: scopesOfRole(role),
    brandId: null,
    apiKeyId: null,
    keyScopes: null,
    keyExpiresAt: null,
    userId,
    userTokenId: null,
    role,
    operator: null,
    requestId: "req_test",
  };
}
