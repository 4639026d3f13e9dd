// YouTube through its Data API v3 with the channel's Google token (a channel connected by signing in through the
// org's Google app; src/platforms/signin). A post is one video: its first line the title, the rest the
// description (title.ts), uploaded with the resumable protocol from the bucket (upload.ts), as private, unlisted
// or public as the channel's `privacy` says. The upload's video is saved as the target's part the moment YouTube
// acknowledges the last byte, so nothing after it (the processing wait, a worker killed meanwhile) uploads it
// again; then YouTube's processing is waited for (videos.list status and processingDetails) until the video is
// processed, or failed, or the wait passes (plumbing/processing.ts). A first comment is then the channel's own
// top-level comment on the video, the part after it. Counts come from videos.list statistics.
// The daily quota (1,600 of the app's 10,000 units an upload) is reserved by the worker before the adapter runs
// (domain/targets/quota.ts); a quotaExceeded answer says the app's quota is spent.
import type { App } from "../../app/context.ts";
import type {
  Adapter,
  ConnectOutcome,
  DeleteOutcome,
  EngagementOutcome,
  FindOutcome,
  PublishedPart,
  PublishInput,
  PublishOutcome,
  RemoteInput,
} from "../adapter.ts";
import {
  field,
  type NetworkResponse,
  NoAnswer,
  networkRequest,
  noAnswerOutcome,
  str,
} from "../plumbing/http.ts";
import { type ProcessingState, waitForProcessing } from "../plumbing/processing.ts";
import { bearer, errorText, reasonOf, refusal, youtubeOrigin } from "./api.ts";
import { youtubeAccounts } from "./signin.ts";
import { titleAndDescription } from "./title.ts";
import { uploadVideo, videoFacts } from "./upload.ts";

const PRIVACY = ["public", "unlisted", "private"] as const;
const watchUrl = (id: string) => `https://www.youtube.com/watch?v=${id}`;

/** The channel's privacy for new videos (public unless chosen otherwise). */
export function privacyOf(settings: Record<string, unknown>): string {
  const p = str(settings.privacy);
  return p && (PRIVACY as readonly string[]).includes(p) ? p : "public";
}

async function get(app: App, secrets: Record<string, string>, path: string, signal?: AbortSignal) {
  return networkRequest(app, {
    method: "GET",
    url: `${youtubeOrigin(app)}/youtube/v3/${path}`,
    headers: bearer(secrets),
    timeoutMs: 30_000,
    ...(signal ? { signal } : {}),
  });
}

async function publish(app: App, input: PublishInput): Promise<PublishOutcome> {
  const part = input.parts[0];
  const video = part?.media.find((m) => m.kind === "video" || m.mime.startsWith("video/"));
  if (!part || !video)
    return {
      kind: "rejected",
      code: "media_required",
      message: "A YouTube post is one video; this one has none.",
    };
  let id = input.done.find((d) => d.index === 0)?.remote_id ?? null;
  if (!id) {
    const { title, description } = titleAndDescription(part.text);
    const up = await uploadVideo({ app, secrets: input.channel.secrets, signal: input.signal }, video, {
      snippet: { title, description, categoryId: "22" },
      status: { privacyStatus: privacyOf(input.channel.settings), selfDeclaredMadeForKids: false },
    });
    if ("outcome" in up) return up.outcome;
    id = str(field(up.video, "id"));
    if (!id) return { kind: "uncertain", message: "YouTube took the upload but named no video." };
    // From here on the video exists: a later attempt only waits for it, never uploads it again.
    await input.onPartPublished({ index: 0, remote_id: id, remote_url: watchUrl(id) });
  }
  const out = await processed(app, input, id);
  if (out.kind !== "published") return out;
  const comment = input.parts.find((p) => p.index === 1);
  if (comment && !input.done.some((d) => d.index === 1)) {
    const made = await firstComment(app, input, id, comment.text);
    if ("outcome" in made) return made.outcome;
    await input.onPartPublished(made.part);
  }
  return out;
}

/**
 * The first comment: the channel's own top-level comment on its video once YouTube has processed it
 * (commentThreads.insert, part=snippet, snippet.videoId and snippet.topLevelComment.snippet.textOriginal; 50 units
 * of the quota; it needs the youtube.force-ssl scope, which a channel connected before svc asked for it lacks until
 * it is reconnected). YouTube makes no idempotency promise: a comment whose answer was lost goes to a person.
 */
async function firstComment(
  app: App,
  input: PublishInput,
  videoId: string,
  text: string,
): Promise<{ part: PublishedPart } | { outcome: PublishOutcome }> {
  let res: NetworkResponse;
  try {
    res = await networkRequest(app, {
      method: "POST",
      url: `${youtubeOrigin(app)}/youtube/v3/commentThreads?part=snippet`,
      headers: bearer(input.channel.secrets),
      json: { snippet: { videoId, topLevelComment: { snippet: { textOriginal: text } } } },
      signal: input.signal,
      timeoutMs: 30_000,
    });
  } catch (e) {
    if (!(e instanceof NoAnswer)) throw e;
    return { outcome: noAnswerOutcome("YouTube", e, 1) };
  }
  if (res.status !== 200) {
    const reason = reasonOf(res);
    if (reason === "insufficientPermissions")
      return {
        outcome: {
          kind: "rejected",
          code: "unauthorized",
          message: `YouTube refused the first comment (the video ${videoId} is up): the channel was connected without the youtube.force-ssl permission comments need; reconnect it, then retry the target.`,
        },
      };
    if (res.status >= 500)
      return {
        outcome: {
          kind: "uncertain",
          message: `YouTube answered ${res.status} to the first comment: ${errorText(res)}; it may have been posted.`,
        },
      };
    return { outcome: refusal(app, res, `the first comment (the video ${videoId} is up)`) };
  }
  const thread = str(field(res.json, "id"));
  if (!thread)
    return {
      outcome: { kind: "uncertain", message: "YouTube accepted the first comment but named no thread." },
    };
  return {
    part: {
      index: 1,
      remote_id: thread,
      remote_url: `${watchUrl(videoId)}&lc=${encodeURIComponent(thread)}`,
    },
  };
}

/** Waits for YouTube to process the video: published when it has, rejected when it failed or was refused. */
async function processed(app: App, input: PublishInput, id: string): Promise<PublishOutcome> {
  let looks = 0;
  const r = await waitForProcessing<null>({
    signal: input.signal,
    async look(): Promise<ProcessingState<null>> {
      let res: NetworkResponse;
      try {
        res = await get(
          app,
          input.channel.secrets,
          `videos?part=status,processingDetails&id=${encodeURIComponent(id)}`,
          input.signal,
        );
      } catch (e) {
        if (!(e instanceof NoAnswer)) throw e;
        // The video is up; not hearing about its processing once is no reason to stop waiting.
        return { state: "pending", afterMs: backoff(looks++) };
      }
      if (res.status !== 200) return { state: "stop", outcome: refusal(app, res, "the processing status") };
      const items = field(res.json, "items");
      const v = Array.isArray(items) ? items[0] : undefined;
      if (!v) return { state: "failed", reason: "the video is gone from YouTube (deleted while processing)" };
      const f = videoFacts(v);
      if (f.uploadStatus === "processed" || f.processingStatus === "succeeded")
        return { state: "done", value: null };
      if (f.uploadStatus === "failed" || f.uploadStatus === "rejected" || f.uploadStatus === "deleted")
        return {
          state: "failed",
          reason: `${f.uploadStatus}${f.failureReason ? ` (${f.failureReason})` : ""}`,
        };
      if (f.processingStatus === "failed" || f.processingStatus === "terminated")
        return {
          state: "failed",
          reason: `processing ${f.processingStatus}${f.processingFailure ? ` (${f.processingFailure})` : ""}`,
        };
      return { state: "pending", afterMs: backoff(looks++) };
    },
  });
  if (r.state === "done") return { kind: "published", permalink: watchUrl(id) };
  if (r.state === "stop") return r.outcome as PublishOutcome;
  if (r.state === "failed")
    return {
      kind: "rejected",
      code: "video_rejected",
      message: `YouTube could not publish video ${id}: ${r.reason}.`,
    };
  return {
    kind: "transient",
    message: `YouTube was still processing video ${id}; the next attempt waits for it again (it is not uploaded twice).`,
  };
}

/** 1 s, 2 s, 4 s … up to 30 s between looks: short videos are ready in seconds, long ones take minutes. */
const backoff = (n: number) => Math.min(30_000, 1000 * 2 ** n);

async function connect(
  app: App,
  input: { secrets: Record<string, string>; settings: Record<string, string>; signal: AbortSignal },
): Promise<ConnectOutcome> {
  const r = await youtubeAccounts(app, input.secrets.access_token ?? "", input.signal);
  if (r.kind !== "accounts") return r;
  const want = input.settings.channel_id;
  const a = r.accounts.find((x) => x.key === want) ?? (want ? undefined : r.accounts[0]);
  if (!a) return { kind: "rejected", message: "The Google account no longer manages this YouTube channel." };
  return {
    kind: "connected",
    account: { display_name: a.display_name, handle: a.handle, profile_url: a.profile_url },
  };
}

async function engagement(
  app: App,
  input: RemoteInput & { parts: PublishedPart[] },
): Promise<EngagementOutcome> {
  const first = input.parts.find((p) => p.index === 0);
  if (!first) return { kind: "failed", message: "The target has no published video to read." };
  let res: NetworkResponse;
  try {
    res = await get(
      app,
      input.channel.secrets,
      `videos?part=statistics&id=${encodeURIComponent(first.remote_id)}`,
    );
  } catch (e) {
    return { kind: "failed", message: `YouTube: ${e instanceof Error ? e.message : String(e)}` };
  }
  if (res.status !== 200)
    return { kind: "failed", message: `YouTube answered ${res.status}: ${errorText(res)}` };
  const items = field(res.json, "items");
  const v = Array.isArray(items) ? items[0] : undefined;
  if (!v) return { kind: "deleted" };
  const s = field(v, "statistics");
  // Google sends the counts as strings (uint64); a count the owner hid is absent.
  const n = (name: string) => {
    const x = Number(str(field(s, name)) ?? "0");
    return Number.isFinite(x) ? x : 0;
  };
  return {
    kind: "counts",
    counts: {
      likes: n("likeCount"),
      reposts: 0,
      replies: n("commentCount"),
      quotes: 0,
      views: str(field(s, "viewCount")) === null ? null : n("viewCount"),
    },
  };
}

/**
 * After a lost attempt: the video counts as published once YouTube acknowledged its last byte (the part saved
 * then). Without that part the upload may or may not have finished, and svc cannot ask YouTube about a session
 * it lost: a person decides, rather than a second upload.
 */
async function find(_app: App, input: RemoteInput & { done: PublishedPart[] }): Promise<FindOutcome> {
  const saved = input.done.find((d) => d.index === 0);
  if (saved) return { kind: "found", permalink: saved.remote_url, parts: [saved] };
  return {
    kind: "unknown",
    message: "The upload was interrupted before YouTube named the video; a person decides.",
  };
}

/**
 * Deletes the video (videos.delete, 50 units; its first comment goes with it). A video already gone counts as
 * deleted. Channels connected before svc asked for `youtube.force-ssl` hold only `youtube.upload`, which cannot
 * delete: YouTube refuses with insufficientPermissions, shown with a word on reconnecting.
 */
async function deletePublished(
  app: App,
  input: RemoteInput & { parts: PublishedPart[] },
): Promise<DeleteOutcome> {
  const video = input.parts.find((p) => p.index === 0);
  if (!video) return { kind: "deleted" };
  let res: NetworkResponse;
  try {
    res = await networkRequest(app, {
      method: "DELETE",
      url: `${youtubeOrigin(app)}/youtube/v3/videos?id=${encodeURIComponent(video.remote_id)}`,
      headers: bearer(input.channel.secrets),
      signal: input.signal,
      timeoutMs: 30_000,
    });
  } catch (e) {
    return { kind: "failed", message: `YouTube: ${e instanceof Error ? e.message : String(e)}` };
  }
  if (res.status === 204 || res.status === 404) return { kind: "deleted" };
  const reconnect =
    reasonOf(res) === "insufficientPermissions"
      ? " Connect the channel again (same Google account) to allow deleting."
      : "";
  return { kind: "failed", message: `YouTube answered ${res.status}: ${errorText(res)}.${reconnect}` };
}

export const youtubeAdapter: Adapter = {
  provider: "youtube",
  idempotent: false,
  publish,
  connect,
  engagement,
  find,
  deletePublished,
  consistencyWindowMs: 0,
};
