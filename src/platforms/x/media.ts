// Images for X, uploaded before the post that shows them (docs.x.com "Media upload", chunked): initialize with the
// type and size, append the bytes in segments (multipart), finalize for the media ID, then the alt text through
// POST /2/media/metadata. An upload that fails posts nothing: media no post uses expire on X's side, so a retry
// simply uploads again.
import type { App } from "../../app/context.ts";
import type { PublishMedia, PublishOutcome } from "../adapter.ts";
import { field, msUntil, type NetworkResponse, NoAnswer, networkRequest, str } from "../plumbing/http.ts";

/** X takes segments of up to 5 MB; 4 MiB keeps a margin. */
const SEGMENT_BYTES = 4 * 1024 * 1024;
const RATE_LIMIT_FALLBACK_MS = 15 * 60_000;

export interface UploadContext {
  app: App;
  api: string;
  headers: Record<string, string>;
  signal: AbortSignal;
}

function refused(app: App, res: NetworkResponse, what: string): PublishOutcome {
  const why = str(field(res.json, "detail")) ?? str(field(res.json, "title")) ?? `HTTP ${res.status}`;
  const message = `X answered ${res.status} to ${what}: ${why}; nothing was posted.`;
  if (res.status === 429)
    return {
      kind: "rate_limited",
      retryAfterMs: msUntil(app, res.headers.get("x-rate-limit-reset")) ?? RATE_LIMIT_FALLBACK_MS,
      message,
    };
  if (res.status === 401) return { kind: "auth_revoked", message };
  // A failed upload leaves no post behind, so any 5xx is safe to try again.
  if (res.status >= 500) return { kind: "transient", message };
  return { kind: "rejected", code: "media_rejected", message };
}

async function call(
  ctx: UploadContext,
  what: string,
  req: Parameters<typeof networkRequest>[1],
): Promise<NetworkResponse | PublishOutcome> {
  try {
    return await networkRequest(ctx.app, {
      ...req,
      headers: { ...ctx.headers, ...req.headers },
      signal: ctx.signal,
    });
  } catch (err) {
    if (!(err instanceof NoAnswer)) throw err;
    if (err.refused) return { kind: "rejected", code: "network", message: `X: ${err.message}` };
    // Whatever happened to the upload, no post was created.
    return { kind: "transient", message: `X: ${err.message} during ${what}; nothing was posted.` };
  }
}

const isOutcome = (r: NetworkResponse | PublishOutcome): r is PublishOutcome => "kind" in r;

/** Uploads each image and returns the media IDs in order, or the outcome that stopped it. */
export async function uploadImages(
  ctx: UploadContext,
  media: PublishMedia[],
): Promise<{ ids: string[] } | { outcome: PublishOutcome }> {
  const ids: string[] = [];
  for (const [i, m] of media.entries()) {
    const what = `image ${i + 1}`;
    if (m.kind === "video" || m.mime.startsWith("video/"))
      return {
        outcome: {
          kind: "rejected",
          code: "media_rejected",
          message: "svc does not upload videos to X yet; nothing was posted.",
        },
      };
    if (!m.read) throw new Error(`medium ${m.id} has no bytes to read`);
    const bytes = await m.read();
    const init = await call(ctx, `${what} (initialize)`, {
      method: "POST",
      url: `${ctx.api}/2/media/upload/initialize`,
      json: {
        media_type: m.mime,
        total_bytes: bytes.byteLength,
        media_category: m.mime === "image/gif" ? "tweet_gif" : "tweet_image",
      },
    });
    if (isOutcome(init)) return { outcome: init };
    if (init.status !== 200) return { outcome: refused(ctx.app, init, `${what} (initialize)`) };
    const session = str(field(field(init.json, "data"), "id"));
    if (!session) return { outcome: { kind: "transient", message: `X sent no upload ID for ${what}.` } };
    for (let at = 0, segment = 0; at < bytes.byteLength; at += SEGMENT_BYTES, segment++) {
      if (ctx.signal.aborted)
        return { outcome: { kind: "transient", message: "Stopped during a media upload." } };
      const form = new FormData();
      form.set("segment_index", String(segment));
      form.set("media", new Blob([bytes.subarray(at, at + SEGMENT_BYTES)], { type: m.mime }), "media");
      const res = await call(ctx, `${what} (segment ${segment})`, {
        method: "POST",
        url: `${ctx.api}/2/media/upload/${encodeURIComponent(session)}/append`,
        multipart: form,
      });
      if (isOutcome(res)) return { outcome: res };
      if (res.status !== 200) return { outcome: refused(ctx.app, res, `${what} (segment ${segment})`) };
    }
    const fin = await call(ctx, `${what} (finalize)`, {
      method: "POST",
      url: `${ctx.api}/2/media/upload/${encodeURIComponent(session)}/finalize`,
    });
    if (isOutcome(fin)) return { outcome: fin };
    if (fin.status !== 200) return { outcome: refused(ctx.app, fin, `${what} (finalize)`) };
    const id = str(field(field(fin.json, "data"), "id")) ?? session;
    if (m.alt) {
      const alt = await call(ctx, `${what} (alt text)`, {
        method: "POST",
        url: `${ctx.api}/2/media/metadata`,
        json: { id, metadata: { alt_text: { text: m.alt.slice(0, 1000) } } },
      });
      if (isOutcome(alt)) return { outcome: alt };
      if (alt.status !== 200) return { outcome: refused(ctx.app, alt, `${what} (alt text)`) };
    }
    ids.push(id);
  }
  return { ids };
}
