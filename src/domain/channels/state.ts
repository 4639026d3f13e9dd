// What publishing learns about a channel: its access was revoked, or the network asked to slow down. Called by
// the worker inside the transaction that records the attempt's outcome.
import type { App } from "../../app/context.ts";
import type { Db, Tx } from "../../db/index.ts";
import type { ChannelsTable } from "../../db/tables/channels.ts";
import { recordEvent } from "../events/record.ts";
import { openSecrets } from "./fields.ts";
import { type Channel, presentChannel } from "./present.ts";

/**
 * Marks the channel needs_reauth with the network's words as its note, and writes `channel.needs_reauth` in
 * the same transaction. Only the change is recorded: a channel already needing reauth gets no second event
 * (null is returned), so repeated refusals do not repeat notifications.
 */
export async function markNeedsReauth(
  tx: Tx,
  app: App,
  channelId: string,
  note: string,
): Promise<Channel | null> {
  const cur = await tx.selectFrom("channels").selectAll().where("id", "=", channelId).executeTakeFirst();
  if (!cur || cur.status === "needs_reauth") return null;
  const now = app.clock.now();
  const r = await tx
    .updateTable("channels")
    .set({ status: "needs_reauth", status_note: note, check_error: note, checked_at: now, updated_at: now })
    .where("id", "=", channelId)
    .where("status", "<>", "needs_reauth")
    .executeTakeFirst();
  if (Number(r.numUpdatedRows) === 0) return null;
  const channel = presentChannel({
    ...cur,
    status: "needs_reauth",
    status_note: note,
    check_error: note,
    checked_at: now,
    updated_at: now,
  });
  await recordEvent(
    tx,
    app,
    { orgId: cur.org_id, livemode: cur.livemode === 1, requestId: null },
    "channel.needs_reauth",
    channel,
  );
  return channel;
}

/** Holds the channel until `until` (epoch ms) after a rate limit; an existing longer hold stays. */
export async function holdChannel(db: Db | Tx, channelId: string, until: number): Promise<void> {
  await db
    .updateTable("channels")
    .set({ rate_limited_until: until })
    .where("id", "=", channelId)
    .where((eb) => eb.or([eb("rate_limited_until", "is", null), eb("rate_limited_until", "<", until)]))
    .execute();
}

/** The channel as an adapter sees it (PublishInput.channel), with its secrets opened. */
export async function adapterChannel(app: App, row: ChannelsTable) {
  return {
    id: row.id,
    provider: row.provider,
    emulates: row.emulates,
    settings: JSON.parse(row.settings) as Record<string, unknown>,
    secrets: await openSecrets(app, row),
  };
}
