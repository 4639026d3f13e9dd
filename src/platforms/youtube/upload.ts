// A video sent to YouTube with its resumable upload protocol (developers.google.com/youtube/v3/guides/
// using_resumable_upload_protocol): the upload is started with the video's metadata (POST /upload/youtube/v3/
// videos?uploadType=resumable, answered with the session's Location), then the bytes are PUT to the session as
// they are read from the bucket, never held whole. When the connection drops or YouTube answers 5xx, the session
// is asked how far it got (PUT with `Content-Range: bytes */size`, answered 308 with `Range: bytes=0-N`) and the
// upload goes on from byte N+1, read again from the bucket from there. The answer to the last byte is the video.
import type { App } from "../../app/context.ts";
import type { PublishMedia, PublishOutcome } from "../adapter.ts";
import { coalesce } from "../plumbing/coalesce.ts";
import { field, type NetworkResponse, NoAnswer, networkRequest, str } from "../plumbing/http.ts";
import { PROCESSING_LIMIT_MS } from "../plumbing/processing.ts";
import { bearer, errorText, reasonOf, refusal, youtubeOrigin } from "./api.ts";

/** Bytes joined per write to the socket (plumbing/coalesce.ts). */
const PIECE_BYTES = 1024 * 1024;
/** How many times one attempt asks a session where it stopped and goes on. */
const MAX_RESUMES = 8;

export interface VideoMetadata {
  snippet: { title: string; description: string; categoryId: string };
  status: { privacyStatus: string; selfDeclaredMadeForKids: boolean };
}

export interface UploadContext {
  app: App;
  secrets: Record<string, string>;
  signal: AbortSignal;
  /** Waits between resumes (tests make it short). */
  pauseMs?: (resume: number) => number;
}

type Sent = { res: NetworkResponse } | { lost: NoAnswer };

async function send(ctx: UploadContext, req: Parameters<typeof networkRequest>[1]): Promise<Sent> {
  try {
    return {
      res: await networkRequest(ctx.app, {
        ...req,
        headers: { ...bearer(ctx.secrets), ...req.headers },
        signal: ctx.signal,
      }),
    };
  } catch (err) {
    if (!(err instanceof NoAnswer)) throw err;
    return { lost: err };
  }
}

const isVideo = (res: NetworkResponse) =>
  (res.status === 200 || res.status === 201) && !!field(res.json, "id");

/** The next byte YouTube wants, from a 308's Range header (`bytes=0-N`); 0 when it has none. */
function nextByte(res: NetworkResponse): number {
  const m = /bytes=0-(\d+)/.exec(res.headers.get("range") ?? "");
  return m ? Number(m[1]) + 1 : 0;
}

/**
 * Uploads the video and returns YouTube's Video resource, or the outcome that stopped it. Nothing is published
 * until the last byte is acknowledged, so every stop before that is `transient` (the next attempt uploads again);
 * only an answer lost after the last byte, which no status question could settle, is `uncertain`.
 */
export async function uploadVideo(
  ctx: UploadContext,
  m: PublishMedia,
  metadata: VideoMetadata,
): Promise<{ video: unknown } | { outcome: PublishOutcome }> {
  if (!m.stream || m.size === undefined) throw new Error(`video ${m.id} has no stream or size`);
  const size = m.size;
  const start = await send(ctx, {
    method: "POST",
    url: `${youtubeOrigin(ctx.app)}/upload/youtube/v3/videos?uploadType=resumable&part=snippet,status`,
    headers: { "x-upload-content-length": String(size), "x-upload-content-type": m.mime },
    json: metadata,
  });
  if ("lost" in start) {
    if (start.lost.refused)
      return { outcome: { kind: "rejected", code: "network", message: start.lost.message } };
    // A session with no bytes is no video.
    return {
      outcome: { kind: "transient", message: `YouTube: ${start.lost.message}; nothing was uploaded.` },
    };
  }
  if (start.res.status !== 200) return { outcome: refusal(ctx.app, start.res, "the upload's start") };
  const session = start.res.headers.get("location");
  if (!session)
    return { outcome: { kind: "transient", message: "YouTube started the upload but named no session." } };

  let from = 0;
  let resumes = 0;
  /** Whether YouTube may hold every byte now (then a lost answer may have been the video). */
  let maybeWhole = false;
  let why = "";
  /** Asks the session how far it got: the byte to go on from, the finished video, or a refusal; null: no answer. */
  const whereItStopped = async (): Promise<
    { from: number } | { video: unknown } | { outcome: PublishOutcome } | null
  > => {
    while (resumes < MAX_RESUMES && !ctx.signal.aborted) {
      await Bun.sleep(ctx.pauseMs?.(resumes) ?? Math.min(30_000, 1000 * 2 ** resumes));
      resumes++;
      const q = await send(ctx, {
        method: "PUT",
        url: session,
        headers: { "content-range": `bytes */${size}`, "content-length": "0" },
      });
      if ("lost" in q) {
        why = q.lost.message;
        continue;
      }
      if (isVideo(q.res)) return { video: q.res.json };
      if (q.res.status === 308) return { from: nextByte(q.res) };
      if (q.res.status < 500) return { outcome: sessionRefusal(ctx, q.res) };
      why = `YouTube answered ${q.res.status}`;
    }
    return null;
  };
  for (;;) {
    if (ctx.signal.aborted)
      return { outcome: { kind: "transient", message: "Stopped during the upload; nothing was published." } };
    const put = await send(ctx, {
      method: "PUT",
      url: session,
      headers: from > 0 ? { "content-range": `bytes ${from}-${size - 1}/${size}` } : {},
      stream: { data: coalesce(await m.stream(from), PIECE_BYTES), length: size - from, type: m.mime },
      // The whole rest of the file in one request: bounded by the publish's own deadline, not 30 s.
      timeoutMs: PROCESSING_LIMIT_MS,
    });
    if ("res" in put && isVideo(put.res)) return { video: put.res.json };
    if ("res" in put && put.res.status !== 308 && put.res.status < 500)
      return { outcome: sessionRefusal(ctx, put.res) };
    maybeWhole = "lost" in put && put.lost.sent === "maybe_sent";
    why = "lost" in put ? put.lost.message : `YouTube answered ${put.res.status}`;
    const at = await whereItStopped();
    if (at === null) break;
    if ("from" in at) {
      from = at.from;
      maybeWhole = false;
      continue;
    }
    return at;
  }
  return {
    outcome: maybeWhole
      ? { kind: "uncertain", message: `YouTube: ${why} after the last byte was sent; the video may be up.` }
      : {
          kind: "transient",
          message: `YouTube: ${why}; the upload stopped unfinished and nothing was published.`,
        },
  };
}

/** A 4xx to the session: an expired session starts over next attempt; the rest as any refusal. */
function sessionRefusal(ctx: UploadContext, res: NetworkResponse): PublishOutcome {
  if (res.status === 404 || res.status === 410)
    return {
      kind: "transient",
      message: `YouTube no longer knows the upload session (${res.status}: ${errorText(res)}); it starts over.`,
    };
  if (res.status === 400 && reasonOf(res) !== null)
    return {
      kind: "rejected",
      code: "video_rejected",
      message: `YouTube refused the video: ${errorText(res)}`,
    };
  return refusal(ctx.app, res, "the upload");
}

/** The fields of a Video resource the adapter reads. */
export function videoFacts(video: unknown) {
  const status = field(video, "status");
  const processing = field(video, "processingDetails");
  return {
    id: str(field(video, "id")),
    uploadStatus: str(field(status, "uploadStatus")),
    failureReason: str(field(status, "failureReason")) ?? str(field(status, "rejectionReason")),
    processingStatus: str(field(processing, "processingStatus")),
    processingFailure: str(field(processing, "processingFailureReason")),
  };
}
