// The queue's indexes hold only the rows the queue looks at: queued targets (the due index the claim walks) and
// targets being published (the leases the reclaimer checks). The full indexes carried every published target
// forever, and a target finishing had to move its entries in both; now it leaves them. Targets get an index by
// channel, for what a channel's deletion cancels. Dropping the old indexes does not break the previous release:
// its queries carry the same status conditions, so they use the partial indexes.
import type { Migration } from "../src/db/migration.ts";

export default {
  name: "queue_indexes",
  up: () => [
    `DROP INDEX post_targets_due`,
    `DROP INDEX post_targets_lease`,
    `CREATE INDEX post_targets_due ON post_targets (next_attempt_at, id) WHERE status = 'queued'`,
    `CREATE INDEX post_targets_leased ON post_targets (leased_until) WHERE status = 'publishing'`,
    `CREATE INDEX post_targets_channel ON post_targets (channel_id)`,
  ],
} satisfies Migration;
