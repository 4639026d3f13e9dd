// GET /v1/me: who the credential is and its mode (the CLI checks a pasted key's mode with it).
import type { App } from "../../app/context.ts";
import { iso } from "../../lib/clock.ts";
import type { Actor } from "../actor.ts";
import { presentApiKey } from "../identity/api-keys/present.ts";

export async function me(app: App, actor: Actor) {
  const org = await app.db
    .selectFrom("orgs")
    .select(["id", "name"])
    .where("id", "=", actor.orgId)
    .executeTakeFirstOrThrow();
  const base = {
    object: "me" as const,
    livemode: actor.livemode,
    org: { id: org.id, name: org.name },
    role: actor.role,
  };
  if (actor.kind === "api_key") {
    const key = await app.db
      .selectFrom("api_keys")
      .selectAll()
      .where("id", "=", actor.apiKeyId!)
      .executeTakeFirstOrThrow();
    return { ...base, api_key: presentApiKey(key) };
  }
  const user = await app.db
    .selectFrom("users")
    .select(["id", "email", "name"])
    .where("id", "=", actor.userId!)
    .executeTakeFirstOrThrow();
  const tok = actor.userTokenId
    ? await app.db
        .selectFrom("user_tokens")
        .select(["id", "name", "hint", "livemode", "created_at"])
        .where("id", "=", actor.userTokenId)
        .executeTakeFirst()
    : undefined;
  return {
    ...base,
    user: { id: user.id, object: "user" as const, email: user.email, name: user.name },
    user_token: tok
      ? {
          id: tok.id,
          object: "user_token" as const,
          name: tok.name,
          hint: tok.hint,
          livemode: tok.livemode === 1,
          created_at: iso(tok.created_at),
        }
      : null,
  };
}
