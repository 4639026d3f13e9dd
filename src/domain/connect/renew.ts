// Renewing a sign-in channel's access token with its refresh token (reference §5: `channels.refresh` renews those
// expiring within 7 days; publishing renews one expiring within 5 minutes first).
//
// Never lose a refresh token. Networks that rotate refresh tokens (X) end the whole grant when an old one is used
// again, so:
//  - renewal runs in one transaction that first locks the channel's row (Postgres: SELECT … FOR UPDATE; SQLite:
//    the write lock every write transaction takes at BEGIN IMMEDIATE, so there is one writer at a time). A second
//    worker waits, then sees the new expiry and does nothing;
//  - the token request is made inside that transaction, and the tokens it returns are sealed and stored in the
//    same transaction, before anything else can read the row. A crash before the commit leaves the old tokens,
//    which the network has not seen used twice.
// The request has a short deadline: on SQLite the write lock is held meanwhile.
import type { App } from "../../app/context.ts";
import type { Tx } from "../../db/index.ts";
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
/** Renewals in flight at once in one `channels.refresh` run (each holds a database connection meanwhile). */
const RENEWAL_LANES = 4;

export type Renewal =
  /** Nothing to renew (not a sign-in channel, not expiring yet, or another worker just renewed it). */
  | { kind: "fresh"; secrets: string | null }
  | { kind: "renewed"; secrets: string; expiresAt: number | null }
  /** It cannot be renewed: the channel is now needs_reauth (with `channel.needs_reauth`). */
  | { kind: "refused"; message: string }
  /** The network could not be asked; nothing changed. */
  | { kind: "unavailable"; message: string };

async function lockChannel(tx: Tx, app: App, channelId: string) {
  let q = tx
    .selectFrom("channels")
    .select(["id", "org_id", "provider", "status", "secrets"])
    .where("id", "=", channelId);
  if (app.dialect === "postgres") q = q.forUpdate();
  return q.executeTakeFirst();
}

/**
 * Renews the channel's token when it expires within `windowMs`. `seen` is the expiry the caller read before
 * asking: when the locked row shows another, someone renewed it meanwhile and nothing more is done (so a channel
 * found due by two workers is renewed once).
 */
export async function renewToken(
  app: App,
  channelId: string,
  windowMs: number,
  seen?: number | null,
): Promise<Renewal> {
  return inTx(app, async (tx) => {
    const ch = await lockChannel(tx, app, channelId);
    if (!ch) return { kind: "fresh", secrets: null };
    const grant = await tx
      .selectFrom("channel_grants")
      .selectAll()
      .where("channel_id", "=", channelId)
      .executeTakeFirst();
    const now = app.clock.now();
    if (!grant || grant.token_expires_at === null || grant.token_expires_at > now + windowMs)
      return { kind: "fresh", secrets: ch.secrets };
    if (seen !== undefined && grant.token_expires_at !== seen) return { kind: "fresh", secrets: ch.secrets };
    if (ch.status === "needs_reauth")
      return { kind: "refused", message: "the channel needs to be connected again" };
    const network = getPlatform(ch.provider)?.name ?? ch.provider;
    const spec = signInSpec(ch.provider);
    const refuse = async (message: string): Promise<Renewal> => {
      await markNeedsReauth(tx, app, channelId, message);
      return { kind: "refused", message };
    };
    const secrets = await openSecrets(app, { id: ch.id, org_id: ch.org_id, secrets: ch.secrets });
    const refreshToken = secrets.refresh_token;
    if (!spec || !refreshToken) {
      // Without a refresh token the token lasts as long as it lasts; it needs a person once it is about to end.
      if (grant.token_expires_at > now + PUBLISH_WINDOW_MS) return { kind: "fresh", secrets: ch.secrets };
      return refuse(
        `${network} gave no refresh token, so the access token cannot be renewed; sign in again.`,
      );
    }
    const devApp = await tx
      .selectFrom("developer_apps")
      .selectAll()
      .where("id", "=", grant.app_id)
      .where((eb) => eb.or([eb("org_id", "=", ch.org_id), eb("org_id", "is", null)]))
      .executeTakeFirst();
    if (!devApp)
      return refuse(
        `The developer app this channel was connected through was removed, so its token cannot be renewed; connect it again through another app.`,
      );
    let tokens: Awaited<ReturnType<typeof refreshTokens>>;
    try {
      tokens = await refreshTokens(
        app,
        spec,
        { clientId: devApp.client_id, clientSecret: await openClientSecret(tx, app, devApp) },
        refreshToken,
        AbortSignal.timeout(TOKEN_REQUEST_TIMEOUT_MS),
      );
    } catch (e) {
      if (!(e instanceof TokenError)) throw e;
      if (e.kind === "refused")
        return refuse(`${network} refused to renew the token (${e.message}); sign in again.`);
      return { kind: "unavailable", message: `${network}: ${e.message}` };
    }
    const sealed = (await sealSecrets(tx, app, ch.org_id, ch.id, {
      ...secrets,
      access_token: tokens.access_token,
      ...(tokens.refresh_token ? { refresh_token: tokens.refresh_token } : {}),
    }))!;
    await tx
      .updateTable("channels")
      .set({ secrets: sealed, updated_at: now })
      .where("id", "=", ch.id)
      .execute();
    await tx
      .updateTable("channel_grants")
      .set({ token_expires_at: tokens.expires_at, refreshed_at: now, updated_at: now })
      .where("channel_id", "=", ch.id)
      .execute();
    return { kind: "renewed", secrets: sealed, expiresAt: tokens.expires_at };
  });
}

/**
 * The publish worker's hook: renews the channel's token first when it expires within 5 minutes, so a post never
 * goes out with a token about to end. A sign-in channel not expiring costs one indexed read; others nothing.
 */
export async function renewBeforePublish(app: App, channelId: string, provider: string): Promise<Renewal> {
  // Channels of other networks keep no expiring token: the publish path pays nothing for them.
  if (!signInSpec(provider)) return { kind: "fresh", secrets: null };
  const grant = await app.db
    .selectFrom("channel_grants")
    .select("token_expires_at")
    .where("channel_id", "=", channelId)
    .executeTakeFirst();
  if (
    !grant ||
    grant.token_expires_at === null ||
    grant.token_expires_at > app.clock.now() + PUBLISH_WINDOW_MS
  )
    return { kind: "fresh", secrets: null };
  return renewToken(app, channelId, PUBLISH_WINDOW_MS, grant.token_expires_at);
}

/** `channels.refresh`: renews up to `limit` live active channels' tokens expiring within 7 days, soonest first. */
export async function renewDueTokens(app: App, limit = 500): Promise<Record<Renewal["kind"], number>> {
  const now = app.clock.now();
  const due = await app.db
    .selectFrom("channel_grants as g")
    .innerJoin("channels as c", "c.id", "g.channel_id")
    .select(["g.channel_id", "g.token_expires_at"])
    .where("g.token_expires_at", "<=", now + REFRESH_WINDOW_MS)
    .where("c.livemode", "=", 1)
    .where("c.status", "=", "active")
    .orderBy("g.token_expires_at")
    .limit(limit)
    .execute();
  const counts: Record<Renewal["kind"], number> = { fresh: 0, renewed: 0, refused: 0, unavailable: 0 };
  // A few channels at a time: each renewal locks only its own row, so on Postgres they proceed side by side; on
  // SQLite they take turns on the write lock, but the ones waiting join the same group commit.
  let next = 0;
  const lane = async () => {
    while (next < due.length) {
      const d = due[next++]!;
      try {
        counts[(await renewToken(app, d.channel_id, REFRESH_WINDOW_MS, d.token_expires_at)).kind]++;
      } catch (e) {
        // One channel's failure (an unreadable secret) does not stop the others.
        app.log.warn("token renewal failed", { channel: d.channel_id, error: String(e) });
        counts.unavailable++;
      }
    }
  };
  await Promise.all(Array.from({ length: RENEWAL_LANES }, lane));
  return counts;
}
