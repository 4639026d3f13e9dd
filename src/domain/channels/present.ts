import type { ChannelsTable } from "../../db/tables/channels.ts";
import { iso, isoOrNull } from "../../lib/clock.ts";

/** The public Channel resource (reference §4). Secrets never leave the row; settings are the shown fields. */
export const presentChannel = (c: ChannelsTable) => ({
  id: c.id,
  object: "channel" as const,
  brand: c.brand_id,
  livemode: c.livemode === 1,
  provider: c.provider,
  emulates: c.emulates,
  display_name: c.display_name,
  handle: c.handle,
  profile_url: c.profile_url,
  settings: JSON.parse(c.settings) as Record<string, string>,
  status: c.status,
  status_note: c.status_note,
  checked_at: isoOrNull(c.checked_at),
  check_error: c.check_error,
  created_at: iso(c.created_at),
});
export type Channel = ReturnType<typeof presentChannel>;
