// Images and video for X, uploaded before the post that shows them (docs.x.com "Media upload", chunked): initialize
// with the type, size and category, append the bytes in segments (multipart), finalize for the media ID, then the
// alt text through POST /2/media/metadata. A video is read from its stream segment by segment (never whole in
// memory), and after finalize X processes it: its state is asked with GET /2/media/upload?command=STATUS, waiting
// check_after_secs between asks, until it has succeeded (or failed) before the post names it. An upload that fails
// posts nothing: media no post uses expire on X's side, so a retry simply uploads again.
import type { App } from "../../app/context.ts";
import type { PublishMedia, PublishOutcome } from "../adapter.ts";
import { field, msUntil, type NetworkResponse, NoAnswer, networkRequest, str } from "../plumbing/http.ts";
import { type ProcessingState, waitForProcessing } from "../plumbing/processing.ts";

/** X takes segments of up to 5 MB; 4 MiB keeps a margin. */
const SEGMENT_BYTES = 4 * 1024 * 1024;
const RATE_LIMIT_FALLBACK_MS = 15 * 60_000;
/** How long a video's processing is waited for before the attempt is given up (and tried again later). */
const PROCESSING_WAIT_MS = 120_000;

export interface UploadContext {
  app: App;
  api: string;
  /** The headers that authorize one request (an OAuth 1.0a signature covers its method and URL). */
  authorize(method: string, url: string): Promise<Record<string, string>>;
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
      headers: { ...(await ctx.authorize(req.method, req.url)), ...req.headers },
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

/** Uploads each image or video and returns the media IDs in order, or the outcome that stopped it. */
export async function uploadImages(
  ctx: UploadContext,
  media: PublishMedia[],
): Promise<{ ids: string[] } | { outcome: PublishOutcome }> {
  const ids: string[] = [];
  for (const [i, m] of media.entries()) {
    const video = m.kind === "video" || m.mime.startsWith("video/");
    const what = video ? `video ${i + 1}` : `image ${i + 1}`;
    const source = video ? await videoSegments(m) : await imageSegments(m);
    const total = source.total;
    const init = await call(ctx, `${what} (initialize)`, {
      method: "POST",
      url: `${ctx.api}/2/media/upload/initialize`,
      json: {
        media_type: m.mime,
        total_bytes: total,
        media_category: video ? "tweet_video" : m.mime === "image/gif" ? "tweet_gif" : "tweet_image",
      },
    });
    if (isOutcome(init)) return { outcome: init };
    if (init.status !== 200) return { outcome: refused(ctx.app, init, `${what} (initialize)`) };
    const session = str(field(field(init.json, "data"), "id"));
    if (!session) return { outcome: { kind: "transient", message: `X sent no upload ID for ${what}.` } };
    let segment = 0;
    for await (const chunk of source.segments) {
      if (ctx.signal.aborted)
        return { outcome: { kind: "transient", message: "Stopped during a media upload." } };
      const form = new FormData();
      form.set("segment_index", String(segment));
      form.set("media", new Blob([chunk], { type: m.mime }), "media");
      const res = await call(ctx, `${what} (segment ${segment})`, {
        method: "POST",
        url: `${ctx.api}/2/media/upload/${encodeURIComponent(session)}/append`,
        multipart: form,
      });
      if (isOutcome(res)) return { outcome: res };
      if (res.status !== 200) return { outcome: refused(ctx.app, res, `${what} (segment ${segment})`) };
      segment++;
    }
    const fin = await call(ctx, `${what} (finalize)`, {
      method: "POST",
      url: `${ctx.api}/2/media/upload/${encodeURIComponent(session)}/finalize`,
    });
    if (isOutcome(fin)) return { outcome: fin };
    if (fin.status !== 200) return { outcome: refused(ctx.app, fin, `${what} (finalize)`) };
    const id = str(field(field(fin.json, "data"), "id")) ?? session;
    const processing = field(field(fin.json, "data"), "processing_info");
    if (processing !== undefined) {
      const ready = await processed(ctx, what, id, processing);
      if (ready) return { outcome: ready };
    }
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

/** An image's bytes in segments. */
async function imageSegments(
  m: PublishMedia,
): Promise<{ total: number; segments: AsyncIterable<Uint8Array> }> {
  if (!m.read) throw new Error(`medium ${m.id} has no bytes to read`);
  const bytes = await m.read();
  return {
    total: bytes.byteLength,
    segments: (async function* () {
      for (let at = 0; at < bytes.byteLength; at += SEGMENT_BYTES)
        yield bytes.subarray(at, at + SEGMENT_BYTES);
    })(),
  };
}

/** A video's bytes from its stream, cut into segments as they arrive: at most one segment is held at a time. */
async function videoSegments(
  m: PublishMedia,
): Promise<{ total: number; segments: AsyncIterable<Uint8Array> }> {
  if (!m.stream && !m.read) throw new Error(`medium ${m.id} has no bytes to read`);
  if (!m.stream) return imageSegments(m);
  if (m.size === undefined) throw new Error(`video ${m.id} has no size`);
  const stream = await m.stream();
  return {
    total: m.size,
    segments: (async function* () {
      let held: Uint8Array[] = [];
      let length = 0;
      const take = () => {
        const out = new Uint8Array(length);
        let at = 0;
        for (const b of held) {
          out.set(b, at);
          at += b.byteLength;
        }
        held = [];
        length = 0;
        return out;
      };
      for await (const chunk of stream as unknown as AsyncIterable<Uint8Array>) {
        let rest = chunk;
        while (rest.byteLength) {
          const room = SEGMENT_BYTES - length;
          held.push(rest.subarray(0, room));
          length += Math.min(room, rest.byteLength);
          rest = rest.subarray(room);
          if (length === SEGMENT_BYTES) yield take();
        }
      }
      if (length) yield take();
    })(),
  };
}

/**
 * Waits for X to finish processing a video (STATUS, check_after_secs apart; plumbing/processing.ts). Null when it
 * succeeded; else the outcome: failed processing is a rejection of the medium; still processing at the deadline,
 * another attempt.
 */
async function processed(
  ctx: UploadContext,
  what: string,
  id: string,
  first: unknown,
): Promise<PublishOutcome | null> {
  let info: unknown = first;
  let looked = false;
  const state = (): ProcessingState<null> => {
    const s = str(field(info, "state"));
    if (s === "succeeded" || s === null) return { state: "done", value: null };
    if (s === "failed")
      return { state: "failed", reason: str(field(field(info, "error"), "message")) ?? "no reason given" };
    const after = field(info, "check_after_secs");
    return { state: "pending", afterMs: (typeof after === "number" && after > 0 ? after : 1) * 1000 };
  };
  const r = await waitForProcessing<null>({
    signal: ctx.signal,
    limitMs: PROCESSING_WAIT_MS,
    async look() {
      // The finalize answer is the first look; each later one asks STATUS.
      if (looked) {
        const res = await call(ctx, `${what} (status)`, {
          method: "GET",
          url: `${ctx.api}/2/media/upload?command=STATUS&media_id=${encodeURIComponent(id)}`,
        });
        if (isOutcome(res)) return { state: "stop", outcome: res };
        if (res.status !== 200) return { state: "stop", outcome: refused(ctx.app, res, `${what} (status)`) };
        info = field(field(res.json, "data"), "processing_info");
      }
      looked = true;
      return state();
    },
  });
  if (r.state === "done") return null;
  if (r.state === "stop") return r.outcome as PublishOutcome;
  if (r.state === "failed")
    return {
      kind: "rejected",
      code: "media_rejected",
      message: `X could not process ${what}: ${r.reason}; nothing was posted.`,
    };
  return { kind: "transient", message: `X was still processing ${what}; nothing was posted.` };
}
