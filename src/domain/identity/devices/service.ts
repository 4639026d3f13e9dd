// CLI sign-in by device authorization (RFC 8628; interface.md Authentication 3). The CLI asks for a code pair, the
// person types the short user code on the dashboard's /device page and approves it in sudo mode (or denies), and
// the CLI, polling with the device code, collects a user token once. The token is made at collection time, so no
// token secret is ever stored; only hashes of both codes are.
import type { App } from "../../../app/context.ts";
import type { Tx } from "../../../db/index.ts";
import type { DeviceAuthorizationsTable } from "../../../db/tables/identity.ts";
import { iso } from "../../../lib/clock.ts";
import { type ErrorCode, notFound, ServiceError } from "../../../lib/errors.ts";
import { newId } from "../../../lib/ids.ts";
import { kickMail } from "../../../mail/outbox.ts";
import type { Actor } from "../../actor.ts";
import { audit } from "../../audit/service.ts";
import { sendAccountNoticeInTx } from "../../notifications/account.ts";
import { inTx, isUniqueViolation } from "../../tx.ts";
import { parse } from "../../validate.ts";
import { requireRecentAuth } from "../auth/sudo.ts";
import { presentUserToken } from "../auth/user-token-present.ts";
import { issueUserToken } from "../auth/user-tokens.ts";
import { accountSubject, beginGuess, guessesLocked } from "../guesses/guard.ts";
import { hashDeviceCode, hashUserCode, newDeviceCode, newUserCode, normalizeUserCode } from "./codes.ts";
import { DeviceStart, DeviceTokenRequest } from "./schema.ts";

export const DEVICE_CODE_TTL_MS = 15 * 60_000;
export const DEVICE_POLL_INTERVAL_S = 5;
/** Pending CLI sign-ins one client address may have at once (no credential is needed to start one). */
export const PENDING_PER_ADDRESS = 10;

export { DeviceStart, DeviceTokenRequest };

/** The 400s of the token endpoint (RFC 8628 §3.5); the HTTP surface adds the RFC's `error` field. */
const grantError = (code: ErrorCode, message: string) => new ServiceError(400, code, message);

/** POST /v1/auth/device: a new code pair for a CLI. */
export async function startDeviceAuthorization(app: App, input: unknown, ctx: { ip: string | null }) {
  const b = parse(DeviceStart, input);
  const now = app.clock.now();
  // A user code could collide with one still stored: draw again (never seen in practice, 20^8 codes).
  for (let attempt = 0; ; attempt++) {
    const deviceCode = newDeviceCode();
    const userCode = newUserCode();
    try {
      await inTx(app, async (tx) => {
        await tx
          .insertInto("device_authorizations")
          .values({
            id: newId("dev", now),
            device_code_hash: hashDeviceCode(deviceCode),
            user_code_hash: hashUserCode(normalizeUserCode(userCode)!),
            device_name: b.device_name,
            livemode: b.livemode ? 1 : 0,
            client_ip: ctx.ip,
            status: "pending",
            interval_s: DEVICE_POLL_INTERVAL_S,
            last_polled_at: null,
            user_id: null,
            org_id: null,
            via_sso: 0,
            token_id: null,
            decided_at: null,
            expires_at: now + DEVICE_CODE_TTL_MS,
            created_at: now,
          })
          .execute();
        // Counted with this one in the same transaction: past the cap, it is undone.
        await refuseOverCap(tx, ctx.ip, now);
      });
    } catch (e) {
      if (isUniqueViolation(e) && attempt < 3) continue;
      throw e;
    }
    return {
      device_code: deviceCode,
      user_code: userCode,
      verification_uri: `${app.config.baseUrl.replace(/\/$/, "")}/device`,
      expires_in: DEVICE_CODE_TTL_MS / 1000,
      interval: DEVICE_POLL_INTERVAL_S,
    };
  }
}

/**
 * No credential is needed to start a CLI sign-in, so each client address may have at most PENDING_PER_ADDRESS
 * pending at once (429 rate_limited, Retry-After until the oldest ends); the per-address request rate alone
 * would let one address fill the table with thousands of live codes.
 */
async function refuseOverCap(tx: Tx, ip: string | null, now: number) {
  let q = tx
    .selectFrom("device_authorizations")
    .select((eb) => [eb.fn.countAll<number>().as("n"), eb.fn.min("expires_at").as("first_ends")])
    .where("status", "=", "pending")
    .where("expires_at", ">", now);
  q = ip === null ? q.where("client_ip", "is", null) : q.where("client_ip", "=", ip);
  const row = await q.executeTakeFirstOrThrow();
  if (Number(row.n) <= PENDING_PER_ADDRESS) return;
  const wait = Math.max(1, Math.ceil((Number(row.first_ends) - now) / 1000));
  throw new ServiceError(
    429,
    "rate_limited",
    `${PENDING_PER_ADDRESS} CLI sign-ins from your address are already waiting; finish or wait for one (at most ${Math.ceil(wait / 60)} minutes).`,
    { headers: { "Retry-After": String(wait) } },
  );
}

/** POST /v1/auth/device/token: the user token once approved, else the RFC's 400 for the state the code is in. */
export async function pollDeviceToken(app: App, input: unknown) {
  const b = parse(DeviceTokenRequest, input);
  const now = app.clock.now();
  // A pending poll records its time (for slow_down) and still answers an error: the error is returned out of the
  // transaction, not thrown in it, so the record commits.
  const out = await inTx(app, async (tx) => {
    const row = await tx
      .selectFrom("device_authorizations")
      .selectAll()
      .where("device_code_hash", "=", hashDeviceCode(b.device_code))
      .executeTakeFirst();
    if (!row || row.status === "used")
      throw grantError("invalid_grant", "This device code is unknown or was already used; sign in again.");
    if (row.status === "denied")
      throw grantError("access_denied", "The sign-in was denied in the dashboard.");
    if (row.expires_at <= now)
      throw grantError("expired_token", "This device code expired (15 minutes); sign in again.");
    if (row.status === "pending") {
      // Polling faster than the interval: slow down, and the interval grows by 5 s from now on (RFC 8628 §3.5).
      const tooSoon = row.last_polled_at !== null && now - row.last_polled_at < row.interval_s * 1000;
      await tx
        .updateTable("device_authorizations")
        .set({ last_polled_at: now, interval_s: tooSoon ? row.interval_s + 5 : row.interval_s })
        .where("id", "=", row.id)
        .execute();
      if (tooSoon)
        return grantError("slow_down", `Polling too fast; wait ${row.interval_s + 5} seconds between polls.`);
      return grantError("authorization_pending", "Waiting for the sign-in to be approved in the dashboard.");
    }
    // Approved: collect once. The conditional update makes a second concurrent poll find nothing to collect.
    const taken = await tx
      .updateTable("device_authorizations")
      .set({ status: "used", last_polled_at: now })
      .where("id", "=", row.id)
      .where("status", "=", "approved")
      .executeTakeFirst();
    if (Number(taken.numUpdatedRows) !== 1)
      throw grantError("invalid_grant", "This device code was already used; sign in again.");
    const token = await issueUserToken(tx, app, {
      userId: row.user_id!,
      name: row.device_name,
      livemode: row.livemode === 1,
      viaSso: row.via_sso === 1,
    });
    await tx
      .updateTable("device_authorizations")
      .set({ token_id: token.id })
      .where("id", "=", row.id)
      .execute();
    // CLI sign-ins appear in the request log of the org whose member approved (interface.md Request log).
    if (row.org_id)
      await tx
        .insertInto("request_log")
        .values({
          id: newId("req", now),
          org_id: row.org_id,
          livemode: row.livemode,
          method: "POST",
          path: "/v1/auth/device/token",
          status: 200,
          code: null,
          duration_ms: 0,
          api_key_id: null,
          user_token_id: token.id,
          created_at: now,
        })
        .execute();
    const tokenRow = await tx
      .selectFrom("user_tokens")
      .selectAll()
      .where("id", "=", token.id)
      .executeTakeFirstOrThrow();
    return {
      object: "user_token" as const,
      access_token: token.secret,
      token_type: "bearer" as const,
      user_token: presentUserToken(tokenRow),
    };
  });
  if (out instanceof ServiceError) throw out;
  return out;
}

const presentDevice = (d: DeviceAuthorizationsTable) => ({
  id: d.id,
  object: "device_authorization" as const,
  device_name: d.device_name,
  ip: d.client_ip,
  livemode: d.livemode === 1,
  status: d.status,
  created_at: iso(d.created_at),
  expires_at: iso(d.expires_at),
});

/**
 * The pending sign-in a typed code names, with clear errors for the other cases: unknown (404), expired
 * (`expired_token`), already approved, denied or collected (`invalid_grant`: a code typed twice).
 */
function wellFormed(typed: unknown): string {
  const code = typeof typed === "string" ? normalizeUserCode(typed) : null;
  if (!code)
    throw new ServiceError(422, "user_code_invalid", "A code looks like XXXX-XXXX (letters only).", {
      param: "user_code",
    });
  return code;
}

async function pendingByUserCode(tx: Tx, app: App, typed: unknown) {
  const code = wellFormed(typed);
  const row = await tx
    .selectFrom("device_authorizations")
    .selectAll()
    .where("user_code_hash", "=", hashUserCode(code))
    .executeTakeFirst();
  if (!row) throw notFound("No CLI sign-in is waiting with this code; check it and try again.", "user_code");
  if (row.status !== "pending")
    throw new ServiceError(400, "invalid_grant", "This code was already used; start the sign-in again.", {
      param: "user_code",
    });
  if (row.expires_at <= app.clock.now())
    throw new ServiceError(400, "expired_token", "This code expired (15 minutes); start the sign-in again.", {
      param: "user_code",
    });
  return row;
}

/**
 * Every code typed is a guess, counted per person and client address in the database (guesses/guard.ts): a
 * code that names no sign-in counts against the person; one that names a sign-in only takes its own guess back.
 * A malformed code is refused before any lookup and is no guess.
 */
async function guessingCode<T>(
  app: App,
  userId: string,
  typed: unknown,
  address: string | null | undefined,
  fn: () => Promise<T>,
): Promise<T> {
  wellFormed(typed);
  const ticket = await beginGuess(app, {
    kind: "user_code",
    subject: accountSubject(userId),
    address: address ?? null,
  });
  if (ticket.lockedUntil !== null)
    throw guessesLocked("user_code", ticket.lockedUntil, app.clock.now(), "user_code");
  try {
    const out = await fn();
    await ticket.matched();
    return out;
  } catch (e) {
    if (!(e instanceof ServiceError) || e.code !== "resource_missing") {
      await ticket.matched();
      throw e;
    }
    const until = await ticket.wrong();
    if (until !== null) throw guessesLocked("user_code", until, app.clock.now(), "user_code");
    throw e;
  }
}

function requirePerson(actor: Actor): string {
  if (actor.kind !== "user" || !actor.userId)
    throw new ServiceError(403, "forbidden", "Only a signed-in person can approve a CLI sign-in.");
  return actor.userId;
}

/** The /device page, after the person typed a code: what is asking (device name, IP, mode). */
export async function findDeviceAuthorization(
  app: App,
  actor: Actor,
  userCode: unknown,
  address?: string | null,
) {
  const userId = requirePerson(actor);
  return guessingCode(app, userId, userCode, address, async () =>
    presentDevice(await pendingByUserCode(app.db as unknown as Tx, app, userCode)),
  );
}

/**
 * Approves the sign-in for the acting person in sudo mode. The CLI then collects a user token in the mode it
 * asked for; the person gets the "a CLI signed in as you" notice.
 */
export async function approveDeviceAuthorization(
  app: App,
  actor: Actor,
  input: {
    userCode: unknown;
    confirmedAt: number | null | undefined;
    viaSso?: boolean;
    address?: string | null;
  },
) {
  const userId = requirePerson(actor);
  requireRecentAuth(app, input.confirmedAt);
  // A token for an org that requires single sign-on is approved only from a session that came through it.
  const org = await app.db
    .selectFrom("orgs")
    .select("require_sso")
    .where("id", "=", actor.orgId)
    .executeTakeFirst();
  if (org?.require_sso === 1 && !input.viaSso)
    throw new ServiceError(
      403,
      "sso_session_required",
      "Your org requires single sign-on: sign in through it, then approve the command line.",
    );
  const now = app.clock.now();
  const approved = await guessingCode(app, userId, input.userCode, input.address, () =>
    inTx(app, async (tx) => {
      const row = await pendingByUserCode(tx, app, input.userCode);
      const done = await tx
        .updateTable("device_authorizations")
        .set({
          status: "approved",
          user_id: userId,
          org_id: actor.orgId,
          via_sso: input.viaSso ? 1 : 0,
          decided_at: now,
        })
        .where("id", "=", row.id)
        .where("status", "=", "pending")
        .executeTakeFirst();
      if (Number(done.numUpdatedRows) !== 1)
        throw new ServiceError(400, "invalid_grant", "This code was already used; start the sign-in again.", {
          param: "user_code",
        });
      await audit(tx, app, actor, {
        action: "device.approve",
        target: row.id,
        detail: { device_name: row.device_name, ip: row.client_ip, livemode: row.livemode === 1 },
      });
      await sendAccountNoticeInTx(tx, app, userId, "account.cli_signed_in", {
        device_name: row.device_name,
        ip: row.client_ip,
        livemode: row.livemode === 1,
      });
      return presentDevice({ ...row, status: "approved", user_id: userId, decided_at: now });
    }),
  );
  void kickMail(app);
  return approved;
}

/** Denies the sign-in: the polling CLI gets access_denied. */
export async function denyDeviceAuthorization(
  app: App,
  actor: Actor,
  input: { userCode: unknown; address?: string | null },
) {
  const userId = requirePerson(actor);
  const now = app.clock.now();
  return guessingCode(app, userId, input.userCode, input.address, () =>
    inTx(app, async (tx) => {
      const row = await pendingByUserCode(tx, app, input.userCode);
      await tx
        .updateTable("device_authorizations")
        .set({ status: "denied", user_id: userId, org_id: actor.orgId, decided_at: now })
        .where("id", "=", row.id)
        .where("status", "=", "pending")
        .execute();
      await audit(tx, app, actor, {
        action: "device.deny",
        target: row.id,
        detail: { device_name: row.device_name, ip: row.client_ip },
      });
      return presentDevice({ ...row, status: "denied", user_id: userId, decided_at: now });
    }),
  );
}
