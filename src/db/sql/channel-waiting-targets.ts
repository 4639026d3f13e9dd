// The targets waiting on a channel, which deleting the channel cancels (domain/channels/service.ts). The statuses
// are literal SQL: queued targets are found through the due index and held or needs_attention ones through their
// partial index (post_targets_channel_waiting, migration 0009), and SQLite uses a partial index only for a
// condition it can read when preparing.
import { condition } from "./statement.ts";

/** Queued, held or needing attention: every target that could still be published. */
export const targetWaiting = condition<[]>("post_targets", "status IN ('queued', 'held', 'needs_attention')");

/** Queued (the due index). */
export const targetQueued = condition<[]>("post_targets", "status = 'queued'");

/** Held or needing attention (post_targets_channel_waiting). */
export const targetHeldOrUncertain = condition<[]>("post_targets", "status IN ('held', 'needs_attention')");
