// GET /v1/media/{id}/content?expires&for&signature: a medium's bytes by signed link, for networks that fetch media
// by URL. No credential: the signature is the permission. Any bad, expired or unknown link is the same 404.
import type { App } from "../app/context.ts";
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
    const body = await openStream(app, app.db, row);
    return new Response(body, {
      status: 200,
      headers: {
        "Content-Type": row.type,
        "Content-Length": String(row.size),
        "Cache-Control": "private, max-age=3600",
        // The bytes are a tenant's upload served from our origin: a browser opening the link runs nothing in it
        // (sandbox: no script, a unique origin) and saves it rather than rendering it as a page of ours.
        "Content-Security-Policy": "sandbox; default-src 'none'",
        "Content-Disposition": `attachment; filename="${id}.${extensionOf(row.type)}"`,
        "Request-Id": requestId,
        ...SECURITY_HEADERS,
      },
    });
  } catch (e) {
    return problemResponse(app, asServiceError(app, e, requestId), requestId);
  }
}
