// Table types of migration 0002: channels and the sandbox network's posts.
import type { Bool } from "./bool.ts";

export interface ChannelsTable {
  id: string;
  org_id: string;
  brand_id: string;
  livemode: Bool;
  provider: string;
  /** The provider whose limits a sandbox channel takes; null for every other provider. */
  emulates: string | null;
  display_name: string;
  handle: string | null;
  profile_url: string | null;
  /** JSON object of the non-secret connect fields. */
  settings: string;
  /** The secret connect fields as JSON, sealed to (channels, id, secrets); null when there are none. */
  secrets: string | null;
  status: "active" | "needs_reauth" | "disabled";
  status_note: string | null;
  checked_at: number | null;
  check_error: string | null;
  /** The worker leaves the channel alone until then after a network said to slow down. */
  rate_limited_until: number | null;
  created_at: number;
  updated_at: number;
}

export interface SandboxPostsTable {
  target_id: string;
  attempt: number;
  part_index: number;
  org_id: string;
  channel_id: string;
  text: string;
  /** JSON array of { id, mime, alt }. */
  media: string;
  remote_id: string;
  created_at: number;
}

export interface ChannelTables {
  channels: ChannelsTable;
  sandbox_posts: SandboxPostsTable;
}

/** Column list for plain SQL text (see POST_COLUMNS). */
export const CHANNEL_COLUMNS = [
  "id",
  "org_id",
  "brand_id",
  "livemode",
  "provider",
  "emulates",
  "display_name",
  "handle",
  "profile_url",
  "settings",
  "secrets",
  "status",
  "status_note",
  "checked_at",
  "check_error",
  "rate_limited_until",
  "created_at",
  "updated_at",
] as const satisfies readonly (keyof ChannelsTable)[];
