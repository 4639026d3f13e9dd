// API keys: created, listed, rolled and revoked in the caller's mode. A key never grants more than its creator
// holds (scopes, brand, mode, expiry); administrative scopes come only from a member.
import type { App } from "../../../app/context.ts";
import { hintOf, newApiKeySecret } from "../../../crypto/credentials.ts";
import { sha256hex } from "../../../crypto/hash.ts";
import type { Db, Tx } from "../../../db/index.ts";
import type { ApiKeysTable } from "../../../db/schema.ts";
import { conflict, forbidden, invalid, notFound, type Problem, problem } from "../../../lib/errors.ts";
import { newId } from "../../../lib/ids.ts";
import { type Actor, credentialOf, requireScope } from "../../actor.ts";
import { audit } from "../../audit/service.ts";
import { loadBrand } from "../../brands/service.ts";
import { listParams, page } from "../../pagination.ts";
import { rowInScope } from "../../scope.ts";
import { INTEGRATION_SCOPES, isAdminScope, isScope, scopesOfRole } from "../../scopes.ts";
import { inTx } from "../../tx.ts";
import { parse } from "../../validate.ts";
import { credentialsChanged } from "../auth/still-valid.ts";
import { requireRecentAuth } from "../auth/sudo.ts";
import { presentApiKey } from "./present.ts";
import { ApiKeyCreate, ApiKeyRoll } from "./schema.ts";

/**
 * How a person reaches key management: only through a dashboard session (user tokens never manage keys), which
 * passes when its person last confirmed their password. Creating and rolling keys need that to be recent.
 */
export interface DashboardAuth {
  confirmedAt: number | null;
}

function requireKeysWrite(app: App, actor: Actor, dashboard: DashboardAuth | undefined, sudo: boolean) {
  requireScope(actor, "keys:write");
  if (actor.kind !== "user") return;
  if (!dashboard) {
    throw forbidden(
      "reauthentication_required",
      "Creating and changing API keys as a person needs the dashboard (recent password confirmation).",
    );
  }
  // Creating keys is a sudo-mode action for people: it needs a fresh password confirmation.
  if (sudo) requireRecentAuth(app, dashboard.confirmedAt);
}

/** The rules of interface.md Authentication 1 for a key the actor creates or rolls. */
function grantProblems(
  actor: Actor,
  scopes: string[],
  brandId: string | null,
  expiresAt: number | null,
): Problem[] {
  const out: Problem[] = [];
  const held = actor.kind === "api_key" ? actor.scopes : scopesOfRole(actor.role ?? "viewer");
  const wanted = scopes.length ? scopes : [...INTEGRATION_SCOPES];
  scopes.forEach((s, i) => {
    if (!isScope(s)) out.push(problem("scope_invalid", `Unknown scope ${s}.`, `scopes.${i}`));
    else if (actor.kind === "api_key" && isAdminScope(s))
      out.push(problem("scope_not_grantable", `Only a member can grant ${s}.`, `scopes.${i}`));
  });
  for (const s of wanted) {
    if (isScope(s) && !held.has(s) && !(actor.kind === "api_key" && isAdminScope(s))) {
      out.push(problem("scope_not_held", `You cannot grant ${s}: you do not hold it.`, "scopes"));
    }
  }
  if (actor.brandId && brandId !== actor.brandId) {
    out.push(
      problem(
        "brand_required",
        "A brand-limited key can create only keys limited to its own brand.",
        "brand",
      ),
    );
  }
  if (actor.keyExpiresAt !== null && (expiresAt === null || expiresAt > actor.keyExpiresAt)) {
    out.push(
      problem("expires_too_late", "The new key must expire no later than the key creating it.", "expires_at"),
    );
  }
  return out;
}

async function insertKey(
  tx: Tx,
  app: App,
  actor: Actor,
  k: Omit<
    ApiKeysTable,
    "id" | "hash" | "hint" | "created_at" | "last_used_at" | "revoked_at" | "lineage_id" | "rolled_to"
  > & { lineage_id?: string },
) {
  const secret = newApiKeySecret(k.livemode === 1);
  const now = app.clock.now();
  const id = newId("key", now);
  const row: ApiKeysTable = {
    ...k,
    id,
    // A new key starts its own lineage; a rolled key continues the lineage of the key it replaces.
    lineage_id: k.lineage_id ?? id,
    rolled_to: null,
    hash: sha256hex(secret),
    hint: hintOf(secret),
    created_at: now,
    last_used_at: null,
    revoked_at: null,
  };
  await tx.insertInto("api_keys").values(row).execute();
  return { row, secret, actor };
}

export async function createApiKey(app: App, actor: Actor, input: unknown, dashboard?: DashboardAuth) {
  requireKeysWrite(app, actor, dashboard, true);
  const b = parse(ApiKeyCreate, input);
  const now = app.clock.now();
  const problems: Problem[] = [];
  if (b.livemode !== undefined && b.livemode !== actor.livemode) {
    problems.push(problem("livemode_mismatch", "A key can create keys only in its own mode.", "livemode"));
  }
  const expiresAt = b.expires_at ? Date.parse(b.expires_at) : null;
  if (expiresAt !== null && expiresAt <= now)
    problems.push(problem("parameter_invalid", "expires_at must be in the future.", "expires_at"));
  return inTx(app, async (tx) => {
    let brandId: string | null = null;
    if (b.brand) {
      try {
        brandId = (await loadBrand(tx, actor, b.brand)).id;
      } catch {
        problems.push(problem("brand_invalid", `No brand ${b.brand} in this org.`, "brand"));
      }
    }
    const scopes = [...new Set(b.scopes ?? [])];
    problems.push(...grantProblems(actor, scopes, brandId, expiresAt));
    if (problems.length) throw invalid(problems);
    const { row, secret } = await insertKey(tx, app, actor, {
      org_id: actor.orgId,
      livemode: actor.livemode ? 1 : 0,
      name: b.name,
      scopes: scopes.length ? JSON.stringify(scopes) : null,
      brand_id: brandId,
      expires_at: expiresAt,
      rolled_from: null,
      created_by_user: actor.userId,
      created_by_key: actor.apiKeyId,
    });
    await audit(tx, app, actor, {
      action: "api_key.create",
      target: row.id,
      detail: { name: row.name, scopes, brand: brandId },
    });
    return presentApiKey(row, secret);
  });
}

export async function listApiKeys(
  app: App,
  actor: Actor,
  query: Record<string, unknown>,
  dashboard?: DashboardAuth,
) {
  requireKeysWrite(app, actor, dashboard, false);
  let q = app.db
    .selectFrom("api_keys")
    .selectAll()
    .where("org_id", "=", actor.orgId)
    .where("livemode", "=", actor.livemode ? 1 : 0);
  if (actor.brandId) q = q.where("brand_id", "=", actor.brandId);
  return page(q, listParams(query, "key"), "/v1/api_keys", (r) => presentApiKey(r));
}

async function loadKey(tx: Tx, actor: Actor, id: string): Promise<ApiKeysTable> {
  const row = await rowInScope(tx, actor, "api_keys", "key", id);
  if (!row || (actor.brandId && row.brand_id !== actor.brandId)) throw notFound(`No API key ${id}.`, "id");
  return row;
}

export async function rollApiKey(
  app: App,
  actor: Actor,
  id: string | "self",
  input: unknown,
  dashboard?: DashboardAuth,
) {
  // A key may always roll itself (it needs no keys:write for that); rolling another key is key management.
  if (id !== "self") requireKeysWrite(app, actor, dashboard, true);
  else if (actor.kind !== "api_key" || !actor.apiKeyId)
    throw forbidden("forbidden", "Only an API key can roll itself.");
  const b = parse(ApiKeyRoll, input);
  const overlapMs = (b.overlap_hours ?? 24) * 3600_000;
  const now = app.clock.now();
  const out = await inTx(app, async (tx) => {
    const old = await loadKey(tx, actor, id === "self" ? actor.apiKeyId! : id);
    if (old.revoked_at !== null || (old.expires_at !== null && old.expires_at <= now)) {
      throw conflict("key_inactive", "This key is revoked or expired; create a new one instead.", {
        param: "id",
      });
    }
    // At most one live successor per key: a key rolled already is in its overlap, and rolling it again would
    // make one credential several live keys. Its successor is the key to roll (unless that one is gone).
    if (old.rolled_to !== null && (await keyIsLive(tx, old.rolled_to, now)))
      throw rolledAlready(old.rolled_to);
    if (id !== "self") {
      const scopes = old.scopes ? (JSON.parse(old.scopes) as string[]) : [];
      const problems = grantProblems(actor, scopes, old.brand_id, old.expires_at);
      if (problems.length) throw invalid(problems);
    }
    const { row, secret } = await insertKey(tx, app, actor, {
      org_id: old.org_id,
      livemode: old.livemode,
      name: old.name,
      scopes: old.scopes,
      brand_id: old.brand_id,
      expires_at: old.expires_at,
      rolled_from: old.id,
      lineage_id: old.lineage_id ?? old.id,
      created_by_user: actor.userId,
      created_by_key: actor.apiKeyId,
    });
    const oldUntil = Math.min(old.expires_at ?? Number.MAX_SAFE_INTEGER, now + overlapMs);
    // Conditional on the successor seen above: of two rolls at once, the second finds the row changed (on
    // Postgres it waits for the first and re-checks the row) and is refused.
    let claimRoll = tx
      .updateTable("api_keys")
      .set({ expires_at: oldUntil, rolled_to: row.id })
      .where("id", "=", old.id);
    claimRoll =
      old.rolled_to === null
        ? claimRoll.where("rolled_to", "is", null)
        : claimRoll.where("rolled_to", "=", old.rolled_to);
    const claimed = await claimRoll.executeTakeFirst();
    if (Number(claimed.numUpdatedRows) !== 1) throw rolledAlready(null);
    // A lineage has at most two live keys, the newest and the one in its overlap: rolling again ends the overlap
    // of the keys before this one (a key rolled because it leaked must not stay live through its predecessor).
    await tx
      .updateTable("api_keys")
      .set({ expires_at: now })
      .where("org_id", "=", old.org_id)
      .where("lineage_id", "=", old.lineage_id ?? old.id)
      .where("id", "not in", [old.id, row.id])
      .where("revoked_at", "is", null)
      .where((eb) => eb.or([eb("expires_at", "is", null), eb("expires_at", ">", now)]))
      .execute();
    await audit(tx, app, actor, {
      action: "api_key.roll",
      target: old.id,
      detail: { new_key: row.id, overlap_hours: b.overlap_hours ?? 24 },
    });
    return presentApiKey(row, secret);
  });
  // With overlap_hours 0 the old key ended now: its event streams end too.
  credentialsChanged(app);
  return out;
}

async function keyIsLive(tx: Tx, id: string, now: number): Promise<boolean> {
  const k = await tx
    .selectFrom("api_keys")
    .select(["revoked_at", "expires_at"])
    .where("id", "=", id)
    .executeTakeFirst();
  return !!k && k.revoked_at === null && (k.expires_at === null || k.expires_at > now);
}

const rolledAlready = (successor: string | null) =>
  conflict(
    "key_inactive",
    successor
      ? `This key was rolled already and its successor ${successor} is live; roll that key instead.`
      : "This key was rolled by another request just now; roll its successor instead.",
    { param: "id", ...(successor ? { detail: { rolled_to: successor } } : {}) },
  );

/** Whether `keyId` is the acting key or an earlier or later key of its roll chain (the same credential). */
export async function isActingCredential(db: Db | Tx, actor: Actor, keyId: string | null): Promise<boolean> {
  if (!keyId || !actor.apiKeyId) return false;
  if (keyId === actor.apiKeyId) return true;
  const k = await db
    .selectFrom("api_keys")
    .select(["id", "lineage_id"])
    .where("id", "=", keyId)
    .executeTakeFirst();
  return !!k && (k.lineage_id ?? k.id) === credentialOf(actor);
}

export async function revokeApiKey(app: App, actor: Actor, id: string, dashboard?: DashboardAuth) {
  requireKeysWrite(app, actor, dashboard, false);
  const now = app.clock.now();
  const out = await inTx(app, async (tx) => {
    const k = await loadKey(tx, actor, id);
    if (k.revoked_at === null) {
      await tx.updateTable("api_keys").set({ revoked_at: now }).where("id", "=", k.id).execute();
      await audit(tx, app, actor, { action: "api_key.revoke", target: k.id });
      k.revoked_at = now;
    }
    return presentApiKey(k);
  });
  // Committed: this process's open event streams of the key end now; other processes' within seconds.
  credentialsChanged(app);
  return out;
}

/**
 * Revokes, in the caller's transaction, every key a person minted in an org: the keys they made themselves (the
 * API keys page, the /cli page) and every key descended from one of those (a key a key made, a key that rolled
 * itself). Called when the person leaves the org, so no credential outlives the membership that granted it.
 * Keys an admin rolled for them stay: the admin holds that secret, not the person. Returns the revoked IDs (the
 * caller emits credentialsChanged after commit so open event streams end).
 */
export async function revokeKeysMintedBy(tx: Tx, app: App, actor: Actor, userId: string): Promise<string[]> {
  const now = app.clock.now();
  const minted = new Set<string>();
  let frontier = (
    await tx
      .selectFrom("api_keys")
      .select("id")
      .where("org_id", "=", actor.orgId)
      .where("created_by_user", "=", userId)
      .execute()
  ).map((r) => r.id);
  while (frontier.length) {
    for (const id of frontier) minted.add(id);
    const children = await tx
      .selectFrom("api_keys")
      .select("id")
      .where("org_id", "=", actor.orgId)
      .where("created_by_key", "in", frontier)
      .execute();
    frontier = children.map((r) => r.id).filter((id) => !minted.has(id));
  }
  if (!minted.size) return [];
  const live = await tx
    .selectFrom("api_keys")
    .select(["id", "livemode"])
    .where("id", "in", [...minted])
    .where("revoked_at", "is", null)
    .execute();
  if (!live.length) return [];
  const ids = live.map((r) => r.id);
  await tx.updateTable("api_keys").set({ revoked_at: now }).where("id", "in", ids).execute();
  // Each in its own mode's audit log, where the key is listed.
  for (const k of live)
    await audit(
      tx,
      app,
      { ...actor, livemode: k.livemode === 1 },
      { action: "api_key.revoke", target: k.id, detail: { reason: "member.remove", user: userId } },
    );
  return ids;
}
