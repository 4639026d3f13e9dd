// One B-tree fewer for each published target: target_engagement_org (org_id, livemode, published_at) is the
// leading part of target_engagement_report (0032), which answers every query the smaller one did (the engagement
// summary's range of an org's published targets, and the reports), so it only cost the publish worker one more
// index entry written for every target it publishes (a page of the ~34 each step of ten dirties, copied into the
// log at commit and synced before the step's adapter calls). The previous release's queries keep an index to
// read: the wider one. On Postgres it is dropped CONCURRENTLY, so writes go on meanwhile.
import type { Migration } from "../src/db/migration.ts";

export default {
  name: "engagement_org_index",
  concurrently: true,
  up: (dialect) =>
    dialect === "postgres"
      ? ["DROP INDEX CONCURRENTLY IF EXISTS target_engagement_org"]
      : ["DROP INDEX IF EXISTS target_engagement_org"],
} satisfies Migration;
