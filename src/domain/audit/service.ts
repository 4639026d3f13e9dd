// The audit log: one row for every change (in the change's transaction) and every refusal.
import { sql } from "kysely";
import type { App } from "../../app/context.ts";
import type { Db, Tx } from "../../db/index.ts";
import { insertRows } from "../../db/insert-rows.ts";
import type { AuditEventsTable } from "../../db/schema.ts";
import { badRequest } from "../../lib/errors.ts";
import { newId } from "../../lib/ids.ts";
import type { Actor } from "../actor.ts";
import { requireScope } from "../actor.ts";
import { listParams, page } from "../pagination.ts";
import { presentAudit } from "./present.ts";

export interface AuditEntry {
  action: string;
  target?: string | null;
  outcome?: "success" | "denied" | "failure";
  detail?: Record<string, unknown> | null;
}

export async function audit(tx: Tx | Db, app: App, actor: Actor, entry: AuditEntry): Promise<void> {
  const row: AuditEventsTable = {
    id: newId("audit"),
    org_id: actor.orgId,
    livemode: actor.livemode ? 1 : 0,
    action: entry.action,
    target: entry.target ?? null,
    user_id: actor.userId,
    api_key_id: actor.apiKeyId,
    user_token_id: actor.userTokenId,
    operator: actor.operator,
    outcome: entry.outcome ?? "success",
    request_id: actor.requestId,
    detail: entry.detail ? JSON.stringify(entry.detail) : null,
    created_at: app.clock.now(),
    // Only a review link's rows name one (the column is left to its default otherwise: same statement as before).
    ...(actor.reviewLinkId ? { review_link_id: actor.reviewLinkId } : {}),
  };
  // Plain text: every change writes one of these in its transaction.
  await insertRows(tx, app.dialect, "audit_events", [row]);
}

/** access.denied, at most once per credential and route per minute (across processes, by a unique key). */
export async function auditDenied(
  app: App,
  actor: Actor,
  route: string,
  code: string,
  reason: string,
): Promise<void> {
  const now = app.clock.now();
  const credential = actor.apiKeyId ?? actor.userTokenId ?? actor.userId ?? "unknown";
  const key = `${credential}|${route}|${Math.floor(now / 60000)}`;
  await app.db.transaction().execute(async (tx) => {
    const r = await tx
      .insertInto("audit_throttle")
      .values({ key, created_at: now })
      .onConflict((oc) => oc.column("key").doNothing())
      .executeTakeFirst();
    if (Number(r.numInsertedOrUpdatedRows ?? 0) === 0) return;
    await audit(tx, app, actor, {
      action: "access.denied",
      target: route,
      outcome: "denied",
      detail: { code, reason },
    });
  });
}

export async function listAudit(app: App, actor: Actor, query: Record<string, unknown>) {
  requireScope(actor, "audit:read");
  const p = listParams(query, "audit");
  // Optional filters: an action (`post.approve`, or `post.` for every action on posts) and an outcome.
  const action = query.action === undefined || query.action === "" ? null : String(query.action);
  if (action !== null && !/^[a-z_]+(\.[a-z_]*)*$/.test(action))
    throw badRequest(
      "parameter_invalid",
      "action is an audit action such as post.approve, or post.",
      "action",
    );
  const outcome = query.outcome === undefined || query.outcome === "" ? null : String(query.outcome);
  if (outcome !== null && outcome !== "success" && outcome !== "denied")
    throw badRequest("parameter_invalid", "outcome is success or denied.", "outcome");
  let q = app.db.selectFrom("audit_events").selectAll().where("org_id", "=", actor.orgId);
  // A prefix is a LIKE pattern with its underscores escaped (actions hold only a-z, _ and dots).
  if (action?.endsWith("."))
    q = q.where(sql<boolean>`${sql.ref("action")} LIKE ${`${action.replaceAll("_", "\\_")}%`} ESCAPE '\\'`);
  else if (action !== null) q = q.where("action", "=", action);
  if (outcome !== null) q = q.where("outcome", "=", outcome);
  return page(q, p, "/v1/audit_events", presentAudit);
}

/** An operator action outside any org (accounts): `svc admin users …`. */
export async function auditOperator(
  tx: Tx | Db,
  app: App,
  command: string,
  entry: AuditEntry,
): Promise<void> {
  await tx
    .insertInto("audit_events")
    .values({
      id: newId("audit"),
      org_id: null,
      livemode: null,
      action: entry.action,
      target: entry.target ?? null,
      user_id: null,
      api_key_id: null,
      user_token_id: null,
      operator: command,
      outcome: entry.outcome ?? "success",
      request_id: "admin-cli",
      detail: entry.detail ? JSON.stringify(entry.detail) : null,
      created_at: app.clock.now(),
    })
    .execute();
}

/**
 * A change to a person's own account security (password, two-factor, passkeys): it belongs to no org, so the row
 * has no org and names the person. Written in the change's transaction.
 */
export async function auditAccount(tx: Tx | Db, app: App, userId: string, entry: AuditEntry): Promise<void> {
  await tx
    .insertInto("audit_events")
    .values({
      id: newId("audit"),
      org_id: null,
      livemode: null,
      action: entry.action,
      target: entry.target ?? userId,
      user_id: userId,
      api_key_id: null,
      user_token_id: null,
      operator: null,
      outcome: entry.outcome ?? "success",
      request_id: null,
      detail: entry.detail ? JSON.stringify(entry.detail) : null,
      created_at: app.clock.now(),
    })
    .execute();
}

/**
 * A dashboard sign-in attempt (`account.sign_in`): success, or failure with why (wrong password, unknown address,
 * paused guesses, wrong code, passkey refused). It belongs to no org, like every account row; `userId` is null when
 * the typed address has no account (the address is kept in detail so a guessing run can be seen).
 */
export async function auditSignIn(
  app: App,
  userId: string | null,
  outcome: "success" | "failure",
  detail: Record<string, unknown>,
): Promise<void> {
  await app.db
    .insertInto("audit_events")
    .values({
      id: newId("audit"),
      org_id: null,
      livemode: null,
      action: "account.sign_in",
      target: userId,
      user_id: userId,
      api_key_id: null,
      user_token_id: null,
      operator: null,
      outcome,
      request_id: null,
      detail: JSON.stringify(detail),
      created_at: app.clock.now(),
    })
    .execute();
}
