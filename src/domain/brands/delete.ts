// Deleting a brand (the dashboard's Brands page). A brand is shared by both modes and everything of it goes with
// it (its posts and their history, templates, media, keys limited to it: the schema cascades), so two guards come
// first: the person types the brand's name, and a brand that still has channels in either mode is refused
// (brand_has_channels): disconnecting a channel cancels what waits on it, which deleting rows underneath would not.
import type { App } from "../../app/context.ts";
import { conflict, invalid, problem } from "../../lib/errors.ts";
import { type Actor, requireScope } from "../actor.ts";
import { audit } from "../audit/service.ts";
import { deleteObject } from "../media/storage.ts";
import { inTx } from "../tx.ts";
import { loadBrand } from "./service.ts";

export async function deleteBrand(app: App, actor: Actor, ref: string, input: { confirm: string }) {
  requireScope(actor, "brands:write");
  const gone = await inTx(app, async (tx) => {
    const cur = await loadBrand(tx, actor, ref, "id");
    if (input.confirm.trim() !== cur.name)
      throw invalid([
        problem("confirmation_mismatch", `Type the brand's name, ${cur.name}, to delete it.`, "confirm"),
      ]);
    const channels = await tx
      .selectFrom("channels")
      .select("id")
      .where("org_id", "=", actor.orgId)
      .where("brand_id", "=", cur.id)
      .limit(1)
      .execute();
    if (channels.length)
      throw conflict(
        "brand_has_channels",
        `${cur.name} still has channels. Disconnect them (in test and live mode) first.`,
        { param: "confirm" },
      );
    // The media rows go with the brand; their bucket objects are removed after the commit.
    const media = await tx
      .selectFrom("media")
      .select(["id", "storage", "bucket", "object_key"])
      .where("org_id", "=", actor.orgId)
      .where("brand_id", "=", cur.id)
      .execute();
    await tx.deleteFrom("brands").where("id", "=", cur.id).where("org_id", "=", actor.orgId).execute();
    await audit(tx, app, actor, {
      action: "brand.delete",
      target: cur.id,
      detail: { name: cur.name, slug: cur.slug },
    });
    return { brand: cur, media };
  });
  for (const m of gone.media)
    await deleteObject(app, m).catch((e) =>
      app.log.warn("deleting a media object failed", { media: m.id, error: String(e) }),
    );
  return { id: gone.brand.id, object: "brand" as const, deleted: true as const };
}
