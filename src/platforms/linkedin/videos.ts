// A video for a LinkedIn post, uploaded before the post through the Videos API
// (learn.microsoft.com/linkedin/marketing/community-management/shares/videos-api):
//  1. POST /rest/videos?action=initializeUpload ("Initialize Video Upload") with the owner (the post's author) and
//     the file's size answers the video's URN, an upload token and the upload instructions: one upload URL per
//     part, each with the first and last byte it takes (4 MiB parts);
//  2. each part's bytes are PUT to its URL ("Upload the Video"); LinkedIn answers each with an ETag;
//  3. POST /rest/videos?action=finalizeUpload ("Finalize Video Upload") names the video, the upload token and the
//     ETags in order;
//  4. LinkedIn then processes the video: GET /rest/videos/{urn} ("Get a Video") is asked until its status is
//     AVAILABLE (PROCESSING_FAILED refuses the medium) before the post names it (posts-api "Create a video post").
// The bytes are read from the medium's stream (from the bucket) part by part: at most one part is held at a time.
// A failed upload posts nothing (an unused video is never shown), so any failure here is safe to try again.
import type { App } from "../../app/context.ts";
import type { PublishMedia, PublishOutcome } from "../adapter.ts";
import { field, type NetworkResponse, NoAnswer, networkRequest, str } from "../plumbing/http.ts";
import { linkedinApi, restHeaders } from "./api.ts";

/** How long LinkedIn's processing is waited for before the attempt is given up (and tried again later). */
const PROCESSING_WAIT_MS = 120_000;
const FIRST_POLL_MS = 1000;
const MAX_POLL_MS = 10_000;

interface Instruction {
  uploadUrl: string;
  firstByte: number;
  lastByte: number;
}

type Step = NetworkResponse | { outcome: PublishOutcome };

/** Uploads one video and waits until LinkedIn has processed it; its URN, or the outcome that stopped it. */
export async function uploadVideo(
  app: App,
  ctx: { token: string; version: string | null; owner: string; signal: AbortSignal },
  m: PublishMedia,
  refusal: (res: NetworkResponse) => PublishOutcome,
): Promise<{ urn: string } | { outcome: PublishOutcome }> {
  const size = m.size;
  if (size === undefined || (!m.stream && !m.read)) throw new Error(`video ${m.id} has no bytes to read`);
  const headers = restHeaders(ctx.token, ctx.version);
  const call = async (what: string, req: Parameters<typeof networkRequest>[1]): Promise<Step> => {
    try {
      return await networkRequest(app, { ...req, signal: ctx.signal });
    } catch (err) {
      if (!(err instanceof NoAnswer)) throw err;
      if (err.refused)
        return { outcome: { kind: "rejected", code: "network", message: `LinkedIn: ${err.message}` } };
      return {
        outcome: {
          kind: "transient",
          message: `LinkedIn: ${err.message} during ${what}; nothing was posted.`,
        },
      };
    }
  };
  const failed = (res: NetworkResponse, what: string) => ({ outcome: notPosted(refusal(res), what) });

  const init = await call("the video's initializeUpload", {
    method: "POST",
    url: `${linkedinApi(app)}/rest/videos?action=initializeUpload`,
    headers,
    json: {
      initializeUploadRequest: {
        owner: ctx.owner,
        fileSizeBytes: size,
        uploadCaptions: false,
        uploadThumbnail: false,
      },
    },
  });
  if ("outcome" in init) return init;
  if (init.status !== 200) return failed(init, "initializing the video upload");
  const value = field(init.json, "value");
  const urn = str(field(value, "video"));
  const uploadToken = str(field(value, "uploadToken")) ?? "";
  const raw = field(value, "uploadInstructions");
  const instructions: Instruction[] = (Array.isArray(raw) ? raw : []).map((i) => ({
    uploadUrl: str(field(i, "uploadUrl")) ?? "",
    firstByte: Number(field(i, "firstByte")),
    lastByte: Number(field(i, "lastByte")),
  }));
  if (!urn || instructions.length === 0 || instructions.some((i) => !i.uploadUrl))
    return { outcome: { kind: "transient", message: "LinkedIn gave no upload instructions for the video." } };

  const source = await parts(m);
  const etags: string[] = [];
  try {
    for (const [n, part] of [...instructions].sort((a, b) => a.firstByte - b.firstByte).entries()) {
      if (ctx.signal.aborted)
        return {
          outcome: { kind: "transient", message: "Stopped during a video upload; nothing was posted." },
        };
      const bytes = await source.take(part.lastByte - part.firstByte + 1);
      const put = await call(`part ${n + 1} of the video`, {
        method: "PUT",
        url: part.uploadUrl,
        headers: { authorization: headers.authorization! },
        bytes: { data: bytes, type: "application/octet-stream" },
        timeoutMs: 120_000,
      });
      if ("outcome" in put) return put;
      if (put.status !== 200 && put.status !== 201)
        return failed(put, `uploading part ${n + 1} of the video`);
      const etag = put.headers.get("etag");
      if (!etag)
        return {
          outcome: { kind: "transient", message: `LinkedIn sent no ETag for part ${n + 1} of the video.` },
        };
      etags.push(etag);
    }
  } finally {
    await source.close();
  }

  const fin = await call("the video's finalizeUpload", {
    method: "POST",
    url: `${linkedinApi(app)}/rest/videos?action=finalizeUpload`,
    headers,
    json: { finalizeUploadRequest: { video: urn, uploadToken, uploadedPartIds: etags } },
  });
  if ("outcome" in fin) return fin;
  if (fin.status !== 200) return failed(fin, "finalizing the video upload");

  // Processing: asked at growing intervals until AVAILABLE, within the wait.
  const until = Date.now() + PROCESSING_WAIT_MS;
  for (let wait = FIRST_POLL_MS; ; wait = Math.min(wait * 2, MAX_POLL_MS)) {
    const got = await call("reading the video's status", {
      method: "GET",
      url: `${linkedinApi(app)}/rest/videos/${encodeURIComponent(urn)}`,
      headers,
      timeoutMs: 15_000,
    });
    if ("outcome" in got) return got;
    if (got.status !== 200) return failed(got, "reading the video's status");
    const status = str(field(got.json, "status"));
    if (status === "AVAILABLE") return { urn };
    if (status === "PROCESSING_FAILED")
      return {
        outcome: {
          kind: "rejected",
          code: "media_rejected",
          message: `LinkedIn could not process the video (${str(field(got.json, "processingFailureReason")) ?? "no reason given"}); nothing was posted.`,
        },
      };
    if (Date.now() + wait > until || ctx.signal.aborted)
      return {
        outcome: {
          kind: "transient",
          message: "LinkedIn was still processing the video; nothing was posted.",
        },
      };
    await Bun.sleep(wait);
  }
}

/** A refusal met while uploading: the post was not sent, so a server error is worth another attempt. */
function notPosted(o: PublishOutcome, what: string): PublishOutcome {
  if (o.kind === "uncertain") return { kind: "transient", message: `${o.message} (${what})` };
  if (o.kind === "rejected" && o.code === "rejected")
    return { ...o, code: "media_rejected", message: `${o.message} (${what})` };
  return o;
}

/** The video's bytes in pieces of the sizes asked for, read from its stream as they are needed. */
async function parts(
  m: PublishMedia,
): Promise<{ take(n: number): Promise<Uint8Array>; close(): Promise<void> }> {
  if (!m.stream) {
    const all = await m.read!();
    let at = 0;
    return {
      take: async (n) => {
        const out = all.subarray(at, at + n);
        at += n;
        if (out.byteLength !== n) throw new Error(`video ${m.id} is shorter than its size`);
        return out;
      },
      close: async () => {},
    };
  }
  const reader = (await m.stream()).getReader();
  let rest: Uint8Array = new Uint8Array(0);
  return {
    async take(n) {
      const out = new Uint8Array(n);
      let filled = 0;
      while (filled < n) {
        if (rest.byteLength === 0) {
          const r = await reader.read();
          if (r.done) throw new Error(`video ${m.id} is shorter than its size`);
          rest = r.value;
        }
        const piece = rest.subarray(0, n - filled);
        out.set(piece, filled);
        filled += piece.byteLength;
        rest = rest.subarray(piece.byteLength);
      }
      return out;
    },
    close: () => reader.cancel().catch(() => {}),
  };
}
