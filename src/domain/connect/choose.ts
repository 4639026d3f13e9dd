// The person picks which of the accounts a sign-in reached become channels (each LinkedIn Page, each Pinterest
// board, or the one X account). An account that is already a channel of the brand (or the channel the sign-in
// was started from) is reconnected: it keeps its ID, history and schedule and becomes active again. The tokens
// are sealed to each channel's row in the transaction that creates or updates it, and the sign-in's row (with its
// copy of the tokens) is deleted in the same transaction, so it cannot be used twice.
import type { App } from "../../app/context.ts";
import type { Tx } from "../../db/index.ts";
import type { ChannelsTable } from "../../db/tables/channels.ts";
import type { ConnectStatesTable } from "../../db/tables/connect.ts";
import { newId } from "../../lib/ids.ts";
import { getPlatform } from "../../platforms/rules-registry.ts";
import type { SignInAccount } from "../../platforms/signin/accounts.ts";
import type { Tokens } from "../../platforms/signin/oauth.ts";
import type { Provider } from "../../platforms/types.ts";
import { type Actor, requireScope } from "../actor.ts";
import { audit } from "../audit/service.ts";
import { sealSecrets } from "../channels/fields.ts";
import { type Channel, presentChannel } from "../channels/present.ts";
import { recordEvent, scopeOf } from "../events/record.ts";
import { assertWithinLimit } from "../orgs/limits.ts";
import { inTx } from "../tx.ts";
import { choiceRequired, connectExpired } from "./errors.ts";
import { openState } from "./sealed.ts";

export interface PendingSignIn {
  id: string;
  provider: Provider;
  network: string;
  brand: string;
  accounts: (SignInAccount & { channel: string | null })[];
}

async function loadPending(
  db: App["db"] | Tx,
  app: App,
  actor: Actor,
  id: string,
): Promise<ConnectStatesTable> {
  const row = /^[0-9a-f]{32}$/.test(id)
    ? await db
        .selectFrom("connect_states")
        .selectAll()
        .where("id", "=", id)
        .where("org_id", "=", actor.orgId)
        .executeTakeFirst()
    : undefined;
  if (!row || row.user_id !== actor.userId || row.tokens === null || row.accounts === null)
    throw connectExpired();
  if (row.expires_at <= app.clock.now()) throw connectExpired();
  return row;
}

/** The channel an account already is in the brand (live mode), if any. */
async function existingChannel(
  db: App["db"] | Tx,
  row: ConnectStatesTable,
  key: string,
): Promise<ChannelsTable | null> {
  const hit = await db
    .selectFrom("channel_grants as g")
    .innerJoin("channels as c", "c.id", "g.channel_id")
    .selectAll("c")
    .where("g.org_id", "=", row.org_id)
    .where("g.provider", "=", row.provider)
    .where("g.account_key", "=", key)
    .where("c.brand_id", "=", row.brand_id)
    .where("c.livemode", "=", 1)
    .executeTakeFirst();
  return hit ?? null;
}

/** The accounts offered, each with the channel it already is (reconnected when picked). */
export async function pendingSignIn(app: App, actor: Actor, id: string): Promise<PendingSignIn> {
  requireScope(actor, "channels:write");
  const row = await loadPending(app.db, app, actor, id);
  const accounts = JSON.parse(row.accounts!) as SignInAccount[];
  const out: PendingSignIn["accounts"] = [];
  for (const a of accounts) {
    const ch = await existingChannel(app.db, row, a.key);
    out.push({ ...a, channel: ch?.id ?? (accounts.length === 1 ? row.channel_id : null) });
  }
  return {
    id: row.id,
    provider: row.provider as Provider,
    network: getPlatform(row.provider)!.name,
    brand: row.brand_id,
    accounts: out,
  };
}

export async function chooseAccounts(app: App, actor: Actor, id: string, keys: string[]): Promise<Channel[]> {
  requireScope(actor, "channels:write");
  const pending = await pendingSignIn(app, actor, id);
  const picked = pending.accounts.filter((a) => keys.includes(a.key));
  if (keys.length === 0) throw choiceRequired();
  if (picked.length !== new Set(keys).size)
    throw choiceRequired("Pick among the accounts this sign-in offered.");
  return inTx(app, async (tx) => {
    // Taking the row out first makes a second submission (a double click, a replay) find nothing.
    const row = await tx.deleteFrom("connect_states").where("id", "=", id).returningAll().executeTakeFirst();
    if (!row?.tokens) throw connectExpired();
    const tokens = JSON.parse(await openState(tx, app, row.org_id, row.id, "tokens", row.tokens)) as Tokens;
    const out: Channel[] = [];
    for (const account of picked) {
      const current = await existingChannel(tx, row, account.key);
      const reconnect =
        current ??
        (account.channel
          ? ((await tx
              .selectFrom("channels")
              .selectAll()
              .where("id", "=", account.channel)
              .where("org_id", "=", row.org_id)
              .executeTakeFirst()) ?? null)
          : null);
      const own = tokensFor(tokens, account.key);
      out.push(
        reconnect
          ? await reconnectSignedIn(tx, app, actor, row, reconnect, account, own)
          : await insertSignedIn(tx, app, actor, row, account, own),
      );
    }
    return out;
  });
}

/**
 * What an account's channel keeps: its own token where the network gave one per account (a Facebook Page's,
 * which does not expire), else the sign-in's tokens.
 */
const tokensFor = (t: Tokens, key: string): Tokens => {
  const own = t.account_tokens?.[key];
  return own ? { access_token: own, refresh_token: null, expires_at: null, scope: t.scope } : t;
};

const secretsOf = (t: Tokens): Record<string, string> => ({
  access_token: t.access_token,
  ...(t.refresh_token ? { refresh_token: t.refresh_token } : {}),
});

async function writeGrant(
  tx: Tx,
  app: App,
  row: ConnectStatesTable,
  channelId: string,
  key: string,
  t: Tokens,
) {
  const now = app.clock.now();
  await tx.deleteFrom("channel_grants").where("channel_id", "=", channelId).execute();
  await tx
    .insertInto("channel_grants")
    .values({
      channel_id: channelId,
      org_id: row.org_id,
      provider: row.provider,
      app_id: row.app_id,
      account_key: key,
      token_expires_at: t.expires_at,
      refreshed_at: null,
      created_at: now,
      updated_at: now,
    })
    .execute();
}

async function insertSignedIn(
  tx: Tx,
  app: App,
  actor: Actor,
  row: ConnectStatesTable,
  account: SignInAccount,
  tokens: Tokens,
): Promise<Channel> {
  await assertWithinLimit(tx, row.org_id, "channels", async () => {
    const r = await tx
      .selectFrom("channels")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("org_id", "=", row.org_id)
      .where("livemode", "=", 1)
      .executeTakeFirstOrThrow();
    return Number(r.n) + 1;
  });
  const now = app.clock.now();
  const id = newId("chan", now);
  const c: ChannelsTable = {
    id,
    org_id: row.org_id,
    brand_id: row.brand_id,
    livemode: 1,
    provider: row.provider,
    emulates: null,
    display_name: account.display_name ?? account.handle ?? getPlatform(row.provider)!.name,
    handle: account.handle,
    profile_url: account.profile_url,
    settings: JSON.stringify(account.settings),
    secrets: await sealSecrets(tx, app, row.org_id, id, secretsOf(tokens)),
    status: "active",
    status_note: null,
    checked_at: now,
    check_error: null,
    rate_limited_until: null,
    created_at: now,
    updated_at: now,
  };
  await tx.insertInto("channels").values(c).execute();
  await writeGrant(tx, app, row, id, account.key, tokens);
  const channel = presentChannel(c);
  await recordEvent(tx, app, scopeOf(actor), "channel.connected", channel);
  await audit(tx, app, actor, {
    action: "channel.create",
    target: id,
    detail: { brand: row.brand_id, provider: row.provider, app: row.app_id, signed_in: true },
  });
  return channel;
}

async function reconnectSignedIn(
  tx: Tx,
  app: App,
  actor: Actor,
  row: ConnectStatesTable,
  cur: ChannelsTable,
  account: SignInAccount,
  tokens: Tokens,
): Promise<Channel> {
  const now = app.clock.now();
  const reauthed = cur.status === "needs_reauth";
  const next: ChannelsTable = {
    ...cur,
    display_name: account.display_name ?? account.handle ?? cur.display_name,
    handle: account.handle,
    profile_url: account.profile_url,
    settings: JSON.stringify(account.settings),
    secrets: await sealSecrets(tx, app, cur.org_id, cur.id, secretsOf(tokens)),
    // A disabled channel stays disabled: someone turned it off on purpose.
    status: reauthed ? "active" : cur.status,
    status_note: reauthed ? null : cur.status_note,
    checked_at: now,
    check_error: null,
    updated_at: now,
  };
  await tx
    .updateTable("channels")
    .set({
      display_name: next.display_name,
      handle: next.handle,
      profile_url: next.profile_url,
      settings: next.settings,
      secrets: next.secrets,
      status: next.status,
      status_note: next.status_note,
      checked_at: now,
      check_error: null,
      updated_at: now,
    })
    .where("id", "=", cur.id)
    .execute();
  await writeGrant(tx, app, row, cur.id, account.key, tokens);
  const channel = presentChannel(next);
  await recordEvent(tx, app, scopeOf(actor), "channel.connected", channel);
  await audit(tx, app, actor, {
    action: "channel.reconnect",
    target: cur.id,
    detail: { app: row.app_id, signed_in: true, status: { from: cur.status, to: next.status } },
  });
  return channel;
}
