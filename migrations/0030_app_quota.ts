// Upload quota per developer app and day (YouTube: each upload costs 1,600 of the app's 10,000 daily units; the
// day is the network's, Pacific time). One row per app and day holds the units spent; a row for a day gone by is
// read by nobody. No foreign key, like channel_grants: an app removed leaves its rows harmless. Expand only.
import type { Migration } from "../src/db/migration.ts";

export default {
  name: "app_quota",
  up: () => [
    `CREATE TABLE app_quota (
      app_id TEXT NOT NULL,
      day TEXT NOT NULL,
      units INTEGER NOT NULL,
      updated_at BIGINT NOT NULL,
      PRIMARY KEY (app_id, day)
    )`,
  ],
} satisfies Migration;
