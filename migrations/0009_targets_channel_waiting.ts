// The index of targets by channel served one statement: a channel's deletion cancelling the targets still waiting
// on it. Holding every target, it cost one more B-tree leaf written per target (4 of ~16 log pages of a post to
// four channels). Queued targets are in the due index already, which carries channel_id; held and
// needs_attention targets, few, get a partial index of their own. On Postgres the index is built CONCURRENTLY, so
// writes to post_targets go on while it is. The previous release's cancel statement keeps working without the
// full index (it filters the table), only slower, and deleting a channel is rare.
import type { Migration } from "../src/db/migration.ts";

const WAITING = `post_targets_channel_waiting ON post_targets (channel_id) WHERE status IN ('held', 'needs_attention')`;

export default {
  name: "targets_channel_waiting",
  concurrently: true,
  up: (dialect) =>
    dialect === "postgres"
      ? [
          `CREATE INDEX CONCURRENTLY IF NOT EXISTS ${WAITING}`,
          `DROP INDEX CONCURRENTLY IF EXISTS post_targets_channel`,
        ]
      : [`CREATE INDEX IF NOT EXISTS ${WAITING}`, `DROP INDEX IF EXISTS post_targets_channel`],
} satisfies Migration;
