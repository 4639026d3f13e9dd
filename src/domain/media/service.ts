// Media of the actor's org and mode: list (by brand), get, change alt, delete (refused while a post that is not
// finished uses it). A brand-limited key sees only its brand's media.
import type { App } from "../../app/context.ts";
import type { Db, Tx } from "../../db/index.ts";
import type { MediaTable } from "../../db/tables/media.ts";
import { conflict, notFound } from "../../lib/errors.ts";
import { type Actor, brandVisible, requireScope } from "../actor.ts";
import { audit } from "../audit/service.ts";
import { loadBrand } from "../brands/service.ts";
import { listParams, page } from "../pagination.ts";
import { rowInScope } from "../scope.ts";
import { inTx } from "../tx.ts";
import { parse } from "../validate.ts";
import { presentMedia } from "./present.ts";
import { MediaUpdate } from "./schema.ts";
import { deleteObject } from "./storage.ts";

/** Post statuses in which a post still needs its media. */
export const UNFINISHED_POST = ["pending_approval", "scheduled", "publishing"] as const;

export async function loadMedia(db: Db | Tx, actor: Actor, id: string): Promise<MediaTable> {
  const row = await rowInScope(db, actor, "media", "media", id);
  if (!row || !brandVisible(actor, row.brand_id)) throw notFound(`No media ${id}.`, "id");
  return row;
}

export async function listMedia(app: App, actor: Actor, query: Record<string, unknown>) {
  requireScope(actor, "posts:read");
  let q = app.db
    .selectFrom("media")
    .selectAll()
    .where("org_id", "=", actor.orgId)
    .where("livemode", "=", actor.livemode ? 1 : 0);
  if (typeof query.brand === "string" && query.brand !== "")
    q = q.where("brand_id", "=", (await loadBrand(app.db, actor, query.brand)).id);
  else if (actor.brandId) q = q.where("brand_id", "=", actor.brandId);
  return page(q, listParams(query, "media"), "/v1/media", presentMedia);
}

export async function getMedia(app: App, actor: Actor, id: string) {
  requireScope(actor, "posts:read");
  return presentMedia(await loadMedia(app.db, actor, id));
}

export async function updateMedia(app: App, actor: Actor, id: string, input: unknown) {
  requireScope(actor, "posts:write");
  const b = parse(MediaUpdate, input);
  const now = app.clock.now();
  return inTx(app, async (tx) => {
    const cur = await loadMedia(tx, actor, id);
    const alt = b.alt === "" ? null : b.alt;
    await tx.updateTable("media").set({ alt, updated_at: now }).where("id", "=", cur.id).execute();
    await audit(tx, app, actor, { action: "media.update", target: cur.id, detail: { alt } });
    return presentMedia({ ...cur, alt, updated_at: now });
  });
}

export async function deleteMedia(app: App, actor: Actor, id: string) {
  requireScope(actor, "posts:write");
  const gone = await inTx(app, async (tx) => {
    const cur = await loadMedia(tx, actor, id);
    const using = await tx
      .selectFrom("post_media")
      .innerJoin("posts", "posts.id", "post_media.post_id")
      .select("posts.id")
      .where("post_media.media_id", "=", cur.id)
      .where("posts.status", "in", [...UNFINISHED_POST])
      .limit(5)
      .execute();
    if (using.length)
      throw conflict("media_in_use", `Media ${cur.id} is used by a post that is not finished.`, {
        detail: { posts: using.map((p) => p.id) },
      });
    const held = await tx
      .selectFrom("media_holds")
      .select("holder")
      .where("media_id", "=", cur.id)
      .limit(5)
      .execute();
    if (held.length)
      throw conflict("media_in_use", `Media ${cur.id} is the brand's email logo or in a newsletter.`, {
        detail: { held_by: held.map((h) => h.holder) },
      });
    // Finished posts keep their record of which media they carried; the link rows go, the media with them.
    await tx.deleteFrom("post_media").where("media_id", "=", cur.id).execute();
    await tx.deleteFrom("media").where("id", "=", cur.id).execute();
    await audit(tx, app, actor, { action: "media.delete", target: cur.id, detail: { type: cur.type } });
    return cur;
  });
  // After the commit: an object whose row is gone is unreachable anyway; a failed delete leaves only bytes.
  await deleteObject(app, gone).catch((e) =>
    app.log.warn("deleting a media object failed", { media: gone.id, error: String(e) }),
  );
  return { id: gone.id, object: "media" as const, deleted: true as const };
}
