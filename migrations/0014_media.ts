// Media: one row per uploaded image or video, which records where its bytes are (the database or an S3 bucket,
// so files stored earlier stay readable after the setting changes); the bytes of database-stored media in a table
// of their own (BLOB / bytea) so listing media never reads them; which posts use which media (media_in_use and
// media.prune read it); and what the sandbox network received, shown on its permalink page.
import type { Migration } from "../src/db/migration.ts";

export default {
  name: "media",
  up: (d) => {
    const blob = d === "postgres" ? "BYTEA" : "BLOB";
    return [
      `CREATE TABLE media (
        id TEXT PRIMARY KEY,
        org_id TEXT NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,
        brand_id TEXT NOT NULL REFERENCES brands(id) ON DELETE CASCADE,
        livemode INTEGER NOT NULL,
        kind TEXT NOT NULL,
        type TEXT NOT NULL,
        size BIGINT NOT NULL,
        width INTEGER,
        height INTEGER,
        has_alpha INTEGER NOT NULL DEFAULT 0,
        animated INTEGER NOT NULL DEFAULT 0,
        alt TEXT,
        filename TEXT,
        sha256 TEXT NOT NULL,
        video TEXT,
        storage TEXT NOT NULL,
        bucket TEXT,
        object_key TEXT,
        created_at BIGINT NOT NULL,
        updated_at BIGINT NOT NULL
      )`,
      `CREATE INDEX media_org ON media (org_id, livemode, id)`,
      `CREATE INDEX media_created ON media (created_at)`,
      `CREATE TABLE media_blobs (
        media_id TEXT PRIMARY KEY REFERENCES media(id) ON DELETE CASCADE,
        bytes ${blob} NOT NULL
      )`,
      `CREATE TABLE post_media (
        post_id TEXT NOT NULL REFERENCES posts(id) ON DELETE CASCADE,
        media_id TEXT NOT NULL REFERENCES media(id),
        position INTEGER NOT NULL,
        PRIMARY KEY (post_id, position)
      )`,
      `CREATE INDEX post_media_media ON post_media (media_id)`,
      `CREATE TABLE sandbox_media (
        target_id TEXT NOT NULL,
        attempt INTEGER NOT NULL,
        part_index INTEGER NOT NULL,
        position INTEGER NOT NULL,
        org_id TEXT NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,
        media_id TEXT NOT NULL,
        type TEXT NOT NULL,
        size BIGINT NOT NULL,
        width INTEGER,
        height INTEGER,
        bytes ${blob},
        PRIMARY KEY (target_id, attempt, part_index, position)
      )`,
    ];
  },
} satisfies Migration;
