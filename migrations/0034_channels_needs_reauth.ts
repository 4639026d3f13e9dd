// Channels waiting to be reconnected, by org and mode: every dashboard page counts them for its banner
// (domain/channels/needs-reauth.ts). A partial index holds only those rows, so the count reads a handful of index
// entries however many channels the org has, and costs nothing to keep while channels stay healthy.
import type { Migration } from "../src/db/migration.ts";

export default {
  name: "channels_needs_reauth",
  concurrently: true,
  up: (d) => [
    d === "postgres"
      ? `CREATE INDEX CONCURRENTLY IF NOT EXISTS channels_needs_reauth ON channels (org_id, livemode, brand_id) WHERE status = 'needs_reauth'`
      : `CREATE INDEX IF NOT EXISTS channels_needs_reauth ON channels (org_id, livemode, brand_id) WHERE status = 'needs_reauth'`,
  ],
} satisfies Migration;
