// Renewing a sign-in channel's access token with its refresh token (reference §5: `channels.refresh` renews those
// expiring within 7 days; publishing renews one expiring within 5 minutes first).
//
// Never lose a refresh token, never send one twice. Networks that rotate refresh tokens (X) end the whole grant
// when an old one is used again, so a renewal is three steps:
//  1. claim: one conditional UPDATE of the channel's grant sets a random fencing token and a lease, only when the
//     token is still due, its expiry is the one the caller saw, and no live claim is on it. A second worker's
//     UPDATE matches nothing, so it leaves the channel alone (publishing waits for the renewal in flight instead);
//  2. the token request, outside any transaction (on SQLite no write lock is held while the network answers), with
//     a deadline far shorter than the lease;
//  3. save: the sealed tokens are stored and the claim cleared together, only while the claim is still ours (a
//     reconnect meanwhile replaced the grant: what it stored wins). The tokens are stored the moment they are
//     learned: renewals whose answers came while a save was in flight are saved together next, each row fenced by
//     its own claim (one statement on Postgres, one transaction of two on SQLite); a refusal marks the channel
//     needs_reauth in a fenced transaction instead.
// A worker killed in step 2 leaves the old tokens and its claim; the claim lapses after the lease and the next run
// renews with the stored refresh token, which is still good unless the network rotated it before the kill (then
// it refuses it once and the channel asks for a new sign-in, never a loop: see docs/networks.md).
import type { App } from "../../app/context.ts";
import {
  claimRenewals,
  loadClaimedRenewals,
  releaseRenewals,
  saveRenewedGrants,
  saveRenewedSecrets,
} from "../../db/sql/save-renewed-token.ts";
import { run } from "../../db/sql/statement.ts";
import type { DeveloperAppsTable } from "../../db/tables/connect.ts";
import { getPlatform } from "../../platforms/rules-registry.ts";
import { refreshTokens, TokenError } from "../../platforms/signin/oauth.ts";
import { signInSpec } from "../../platforms/signin/specs.ts";
import { openClientSecret } from "../apps/seal.ts";
import { openSecrets, sealSecrets } from "../channels/fields.ts";
import { markNeedsReauth } from "../channels/state.ts";
import { inTx } from "../tx.ts";

/** `channels.refresh` renews tokens that expire within this. */
export const REFRESH_WINDOW_MS = 7 * 24 * 3600_000;
/** Publishing renews a token that expires within this first. */
export const PUBLISH_WINDOW_MS = 5 * 60_000;
const TOKEN_REQUEST_TIMEOUT_MS = 15_000;
/** How long a claim holds the channel: well past the request's deadline, so a live renewal is never overtaken. */
export const RENEW_LEASE_MS = 2 * 60_000;
/** How long publishing waits for another worker's renewal of the same channel before going on without it. */
const PUBLISH_WAIT_MS = TOKEN_REQUEST_TIMEOUT_MS + 5_000;
/**
 * Renewals in flight at once in one `channels.refresh` run (the network's answer is awaited outside transactions).
 * Few: the guarded outbound client's work per request is CPU in this thread, and more requests at once only queue
 * behind each other (16 at once were slower than 4 in bench/refresh.ts), delaying the publish worker meanwhile.
 */
export const RENEWAL_LANES = 4;
/** Channels claimed per statement: with 4 lanes, four request deadlines (60 s) at most, well within the lease. */
const CLAIM_CHUNK = 16;

export type Renewal =
  /**
   * Nothing to renew (not a sign-in channel, not expiring yet, or another worker renewed it or is renewing it).
   * `secrets` is the channel's sealed secrets as last read, null when not read.
   */
  | { kind: "fresh"; secrets: string | null }
  | { kind: "renewed"; secrets: string; expiresAt: number | null }
  /** It cannot be renewed: the channel is now needs_reauth (with `channel.needs_reauth`). */
  | { kind: "refused"; message: string }
  /** The network could not be asked; nothing changed. */
  | { kind: "unavailable"; message: string };

/**
 * Step 1: claims the renewal of those of `channelIds` whose token expires within `windowMs` and which no other
 * worker holds a live claim on, all with one fencing token, in one statement. Returns the token.
 */
async function claim(app: App, channelIds: string[], windowMs: number): Promise<string> {
  const now = app.clock.now();
  const fence = crypto.randomUUID();
  await run(app.db, app.dialect, claimRenewals.of(channelIds.length), [
    fence,
    now + RENEW_LEASE_MS,
    ...channelIds,
    now + windowMs,
    now,
  ]);
  return fence;
}

/** Clears our claim on these channels (nothing learned: another run may try again at once). */
async function release(app: App, channelIds: string[], fence: string): Promise<void> {
  if (!channelIds.length) return;
  await run(app.db, app.dialect, releaseRenewals.of(channelIds.length), [fence, ...channelIds]);
}

/** What renewing one claimed channel needs, read after the claim (so it is what the last renewal stored). */
interface Claimed {
  id: string;
  org_id: string;
  provider: string;
  status: string;
  secrets: string | null;
  token_expires_at: number | null;
  /** The developer app it renews through; undefined when it is gone. */
  devApp: Pick<DeveloperAppsTable, "id" | "org_id" | "client_id" | "client_secret"> | undefined;
}

/** The channels of `channelIds` this claim holds, with their developer apps: one read for the whole batch. */
async function loadClaimed(app: App, channelIds: string[], fence: string): Promise<Claimed[]> {
  const rows = await run(app.db, app.dialect, loadClaimedRenewals.of(channelIds.length), [
    ...channelIds,
    fence,
  ]);
  return rows.map((r) => ({
    id: r.id,
    org_id: r.org_id,
    provider: r.provider,
    status: r.status,
    secrets: r.secrets,
    token_expires_at: r.token_expires_at,
    devApp:
      r.app_id === null
        ? undefined
        : { id: r.app_id, org_id: r.app_org_id, client_id: r.client_id!, client_secret: r.client_secret! },
  }));
}

/**
 * Renews the channel's token when it expires within `windowMs`. `seen` is the expiry the caller read before
 * asking: when the row shows another, someone renewed it meanwhile and nothing more is done (so a channel found
 * due by two workers is renewed once).
 */
export async function renewToken(
  app: App,
  channelId: string,
  windowMs: number,
  seen?: number | null,
): Promise<Renewal> {
  const ch = await app.db
    .selectFrom("channels")
    .select(["status", "secrets"])
    .where("id", "=", channelId)
    .executeTakeFirst();
  if (!ch) return { kind: "fresh", secrets: null };
  if (ch.status === "needs_reauth")
    return { kind: "refused", message: "the channel needs to be connected again" };
  const [claimed] = await claimSeen(app, [{ channel_id: channelId, token_expires_at: seen }], windowMs);
  if (!claimed) return { kind: "fresh", secrets: ch.secrets };
  return renewClaimed(app, claimed.c, claimed.fence, renewalRun(app));
}

/**
 * Claims and loads a batch; a channel whose expiry is no longer the one the caller saw (renewed meanwhile) is
 * released at once. `token_expires_at` undefined: any expiry within the window.
 */
async function claimSeen(
  app: App,
  due: { channel_id: string; token_expires_at: number | null | undefined }[],
  windowMs: number,
): Promise<{ c: Claimed; fence: string }[]> {
  const ids = due.map((d) => d.channel_id);
  const fence = await claim(app, ids, windowMs);
  const loaded = await loadClaimed(app, ids, fence);
  const seen = new Map(due.map((d) => [d.channel_id, d.token_expires_at]));
  const moved = new Set(
    loaded
      .filter((c) => seen.get(c.id) !== undefined && seen.get(c.id) !== c.token_expires_at)
      .map((c) => c.id),
  );
  await release(app, [...moved], fence);
  return loaded.filter((c) => !moved.has(c.id)).map((c) => ({ c, fence }));
}

/** One renewal learned from the network, to store. */
interface Learned {
  ch: Claimed;
  fence: string;
  sealed: string;
  expiresAt: number | null;
}

/**
 * What the renewals of one run share: each developer app's client secret, opened once, and the stores. A renewal
 * is stored the moment its answer is handled: when no store is in flight it goes at once, alone; those answered
 * while one is in flight go together in the next (one statement for all on Postgres, one transaction of two on
 * SQLite), so no renewal waits on another's network answer.
 */
interface RenewalRun {
  clientSecret(devApp: NonNullable<Claimed["devApp"]>): Promise<string>;
  /** Step 3: resolves true when stored, false when the claim was no longer ours (a reconnect replaced it). */
  store(l: Learned): Promise<boolean>;
}

function renewalRun(app: App): RenewalRun {
  const secrets = new Map<string, Promise<string>>();
  let waiting: { l: Learned; ok: (ours: boolean) => void; fail: (e: unknown) => void }[] = [];
  let storing = false;
  const drain = async () => {
    storing = true;
    while (waiting.length) {
      const batch = waiting;
      waiting = [];
      try {
        const ours = await storeRenewals(
          app,
          batch.map((w) => w.l),
        );
        for (const w of batch) w.ok(ours.has(w.l.ch.id));
      } catch (e) {
        for (const w of batch) w.fail(e);
      }
    }
    storing = false;
  };
  return {
    clientSecret(devApp) {
      const key = `${devApp.id}\n${devApp.client_secret}`;
      let p = secrets.get(key);
      if (!p) {
        p = openClientSecret(app.db, app, devApp);
        // A failure is not kept: the next channel tries again.
        p.catch(() => secrets.delete(key));
        secrets.set(key, p);
      }
      return p;
    },
    store(l) {
      return new Promise((ok, fail) => {
        waiting.push({ l, ok, fail });
        if (!storing) {
          storing = true;
          setImmediate(drain);
        }
      });
    },
  };
}

/** Stores renewals, each fenced by its claim; returns the channels whose claim was still ours (stored). */
async function storeRenewals(app: App, learned: Learned[]): Promise<Set<string>> {
  const saved = app.clock.now();
  const params = (ls: Learned[]) => ls.flatMap((l) => [l.ch.id, l.fence, l.expiresAt, saved, l.sealed]);
  if (app.dialect === "postgres") {
    const rows = await run(app.db, app.dialect, saveRenewedGrants.of(learned.length), params(learned));
    return new Set(rows.map((r) => r.channel_id));
  }
  return inTx(app, async (tx) => {
    const rows = await run(tx, app.dialect, saveRenewedGrants.of(learned.length), params(learned));
    const ours = new Set(rows.map((r) => r.channel_id));
    const kept = learned.filter((l) => ours.has(l.ch.id));
    if (kept.length) await run(tx, app.dialect, saveRenewedSecrets.of(kept.length), params(kept));
    return ours;
  });
}

/** Steps 2 and 3 for a claimed channel; any failure releases the claim. */
async function renewClaimed(app: App, ch: Claimed, fence: string, r: RenewalRun): Promise<Renewal> {
  try {
    return await renewClaimedOnce(app, ch, fence, r);
  } catch (e) {
    // Nothing was stored: let the next run try at once rather than after the lease.
    await release(app, [ch.id], fence).catch(() => {});
    throw e;
  }
}

async function renewClaimedOnce(app: App, ch: Claimed, fence: string, r: RenewalRun): Promise<Renewal> {
  const channelId = ch.id;
  const now = app.clock.now();
  const network = getPlatform(ch.provider)?.name ?? ch.provider;
  const spec = signInSpec(ch.provider);
  /** Step 3 for a refusal: needs_reauth and the claim cleared, in one transaction, only while the claim is ours. */
  const refuse = async (message: string): Promise<Renewal> => {
    await inTx(app, async (tx) => {
      const r = await tx
        .updateTable("channel_grants")
        .set({ renew_claim: null, renew_claimed_until: null, updated_at: app.clock.now() })
        .where("channel_id", "=", channelId)
        .where("renew_claim", "=", fence)
        .executeTakeFirst();
      if (Number(r.numUpdatedRows) === 1) await markNeedsReauth(tx, app, channelId, message);
    });
    return { kind: "refused", message };
  };
  if (ch.status === "needs_reauth") {
    await release(app, [channelId], fence);
    return { kind: "refused", message: "the channel needs to be connected again" };
  }
  // Opened once: the request takes the refresh token, the store keeps the other fields.
  const secrets = await openSecrets(app, ch);
  // Threads renews the long-lived access token itself; other networks renew with their refresh token.
  const refreshToken = spec?.renewsAccessToken ? secrets.access_token : secrets.refresh_token;
  if (!spec || !refreshToken) {
    // Without a refresh token the token lasts as long as it lasts; it needs a person once it is about to end.
    if (ch.token_expires_at === null || ch.token_expires_at > now + PUBLISH_WINDOW_MS) {
      await release(app, [channelId], fence);
      return { kind: "fresh", secrets: ch.secrets };
    }
    return refuse(`${network} gave no refresh token, so the access token cannot be renewed; sign in again.`);
  }
  if (!ch.devApp)
    return refuse(
      `The developer app this channel was connected through was removed, so its token cannot be renewed; connect it again through another app.`,
    );
  const clientSecret = await r.clientSecret(ch.devApp);
  let tokens: Awaited<ReturnType<typeof refreshTokens>>;
  try {
    tokens = await refreshTokens(
      app,
      spec,
      { clientId: ch.devApp.client_id, clientSecret },
      refreshToken,
      AbortSignal.timeout(TOKEN_REQUEST_TIMEOUT_MS),
    );
  } catch (e) {
    if (!(e instanceof TokenError)) throw e;
    if (e.kind === "refused")
      return refuse(`${network} refused to renew the token (${e.message}); sign in again.`);
    await release(app, [channelId], fence);
    return { kind: "unavailable", message: `${network}: ${e.message}` };
  }
  // Step 3: stored at once, fenced by the claim. Sealed first (sealing reads nothing that the store changes).
  const sealed = (await sealSecrets(app.db, app, ch.org_id, ch.id, {
    ...secrets,
    access_token: tokens.access_token,
    ...(tokens.refresh_token ? { refresh_token: tokens.refresh_token } : {}),
  }))!;
  if (!(await r.store({ ch, fence, sealed, expiresAt: tokens.expires_at }))) {
    // The grant was replaced by a reconnect while the network answered: the new sign-in's tokens stand.
    app.log.warn("token renewal overtaken by a reconnect; its tokens are dropped", { channel: channelId });
    return { kind: "fresh", secrets: null };
  }
  return { kind: "renewed", secrets: sealed, expiresAt: tokens.expires_at };
}

/**
 * The publish worker's hook: renews the channel's token first when it expires within 5 minutes, so a post never
 * goes out with a token about to end. A sign-in channel not expiring costs one indexed read; others nothing. When
 * another worker is renewing it, publishing waits for that renewal and uses what it stored.
 */
export async function renewBeforePublish(app: App, channelId: string, provider: string): Promise<Renewal> {
  // Channels of other networks keep no expiring token: the publish path pays nothing for them.
  if (!signInSpec(provider)) return { kind: "fresh", secrets: null };
  const readGrant = () =>
    app.db
      .selectFrom("channel_grants")
      .select(["token_expires_at", "renew_claimed_until"])
      .where("channel_id", "=", channelId)
      .executeTakeFirst();
  const grant = await readGrant();
  if (
    !grant ||
    grant.token_expires_at === null ||
    grant.token_expires_at > app.clock.now() + PUBLISH_WINDOW_MS
  )
    return { kind: "fresh", secrets: null };
  const r = await renewToken(app, channelId, PUBLISH_WINDOW_MS, grant.token_expires_at);
  if (r.kind !== "fresh") return r;
  // Not renewed here: another worker holds a claim (wait for it to clear, within the request's deadline) or has
  // just renewed. Either way the channel's secrets as now stored are the ones to use.
  for (let waited = 0; waited < PUBLISH_WAIT_MS; waited += 100) {
    const g = await readGrant();
    if (!g || g.renew_claimed_until === null || g.renew_claimed_until < app.clock.now()) break;
    await Bun.sleep(100);
  }
  const ch = await app.db
    .selectFrom("channels")
    .select("secrets")
    .where("id", "=", channelId)
    .executeTakeFirst();
  return { kind: "fresh", secrets: ch?.secrets ?? null };
}

/** `channels.refresh`: renews up to `limit` live active channels' tokens expiring within 7 days, soonest first. */
export async function renewDueTokens(app: App, limit = 500): Promise<Record<Renewal["kind"], number>> {
  const now = app.clock.now();
  const due = await app.db
    .selectFrom("channel_grants as g")
    .innerJoin("channels as c", "c.id", "g.channel_id")
    .select(["g.channel_id", "g.token_expires_at"])
    .where("g.token_expires_at", "<=", now + REFRESH_WINDOW_MS)
    .where((eb) => eb.or([eb("g.renew_claimed_until", "is", null), eb("g.renew_claimed_until", "<", now)]))
    .where("c.livemode", "=", 1)
    .where("c.status", "=", "active")
    .orderBy("g.token_expires_at")
    .limit(limit)
    .execute();
  const counts: Record<Renewal["kind"], number> = { fresh: 0, renewed: 0, refused: 0, unavailable: 0 };
  const shared = renewalRun(app);
  // Claimed a chunk at a time (one statement each), then renewed several at once: a renewal holds no lock while
  // the network answers, so the waits overlap, and the saves close together share SQLite's group commit. A chunk
  // is small enough to finish well within the lease even when every request runs to its deadline.
  for (let at = 0; at < due.length; at += CLAIM_CHUNK) {
    const chunk = due.slice(at, at + CLAIM_CHUNK);
    const claimed = await claimSeen(app, chunk, REFRESH_WINDOW_MS);
    counts.fresh += chunk.length - claimed.length;
    let next = 0;
    const lane = async () => {
      while (next < claimed.length) {
        const { c, fence } = claimed[next++]!;
        try {
          counts[(await renewClaimed(app, c, fence, shared)).kind]++;
        } catch (e) {
          // One channel's failure (an unreadable secret) does not stop the others.
          app.log.warn("token renewal failed", { channel: c.id, error: String(e) });
          counts.unavailable++;
        }
      }
    };
    await Promise.all(Array.from({ length: RENEWAL_LANES }, lane));
  }
  return counts;
}
