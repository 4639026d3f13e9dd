// Media on a Mastodon (or Gab) status: each file is uploaded with POST /api/v2/media (multipart: `file`, and
// `description` for the alt text), and its ID goes in the status's `media_ids`. An image is read whole; a video is
// streamed from storage into the request as it is sent, never held in memory. Mastodon answers 200 when it
// processed the file at once and 202 when it is still processing (large images, video): then GET /api/v1/media/:id
// answers 206 until it is done. An upload that no status uses is harmless (the server deletes it later), so
// uploading again on a retry cannot post anything twice.
import type { App } from "../../app/context.ts";
import { StreamedForm } from "../../lib/streamed-form.ts";
import type { PublishMedia, PublishOutcome } from "../adapter.ts";
import { field, type NetworkResponse, NoAnswer, networkRequest, str } from "../plumbing/http.ts";
import { streamedVideo } from "../plumbing/streamed-video.ts";

/** How long to wait for a 202 upload to be processed before trying the whole publish again later. */
const PROCESSING_POLLS = 60;
const POLL_MS = 1000;
/** A video upload's whole exchange: tens of megabytes at a modest uplink. */
const VIDEO_UPLOAD_MS = 600_000;

export interface MediaContext {
  app: App;
  name: string;
  origin: string;
  headers: Record<string, string>;
  signal: AbortSignal;
  /** Classifies a refusal; `what` names the request in the message. */
  refused(res: NetworkResponse, what: string): PublishOutcome;
}

/** Uploads every medium in order: their IDs, or the outcome that stops the publish (nothing was posted). */
export async function uploadMedia(
  c: MediaContext,
  media: PublishMedia[],
): Promise<{ ids: string[] } | { outcome: PublishOutcome }> {
  const ids: string[] = [];
  for (const [i, m] of media.entries()) {
    const what = `media ${i + 1} of ${media.length}`;
    const ext = m.mime.split("/")[1]?.replace(/[^a-z0-9]/g, "") || "bin";
    const filename = `${m.id}.${ext}`;
    // A video is streamed from storage into the request; an image is small and read whole.
    const video = streamedVideo(m, filename);
    if (!video && !m.read)
      return {
        outcome: {
          kind: "rejected",
          code: "media_rejected",
          message: `${what}'s bytes are not available; nothing was posted.`,
        },
      };
    let form: FormData | StreamedForm;
    if (video) {
      form = new StreamedForm();
      form.append("file", video);
    } else {
      form = new FormData();
      form.append(
        "file",
        new Blob([(await m.read!()) as Uint8Array<ArrayBuffer>], { type: m.mime }),
        filename,
      );
    }
    if (m.alt) form.append("description", m.alt);
    let res: NetworkResponse;
    try {
      res = await networkRequest(c.app, {
        method: "POST",
        url: `${c.origin}/api/v2/media`,
        headers: c.headers,
        multipart: form,
        timeoutMs: video ? VIDEO_UPLOAD_MS : 120_000,
        signal: c.signal,
      });
    } catch (err) {
      if (!(err instanceof NoAnswer)) throw err;
      // An upload is not a post: whatever the server did with it, nothing was published.
      if (err.refused)
        return { outcome: { kind: "rejected", code: "network", message: `${c.name}: ${err.message}` } };
      return {
        outcome: { kind: "transient", message: `${c.name}: ${err.message} while uploading ${what}.` },
      };
    }
    if (res.status !== 200 && res.status !== 202) return { outcome: uploadRefused(c, res, what) };
    const id = str(field(res.json, "id"));
    if (!id) return { outcome: { kind: "transient", message: `${c.name} accepted ${what} but sent no ID.` } };
    if (res.status === 202) {
      const waited = await processed(c, id, what);
      if (waited) return { outcome: waited };
    }
    ids.push(id);
  }
  return { ids };
}

/** A refused upload: the file itself (422, 413, 415) is media_rejected; the rest as any refusal. */
function uploadRefused(c: MediaContext, res: NetworkResponse, what: string): PublishOutcome {
  const o = c.refused(res, what);
  return o.kind === "rejected" ? { ...o, code: "media_rejected" } : o;
}

/** Polls a 202 upload until it is processed; an outcome when it is not (nothing was posted). */
async function processed(c: MediaContext, id: string, what: string): Promise<PublishOutcome | null> {
  for (let i = 0; i < PROCESSING_POLLS; i++) {
    if (c.signal.aborted) break;
    let res: NetworkResponse;
    try {
      res = await networkRequest(c.app, {
        method: "GET",
        url: `${c.origin}/api/v1/media/${encodeURIComponent(id)}`,
        headers: c.headers,
        timeoutMs: 15_000,
        signal: c.signal,
      });
    } catch (err) {
      if (!(err instanceof NoAnswer)) throw err;
      return { kind: "transient", message: `${c.name}: ${err.message} while waiting for ${what}.` };
    }
    if (res.status === 200) return null;
    if (res.status !== 206) return uploadRefused(c, res, what);
    await Bun.sleep(POLL_MS);
  }
  return { kind: "transient", message: `${c.name} was still processing ${what}; nothing was posted.` };
}
