// TikTok through the Content Posting API's Direct Post with the account's token (a channel connected by signing in
// with PKCE; src/platforms/signin). A post is one video: the text is its title (up to 2,200 characters). The post
// is started with FILE_UPLOAD and the video's size and chunking (POST /v2/post/publish/video/init/,
// developers.tiktok.com/doc/content-posting-api-reference-direct-post), the chunks are PUT to the upload URL in
// order as they are read from the bucket (chunks.ts; answered 206, the last 201), then TikTok processes and
// publishes it: its status is asked (POST /v2/post/publish/status/fetch/,
// developers.tiktok.com/doc/content-posting-api-reference-get-video-status) until PUBLISH_COMPLETE or FAILED.
// Privacy is always SELF_ONLY: TikTok lets an app that has not passed its audit post nothing else, and only to
// private accounts; the channel and every preview say so. The publish is saved as the target's part once the last
// chunk is taken, so a later attempt (a worker killed during processing) asks its status instead of posting again.
import type { App } from "../../app/context.ts";
import type {
  Adapter,
  ConnectOutcome,
  FindOutcome,
  PublishedPart,
  PublishInput,
  PublishMedia,
  PublishOutcome,
  RemoteInput,
} from "../adapter.ts";
import { coalesce } from "../plumbing/coalesce.ts";
import { field, type NetworkResponse, NoAnswer, networkRequest, str } from "../plumbing/http.ts";
import { type ProcessingState, waitForProcessing } from "../plumbing/processing.ts";
import { bearer, codeOf, refusal, tiktokOrigin } from "./api.ts";
import { planChunks, slicer } from "./chunks.ts";
import { tiktokAccounts } from "./signin.ts";

const TITLE_MAX = 2200;
/** Bytes joined per write to the socket (plumbing/coalesce.ts). */
const PIECE_BYTES = 1024 * 1024;
/** Tries of one chunk before the attempt gives up (TikTok keeps the upload URL for an hour). */
const CHUNK_TRIES = 3;
/** TikTok's limit on status questions is 30 a minute per token: one every 3 s at most. */
const STATUS_EVERY_MS = 3000;

type Sent = { res: NetworkResponse } | { lost: NoAnswer };

async function send(app: App, req: Parameters<typeof networkRequest>[1]): Promise<Sent> {
  try {
    return { res: await networkRequest(app, req) };
  } catch (err) {
    if (!(err instanceof NoAnswer)) throw err;
    return { lost: err };
  }
}

async function publish(app: App, input: PublishInput): Promise<PublishOutcome> {
  const part = input.parts[0];
  const video = part?.media.find((m) => m.kind === "video" || m.mime.startsWith("video/"));
  if (!part || !video)
    return {
      kind: "rejected",
      code: "media_required",
      message: "A TikTok post is one video; this one has none.",
    };
  let publishId = input.done.find((d) => d.index === 0)?.remote_id ?? null;
  if (!publishId) {
    const up = await upload(app, input, part.text, video);
    if ("outcome" in up) return up.outcome;
    publishId = up.publishId;
    // TikTok has the whole video: from here on it publishes it; a later attempt only asks how it went.
    await input.onPartPublished({ index: 0, remote_id: publishId, remote_url: null });
  }
  return processed(app, input, publishId);
}

async function upload(
  app: App,
  input: PublishInput,
  text: string,
  m: PublishMedia,
): Promise<{ publishId: string } | { outcome: PublishOutcome }> {
  if (!m.stream || m.size === undefined) throw new Error(`video ${m.id} has no stream or size`);
  const size = m.size;
  const plan = planChunks(size);
  const init = await send(app, {
    method: "POST",
    url: `${tiktokOrigin(app)}/v2/post/publish/video/init/`,
    headers: bearer(input.channel.secrets),
    signal: input.signal,
    json: {
      post_info: {
        title: [...text].slice(0, TITLE_MAX).join(""),
        privacy_level: "SELF_ONLY",
        disable_duet: false,
        disable_comment: false,
        disable_stitch: false,
      },
      source_info: {
        source: "FILE_UPLOAD",
        video_size: size,
        chunk_size: plan.chunkSize,
        total_chunk_count: plan.count,
      },
    },
  });
  // A post started but never given its video is never published: any failure here is safe to try again.
  if ("lost" in init)
    return {
      outcome: init.lost.refused
        ? { kind: "rejected", code: "network", message: `TikTok: ${init.lost.message}` }
        : { kind: "transient", message: `TikTok: ${init.lost.message}; nothing was published.` },
    };
  if (init.res.status !== 200 || codeOf(init.res) !== "ok")
    return { outcome: refusal(init.res, "the post's start") };
  const data = field(init.res.json, "data");
  const publishId = str(field(data, "publish_id"));
  const uploadUrl = str(field(data, "upload_url"));
  if (!publishId || !uploadUrl)
    return { outcome: { kind: "transient", message: "TikTok started the post but sent no upload URL." } };

  let source = slicer(coalesce(await m.stream(), PIECE_BYTES));
  try {
    for (const [i, [first, last]] of plan.ranges.entries()) {
      let done = false;
      for (let t = 1; !done; t++) {
        if (input.signal.aborted)
          return {
            outcome: { kind: "transient", message: "Stopped during the upload; nothing was published." },
          };
        const put = await send(app, {
          method: "PUT",
          url: uploadUrl,
          headers: { "content-range": `bytes ${first}-${last}/${size}` },
          stream: { data: source.next(last - first + 1), length: last - first + 1, type: m.mime },
          signal: input.signal,
          timeoutMs: 10 * 60_000,
        });
        const last_ = i === plan.count - 1;
        if ("res" in put && (put.res.status === (last_ ? 201 : 206) || (last_ && put.res.status === 200))) {
          done = true;
          continue;
        }
        if ("res" in put && put.res.status < 500 && put.res.status !== 408)
          return { outcome: refusal(put.res, `chunk ${i + 1} of ${plan.count}`) };
        const why = "lost" in put ? put.lost.message : `HTTP ${put.res.status}`;
        if (t >= CHUNK_TRIES)
          return {
            outcome: {
              kind: "transient",
              message: `TikTok: ${why} on chunk ${i + 1} of ${plan.count}; the upload stopped unfinished and nothing was published.`,
            },
          };
        // The chunk is sent again from its first byte, read again from the bucket.
        await source.cancel();
        source = slicer(coalesce(await m.stream(first), PIECE_BYTES));
        await Bun.sleep(1000 * t);
      }
    }
  } finally {
    await source.cancel();
  }
  return { publishId };
}

/** Asks TikTok how the post went until it is published or failed. */
async function processed(app: App, input: PublishInput, publishId: string): Promise<PublishOutcome> {
  const r = await waitForProcessing<string | null>({
    signal: input.signal,
    everyMs: STATUS_EVERY_MS,
    async look(): Promise<ProcessingState<string | null>> {
      const q = await send(app, {
        method: "POST",
        url: `${tiktokOrigin(app)}/v2/post/publish/status/fetch/`,
        headers: bearer(input.channel.secrets),
        signal: input.signal,
        json: { publish_id: publishId },
      });
      // TikTok has the video; a status question that went unanswered is asked again.
      if ("lost" in q) return { state: "pending" };
      if (q.res.status !== 200 || codeOf(q.res) !== "ok")
        return { state: "stop", outcome: refusal(q.res, "the post's status") };
      const data = field(q.res.json, "data");
      const status = str(field(data, "status"));
      if (status === "PUBLISH_COMPLETE") {
        const ids = field(data, "publicaly_available_post_id");
        return { state: "done", value: Array.isArray(ids) && ids.length ? str(ids[0]) : null };
      }
      if (status === "FAILED")
        return { state: "failed", reason: str(field(data, "fail_reason")) ?? "no reason given" };
      return { state: "pending" };
    },
  });
  if (r.state === "done") {
    const username = str(input.channel.settings.username);
    // A private post has no public ID; a public one is linked once TikTok's moderation has passed it.
    return {
      kind: "published",
      permalink: r.value && username ? `https://www.tiktok.com/@${username}/video/${r.value}` : null,
    };
  }
  if (r.state === "stop") return r.outcome as PublishOutcome;
  if (r.state === "failed")
    return {
      kind: "rejected",
      code: /check_failed|file_format|duration|frame_rate|picture_size/.test(r.reason)
        ? "video_rejected"
        : "processing",
      message: `TikTok did not publish the video: ${r.reason}.`,
    };
  return {
    kind: "transient",
    message: `TikTok was still processing post ${publishId}; the next attempt asks again (it is not posted twice).`,
  };
}

async function connect(
  app: App,
  input: { secrets: Record<string, string>; signal: AbortSignal },
): Promise<ConnectOutcome> {
  const r = await tiktokAccounts(app, input.secrets.access_token ?? "", input.signal);
  if (r.kind !== "accounts") return r;
  const a = r.accounts[0]!;
  return {
    kind: "connected",
    account: { display_name: a.display_name, handle: a.handle, profile_url: a.profile_url },
  };
}

/**
 * After a lost attempt: TikTok publishes what it was given whole, so a saved publish is the post (its status is
 * asked on). Without it the upload may have finished unseen: a person decides rather than posting twice.
 */
async function find(_app: App, input: RemoteInput & { done: PublishedPart[] }): Promise<FindOutcome> {
  const saved = input.done.find((d) => d.index === 0);
  if (saved) return { kind: "found", permalink: saved.remote_url, parts: [saved] };
  return {
    kind: "unknown",
    message: "The upload was interrupted before TikTok had the whole video; a person decides.",
  };
}

export const tiktokAdapter: Adapter = {
  provider: "tiktok",
  idempotent: false,
  publish,
  connect,
  find,
  consistencyWindowMs: 0,
};
