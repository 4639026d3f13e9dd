import type { Bool } from "./bool.ts";

export interface PostsTable {
  id: string;
  org_id: string;
  brand_id: string;
  livemode: Bool;
  status: string;
  template_id: string | null;
  template_key: string | null;
  template_version: number | null;
  data: string | null;
  content: string | null;
  publish_at: number | null;
  publish_by: number | null;
  slot: Bool;
  metadata: string;
  media: string;
  approval_required: Bool;
  reviewed_by: string | null;
  reviewed_by_key: string | null;
  reviewed_at: number | null;
  review_note: string | null;
  /** The client review link that approved or rejected the post (migration 0035); null otherwise. */
  reviewed_by_link?: string | null;
  created_by_key: string | null;
  created_by_user: string | null;
  search_text: string;
  created_at: number;
  updated_at: number;
  /** JSON: what the post was made from (migration 0026), so an edit changes only what it names; null before. */
  input?: string | null;
  /** JSON: a draft's rule problems at its last save (migration 0026); null for any other post. */
  problems?: string | null;
}

export interface PostTargetsTable {
  id: string;
  org_id: string;
  livemode: Bool;
  post_id: string;
  channel_id: string;
  provider: string;
  channel_name: string;
  parts: string;
  status: string;
  attempts: number;
  next_attempt_at: number | null;
  publish_by: number | null;
  permalink: string | null;
  error_code: string | null;
  error_message: string | null;
  published_at: number | null;
  leased_until: number | null;
  lease_owner: string | null;
  remote_parts: string;
  created_at: number;
  updated_at: number;
  /** The account's own first reply, posted right after the post as its last part (migration 0026); or null. */
  first_comment?: string | null;
  /** When svc deleted the target's post from the network (migration 0026); null while it is there. */
  deleted_at?: number | null;
}

export interface PostAttemptsTable {
  id: string;
  org_id: string;
  target_id: string;
  attempt: number;
  started_at: number;
  finished_at: number | null;
  outcome: string;
  error_code: string | null;
  error_message: string | null;
  /** JSON: how an uncertain outcome was settled by looking on the network (migration 0013); null otherwise. */
  settlement?: string | null;
}

export interface PostSlotsTable {
  brand_id: string;
  livemode: Bool;
  slot_time: number;
  post_id: string;
}

export interface ChannelLocksTable {
  channel_id: string;
  target_id: string;
  leased_until: number;
}

export interface PostTables {
  posts: PostsTable;
  post_targets: PostTargetsTable;
  post_attempts: PostAttemptsTable;
  post_slots: PostSlotsTable;
  channel_locks: ChannelLocksTable;
}

// Column lists for plain SQL text (src/db/raw.ts): named rather than `*`, so a statement Postgres has prepared keeps
// its result shape when a later migration adds a column.
export const POST_COLUMNS = [
  "id",
  "org_id",
  "brand_id",
  "livemode",
  "status",
  "template_id",
  "template_key",
  "template_version",
  "data",
  "content",
  "publish_at",
  "publish_by",
  "slot",
  "metadata",
  "media",
  "approval_required",
  "reviewed_by",
  "reviewed_by_key",
  "reviewed_at",
  "review_note",
  "reviewed_by_link",
  "created_by_key",
  "created_by_user",
  "search_text",
  "created_at",
  "updated_at",
] as const satisfies readonly (keyof PostsTable)[];
export const POST_TARGET_COLUMNS = [
  "id",
  "org_id",
  "livemode",
  "post_id",
  "channel_id",
  "provider",
  "channel_name",
  "parts",
  "status",
  "attempts",
  "next_attempt_at",
  "publish_by",
  "permalink",
  "error_code",
  "error_message",
  "published_at",
  "leased_until",
  "lease_owner",
  "remote_parts",
  "created_at",
  "updated_at",
  "first_comment",
  "deleted_at",
] as const satisfies readonly (keyof PostTargetsTable)[];
