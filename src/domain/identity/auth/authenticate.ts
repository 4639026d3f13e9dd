// Turns a bearer credential into an Actor (interface.md Authentication). Shared by the API and MCP surfaces.
import type { App } from "../../../app/context.ts";
import { parseCredential } from "../../../crypto/credentials.ts";
import { apiKeyByHash, touchApiKey } from "../../../db/sql/authenticate-api-key.ts";
import { run } from "../../../db/sql/statement.ts";
import { type ErrorCode, ServiceError } from "../../../lib/errors.ts";
import { isId } from "../../../lib/ids.ts";
import type { Actor } from "../../actor.ts";
import { type Role, scopesOfRole } from "../../scopes.ts";
import { scopesOfColumn } from "./key-scopes.ts";

const YEAR = 365 * 86400_000;

const unauthorized = (code: ErrorCode, message: string) =>
  new ServiceError(401, code, message, { headers: { "WWW-Authenticate": 'Bearer realm="svc"' } });

// last_used_at is written at most once a minute per credential: a write per request would dominate hot paths.
const lastTouched = new Map<string, number>();
function shouldTouch(id: string, now: number): boolean {
  const t = lastTouched.get(id);
  if (t !== undefined && now - t < 60_000) return false;
  if (lastTouched.size > 10_000) lastTouched.clear();
  lastTouched.set(id, now);
  return true;
}

export function orgStatusError(status: string, note: string | null): ServiceError | null {
  if (status === "suspended") {
    return new ServiceError(
      403,
      "org_suspended",
      `This org is suspended by the operator.${note ? ` ${note}` : ""}`,
    );
  }
  return null;
}

export interface AuthInput {
  authorization: string | null;
  org: string | null;
  requestId: string;
}

export async function authenticate(
  app: App,
  input: AuthInput,
): Promise<Actor & { orgStatus: string; orgStatusNote: string | null }> {
  const header = input.authorization;
  if (!header) throw unauthorized("api_key_missing", "Send your API key as Authorization: Bearer <key>.");
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!m) throw unauthorized("api_key_invalid", "The Authorization header must be Bearer <key>.");
  const cred = parseCredential(m[1]!);
  if (!cred) throw unauthorized("api_key_invalid", "This is not a valid API key.");
  const now = app.clock.now();

  if (cred.kind === "operator_key")
    throw unauthorized("api_key_invalid", "Operator keys are accepted only under /v1/operator/.");

  if (cred.kind === "api_key") {
    const [row] = await run(app.db, app.dialect, apiKeyByHash, [cred.hash]);
    if (!row) throw unauthorized("api_key_invalid", "This API key is not known.");
    if (row.revoked_at !== null) throw unauthorized("api_key_expired", "This API key was revoked.");
    if (row.expires_at !== null && row.expires_at <= now)
      throw unauthorized("api_key_expired", "This API key has expired.");
    const statusErr = orgStatusError(row.status, row.status_note);
    if (statusErr) throw statusErr;
    if (shouldTouch(row.id, now)) await run(app.db, app.dialect, touchApiKey, [now, row.id]);
    const { listed, scopes } = scopesOfColumn(row.scopes);
    return {
      kind: "api_key",
      orgId: row.org_id,
      livemode: row.livemode === 1,
      scopes,
      brandId: row.brand_id,
      apiKeyId: row.id,
      keyLineageId: row.lineage_id,
      keyScopes: listed,
      keyExpiresAt: row.expires_at,
      userId: null,
      userTokenId: null,
      role: null,
      operator: null,
      requestId: input.requestId,
      orgStatus: row.status,
      orgStatusNote: row.status_note,
    };
  }

  // A user token acts as the person in the org named by Svc-Org (needed only when the person is in several).
  const tok = await app.db
    .selectFrom("user_tokens")
    .innerJoin("users", "users.id", "user_tokens.user_id")
    .select([
      "user_tokens.id",
      "user_tokens.user_id",
      "user_tokens.livemode",
      "user_tokens.via_sso",
      "user_tokens.revoked_at",
      "user_tokens.created_at",
      "user_tokens.last_used_at",
      "users.disabled_at",
    ])
    .where("user_tokens.hash", "=", cred.hash)
    .executeTakeFirst();
  if (
    !tok ||
    tok.revoked_at !== null ||
    tok.disabled_at !== null ||
    (tok.last_used_at ?? tok.created_at) < now - YEAR
  ) {
    throw unauthorized(
      "user_token_invalid",
      "This token is revoked, unused for a year, or unknown. Sign in again with svc auth login.",
    );
  }
  const memberships = await app.db
    .selectFrom("members")
    .innerJoin("orgs", "orgs.id", "members.org_id")
    .select(["orgs.id", "orgs.name", "orgs.status", "orgs.status_note", "orgs.require_sso", "members.role"])
    .where("members.user_id", "=", tok.user_id)
    .execute();
  let chosen = memberships[0];
  if (input.org) {
    const byId = isId("org", input.org) ? memberships.filter((o) => o.id === input.org) : [];
    const byName = memberships.filter((o) => o.name === input.org);
    if (byId.length === 0 && byName.length > 1) {
      throw new ServiceError(
        422,
        "org_ambiguous",
        "Several of your orgs have that name; send its ID in Svc-Org.",
        { param: "Svc-Org" },
      );
    }
    chosen = byId[0] ?? byName[0];
    if (!chosen)
      throw new ServiceError(404, "org_unknown", `You are not a member of ${input.org}.`, {
        param: "Svc-Org",
      });
  } else if (memberships.length > 1) {
    throw new ServiceError(
      422,
      "org_required",
      "You belong to several orgs; name one in the Svc-Org header (or --org).",
      { param: "Svc-Org" },
    );
  }
  if (!chosen) throw new ServiceError(404, "org_unknown", "You are not a member of any org.");
  const statusErr = orgStatusError(chosen.status, chosen.status_note);
  if (statusErr) throw statusErr;
  if (chosen.require_sso === 1 && tok.via_sso !== 1) {
    throw new ServiceError(
      403,
      "sso_required",
      "This org requires single sign-on; approve the CLI sign-in from a single sign-on session.",
    );
  }
  if (shouldTouch(tok.id, now))
    await app.db.updateTable("user_tokens").set({ last_used_at: now }).where("id", "=", tok.id).execute();
  const role = chosen.role as Role;
  return {
    kind: "user",
    orgId: chosen.id,
    livemode: tok.livemode === 1,
    scopes: scopesOfRole(role),
    brandId: null,
    apiKeyId: null,
    keyScopes: null,
    keyExpiresAt: null,
    userId: tok.user_id,
    userTokenId: tok.id,
    role,
    operator: null,
    requestId: input.requestId,
    orgStatus: chosen.status,
    orgStatusNote: chosen.status_note,
  };
}
