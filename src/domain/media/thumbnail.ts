// A small picture of an image in the library, for the dashboard's media grid and composer: the stored bytes read
// in the actor's org and mode, shrunk to fit a square of THUMB_PX as WebP. A video has no thumbnail here (its
// frames would need a decoder); the grid shows its type and length instead.
import type { App } from "../../app/context.ts";
import { type Actor, requireScope } from "../actor.ts";
import { loadMedia } from "./service.ts";
import { loadSharp } from "./sniff.ts";
import { readBytes } from "./storage.ts";

export const THUMB_PX = 320;

export async function mediaThumbnail(
  app: App,
  actor: Actor,
  id: string,
): Promise<{ type: string; bytes: Uint8Array } | null> {
  requireScope(actor, "posts:read");
  const row = await loadMedia(app.db, actor, id);
  if (!row.type.startsWith("image/")) return null;
  const sharp = await loadSharp();
  const original = await readBytes(app, app.db, row);
  const bytes = await sharp(original, { animated: false })
    .rotate()
    .resize(THUMB_PX, THUMB_PX, { fit: "inside", withoutEnlargement: true })
    .webp({ quality: 75 })
    .toBuffer();
  return { type: "image/webp", bytes: new Uint8Array(bytes) };
}
