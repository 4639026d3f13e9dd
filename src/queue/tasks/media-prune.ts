// media.prune (hourly): media no post uses, uploaded more than a day ago, are deleted with their bytes (the
// database copy goes with the row; a bucket object is deleted after). A medium a post lists, finished or not,
// stays: the post embeds it; so does one something else holds (media_holds: an email logo, a newsletter). Objects
// under the bucket's prefix that no row names, older than a day, go too.
import type { App } from "../../app/context.ts";
import type { TaskDef } from "../tasks.ts";

export const UNUSED_MEDIA_MS = 24 * 3600_000;
const BATCH = 200;

export async function pruneMedia(app: App): Promise<number> {
  const before = app.clock.now() - UNUSED_MEDIA_MS;
  // Loaded when the hourly run first fires, not at start.
  const { deleteObject } = await import("../../domain/media/storage.ts");
  let pruned = 0;
  for (;;) {
    const rows = await app.db
      .selectFrom("media")
      .select(["id", "storage", "bucket", "object_key"])
      .where("created_at", "<", before)
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(selectFrom("post_media").select("post_id").whereRef("post_media.media_id", "=", "media.id")),
        ),
      )
      // A brand's email logo and a newsletter's images are held (media_holds), not listed by a post.
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom("media_holds").select("holder").whereRef("media_holds.media_id", "=", "media.id"),
          ),
        ),
      )
      .orderBy("created_at")
      .limit(BATCH)
      .execute();
    if (rows.length === 0) return pruned;
    for (const row of rows) {
      // The check and the delete in one statement: a post that took the medium meanwhile keeps it.
      const gone = await app.db
        .deleteFrom("media")
        .where("id", "=", row.id)
        .where(({ not, exists, selectFrom }) =>
          not(exists(selectFrom("post_media").select("post_id").where("post_media.media_id", "=", row.id))),
        )
        .where(({ not, exists, selectFrom }) =>
          not(exists(selectFrom("media_holds").select("holder").where("media_holds.media_id", "=", row.id))),
        )
        .executeTakeFirst();
      if (Number(gone.numDeletedRows) === 0) continue;
      pruned++;
      await deleteObject(app, row).catch((e) =>
        app.log.warn("media.prune: deleting an object failed", { media: row.id, error: String(e) }),
      );
    }
    if (rows.length < BATCH) break;
  }
  return pruned + (await pruneUnrecorded(app, before));
}

/**
 * Objects under the bucket's prefix older than a day that no media row names: an upload that died between
 * writing its object and committing its row (a `kill -9` mid-request) leaves one that nothing else would ever
 * find. The row is written after the object, so an object younger than the cutoff may still be getting its row.
 */
export async function pruneUnrecorded(app: App, before: number): Promise<number> {
  const s3 = app.config.s3;
  if (!s3) return 0;
  const { sweepPrefix } = await import("../../domain/media/bucket-sweep.ts");
  return sweepPrefix(
    app,
    s3.bucket,
    s3.prefix,
    async (page) => {
      const old = page.filter((o) => o.modified < before).map((o) => o.key);
      if (old.length === 0) return [];
      const named = await app.db
        .selectFrom("media")
        .select("object_key")
        .where("bucket", "=", s3.bucket)
        .where("object_key", "in", old)
        .execute();
      const keep = new Set(named.map((m) => m.object_key));
      return old.filter((k) => !keep.has(k));
    },
    before,
  );
}

export const mediaPrune: TaskDef = {
  name: "media.prune",
  schedule: "0 25 * * * *",
  timeoutMs: 10 * 60_000,
  async run(app) {
    await pruneMedia(app);
  },
};
