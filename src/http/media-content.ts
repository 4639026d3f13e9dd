// GET /v1/media/{id}/content?expires&for&signature: a medium's bytes by signed link, for networks that fetch media
// by URL. No credential: the signature is the permission. Any bad, expired or unknown link is the same 404.
import type { App } from "../app/context.ts";
import type { MediaTable } from "../db/tables/media.ts";
import { verifyMediaLink } from "../domain/media/link.ts";
import { openStream } from "../domain/media/storage.ts";
import { ServiceError } from "../lib/errors.ts";
import { isId, newId } from "../lib/ids.ts";
import { asServiceError, problemResponse, SECURITY_HEADERS } from "./respond.ts";

const EXTENSIONS: Record<string, string> = {
  "image/jpeg": "jpg",
  "image/png": "png",
  "image/gif": "gif",
  "image/webp": "webp",
  "video/mp4": "mp4",
  "video/quicktime": "mov",
};
const extensionOf = (type: string) => EXTENSIONS[type] ?? "bin";

const missing = () => new ServiceError(404, "resource_missing", "No such media link, or it has expired.");

export async function mediaContent(app: App, id: string, request: Request): Promise<Response> {
  const requestId = newId("req");
  try {
    const query = new URL(request.url).searchParams;
    if (!isId("media", id) || !(await verifyMediaLink(app, id, query))) throw missing();
    const row = await app.db.selectFrom("media").selectAll().where("id", "=", id).executeTakeFirst();
    if (!row) throw missing();
    const converted = await forNetwork(app, row, query.get("for"));
    const body = converted
      ? new Blob([converted as Uint8Array<ArrayBuffer>]).stream()
      : await openStream(app, app.db, row);
    const type = converted ? "image/jpeg" : row.type;
    return new Response(body, {
      status: 200,
      headers: {
        "Content-Type": type,
        "Content-Length": String(converted ? converted.byteLength : row.size),
        "Cache-Control": "private, max-age=3600",
        // The bytes are a tenant's upload served from our origin: a browser opening the link runs nothing in it
        // (sandbox: no script, a unique origin) and saves it rather than rendering it as a page of ours.
        "Content-Security-Policy": "sandbox; default-src 'none'",
        "Content-Disposition": `attachment; filename="${id}.${extensionOf(type)}"`,
        "Request-Id": requestId,
        ...SECURITY_HEADERS,
      },
    });
  } catch (e) {
    return problemResponse(app, asServiceError(app, e, requestId), requestId);
  }
}

/**
 * The image as the network the link was made for takes it: where its rules need it resized or converted (Instagram
 * takes JPEG only), the same JPEG an upload to it would carry; null when the original goes as it is. The resizer
 * loads with the first such link, not at start.
 */
async function forNetwork(app: App, row: MediaTable, provider: string | null): Promise<Uint8Array | null> {
  if (!provider || row.kind !== "image") return null;
  const { getPlatform } = await import("../platforms/rules-registry.ts");
  const rules = getPlatform(provider);
  if (!rules) return null;
  const { checkMediaFor } = await import("../domain/media/for-post.ts");
  if (!checkMediaFor(rules, [row]).notices.some((n) => n.media === row.id)) return null;
  const { readBytes } = await import("../domain/media/storage.ts");
  const { resizeForNetwork } = await import("../domain/media/resize.ts");
  const original = await readBytes(app, app.db, row);
  const r = await resizeForNetwork(
    original,
    { width: row.width ?? 0, height: row.height ?? 0, bytes: original.byteLength },
    rules,
  );
  return r.bytes;
}
