// A brand's posts by time: the queue's week and the calendar's month ask for one brand's posts between two
// instants. Through posts_brand (by ID) that read walked every post the brand ever had and filtered by publish_at:
// with 100,000 posts in a brand, each calendar page read 100,000 rows to show a few dozen. posts_brand stays: the
// post list pages a brand's posts by ID. Built concurrently on Postgres, so posts keep being written meanwhile.
import type { Migration } from "../src/db/migration.ts";

const INDEX = "posts_brand_time ON posts (org_id, livemode, brand_id, publish_at)";

export default {
  name: "posts_brand_time",
  concurrently: true,
  up: (dialect) =>
    dialect === "postgres"
      ? [`CREATE INDEX CONCURRENTLY IF NOT EXISTS ${INDEX}`]
      : [`CREATE INDEX IF NOT EXISTS ${INDEX}`],
} satisfies Migration;
