// Reading the request log (interface.md "Notifications and request log"): admins and owners see the API requests
// made with the org's keys and CLI sign-ins in the current mode, newest first, 14 days (requests.prune removes
// older rows). Filters: a status (one code, or a class such as 4xx), a problem code, and one key or CLI sign-in.
import type { App } from "../../app/context.ts";
import type { RequestLogTable } from "../../db/schema.ts";
import { iso } from "../../lib/clock.ts";
import { badRequest } from "../../lib/errors.ts";
import { isId } from "../../lib/ids.ts";
import { type Actor, requireScope } from "../actor.ts";
import { listParams, page } from "../pagination.ts";

export const REQUEST_LOG_RETENTION_MS = 14 * 86400_000;

export const presentRequest = (r: RequestLogTable) => ({
  id: r.id,
  object: "request" as const,
  method: r.method,
  path: r.path,
  status: r.status,
  code: r.code,
  duration_ms: r.duration_ms,
  api_key: r.api_key_id,
  user_token: r.user_token_id,
  livemode: r.livemode === 1,
  created_at: iso(r.created_at),
});
export type LoggedRequest = ReturnType<typeof presentRequest>;

const text = (v: unknown) => (v === undefined || v === "" ? null : String(v));

export async function listRequests(app: App, actor: Actor, query: Record<string, unknown>) {
  // The log is for admins and owners: the same scope that reads the audit log.
  requireScope(actor, "audit:read");
  const p = listParams(query, "req");
  const status = text(query.status);
  if (status !== null && !/^[1-5]([0-9]{2}|xx)$/.test(status))
    throw badRequest(
      "parameter_invalid",
      "status is an HTTP status such as 429, or a class such as 4xx.",
      "status",
    );
  const code = text(query.code);
  if (code !== null && !/^[a-z][a-z0-9_]{0,63}$/.test(code))
    throw badRequest("parameter_invalid", "code is a problem code such as rate_limited.", "code");
  const key = text(query.key);
  if (key !== null && !isId("key", key) && !isId("utok", key))
    throw badRequest("parameter_invalid", "key is an API key ID or a CLI sign-in's token ID.", "key");
  let q = app.db
    .selectFrom("request_log")
    .selectAll()
    .where("org_id", "=", actor.orgId)
    .where("livemode", "=", actor.livemode ? 1 : 0)
    .where("created_at", ">=", app.clock.now() - REQUEST_LOG_RETENTION_MS);
  if (status?.endsWith("xx")) {
    const lo = Number(status[0]) * 100;
    q = q.where("status", ">=", lo).where("status", "<", lo + 100);
  } else if (status !== null) q = q.where("status", "=", Number(status));
  if (code !== null) q = q.where("code", "=", code);
  if (key !== null) q = q.where(key.startsWith("key_") ? "api_key_id" : "user_token_id", "=", key);
  return page(q, p, "/requests", presentRequest);
}

/**
 * The credentials a request log row can name, with labels a person recognises: the org's API keys of this mode
 * (revoked ones too: their requests stay in the log) and the CLI sign-ins of this mode of the org's members.
 */
export async function requestCredentials(app: App, actor: Actor): Promise<{ id: string; label: string }[]> {
  requireScope(actor, "audit:read");
  const live = actor.livemode ? 1 : 0;
  const [keys, tokens] = await Promise.all([
    app.db
      .selectFrom("api_keys")
      .select(["id", "name", "hint", "revoked_at"])
      .where("org_id", "=", actor.orgId)
      .where("livemode", "=", live)
      .orderBy("id", "desc")
      .limit(500)
      .execute(),
    app.db
      .selectFrom("user_tokens")
      .innerJoin("members", "members.user_id", "user_tokens.user_id")
      .innerJoin("users", "users.id", "user_tokens.user_id")
      .select(["user_tokens.id", "user_tokens.name", "users.email", "user_tokens.revoked_at"])
      .where("members.org_id", "=", actor.orgId)
      .where("user_tokens.livemode", "=", live)
      .orderBy("user_tokens.id", "desc")
      .limit(500)
      .execute(),
  ]);
  return [
    ...keys.map((k) => ({ id: k.id, label: `${k.name} (${k.hint})${k.revoked_at ? ", revoked" : ""}` })),
    ...tokens.map((t) => ({
      id: t.id,
      label: `CLI ${t.name} of ${t.email}${t.revoked_at ? ", signed out" : ""}`,
    })),
  ];
}
