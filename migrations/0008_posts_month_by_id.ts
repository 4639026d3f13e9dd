// A post's ID carries its creation time (UUIDv7), so the monthly count of live posts walks posts_org by ID from the
// month's first possible ID instead of a created_at index of its own: one B-tree fewer written with every post.
// The previous release's count (created_at >= month start) still runs without it, by the org index and a filter.
import type { Migration } from "../src/db/migration.ts";

export default {
  name: "posts_month_by_id",
  up: () => [`DROP INDEX posts_month`],
} satisfies Migration;
