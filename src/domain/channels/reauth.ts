// A revoked credential turns the channel needs_reauth with the event channel.needs_reauth (interface.md States).
// (Temporary home until the channels feature lands; it then owns this function.)
import { sql } from "kysely";
import type { App } from "../../app/context.ts";
import type { Tx } from "../../db/index.ts";
import { recordEvent } from "../events/record.ts";

export async function markNeedsReauth(tx: Tx, app: App, channelId: string, note: string): Promise<void> {
  const r = await sql<{ id: string; org_id: string; livemode: number; brand_id: string; provider: string }>`
    UPDATE channels SET status = 'needs_reauth', status_note = ${note}, updated_at = ${app.clock.now()}
    WHERE id = ${channelId} AND status = 'active' RETURNING id, org_id, livemode, brand_id, provider`.execute(
    tx,
  );
  const c = r.rows[0];
  if (!c) return;
  await recordEvent(
    tx,
    app,
    { orgId: c.org_id, livemode: c.livemode === 1, requestId: null },
    "channel.needs_reauth",
    {
      id: c.id,
      object: "channel",
      brand: c.brand_id,
      provider: c.provider,
      status: "needs_reauth",
      status_note: note,
    },
  );
}
