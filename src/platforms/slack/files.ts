// Images and a video into a Slack channel by Slack's external upload (the way Slack documents since files.upload
// was retired): for each file, files.getUploadURLExternal (its name, length and alt text) gives an upload URL and a
// file ID; the bytes go to that URL (multipart, a video streamed from storage as it is sent); then one
// files.completeUploadExternal shares every file into the channel with the post's text as the message
// (initial_comment). A file uploaded but not completed is private to the bot and shows nowhere, so every failure
// before the last call is a plain retry; only the last call can leave the post uncertain.
// https://docs.slack.dev/reference/methods/files.getUploadURLExternal/
// https://docs.slack.dev/reference/methods/files.completeUploadExternal/
import type { App } from "../../app/context.ts";
import { StreamedForm } from "../../lib/streamed-form.ts";
import type { PublishedPart, PublishMedia, PublishOutcome, PublishPart } from "../adapter.ts";
import {
  field,
  type NetworkResponse,
  NoAnswer,
  networkRequest,
  noAnswerOutcome,
  str,
} from "../plumbing/http.ts";
import { streamedVideo } from "../plumbing/streamed-video.ts";
import { api, apiOrigin, apiRefusal, retryAfter, slackError } from "./web-api.ts";

/** Sending a video's bytes takes longer than a message; an image gets two minutes. */
const VIDEO_UPLOAD_MS = 600_000;
const IMAGE_UPLOAD_MS = 120_000;
/** Slack's limit on alt_txt (files.getUploadURLExternal). */
const MAX_ALT = 1000;

type Shared = { published: PublishedPart } | { outcome: PublishOutcome };

const EXTENSIONS: Record<string, string> = {
  "image/jpeg": "jpg",
  "image/png": "png",
  "image/gif": "gif",
  "image/webp": "webp",
  "video/mp4": "mp4",
  "video/quicktime": "mov",
};

/**
 * Whether an upload URL Slack gave is Slack's: https on a slack.com host, or the origin svc is configured to reach
 * Slack's API at (SVC_PROVIDER_ORIGINS `slack`). The post's bytes go nowhere else, whatever an answer says.
 */
function slackUploadUrl(app: App, url: string | null): string | null {
  if (!url || !URL.canParse(url)) return null;
  const u = new URL(url);
  if (u.origin === new URL(apiOrigin(app)).origin) return u.href;
  return u.protocol === "https:" && (u.hostname === "slack.com" || u.hostname.endsWith(".slack.com"))
    ? u.href
    : null;
}

/** A refusal of a file (its type, its size, uploads turned off in the workspace) is media_rejected. */
function fileRefusal(res: NetworkResponse, index: number, what: string): PublishOutcome {
  const o = apiRefusal(res, index);
  if (o.kind !== "rejected") return o;
  return { ...o, code: "media_rejected", message: `Slack refused ${what}: ${slackError(res)}` };
}

/** Uploads the part's files and shares them into the channel with `text`: the part as published, or an outcome. */
export async function shareFiles(
  app: App,
  bot: { token: string; channel: string },
  part: PublishPart,
  text: string,
  signal: AbortSignal,
): Promise<Shared> {
  const unsent = (why: string): Shared => ({
    outcome: { kind: "transient", message: `Slack: ${why}; nothing was posted.` },
  });
  const files: { id: string; title: string }[] = [];
  for (const [i, m] of part.media.entries()) {
    const what = `file ${i + 1} of part ${part.index + 1}`;
    const got = await uploadOne(
      app,
      bot,
      m,
      `${i + 1}.${EXTENSIONS[m.mime] ?? "bin"}`,
      part.index,
      what,
      signal,
    );
    if ("outcome" in got) return got;
    if ("unsent" in got) return unsent(got.unsent);
    files.push(got.file);
  }
  let res: NetworkResponse;
  try {
    res = await api(
      app,
      bot.token,
      "files.completeUploadExternal",
      {
        files: JSON.stringify(files),
        channel_id: bot.channel,
        ...(text.trim() !== "" ? { initial_comment: text } : {}),
      },
      true,
      signal,
    );
  } catch (err) {
    if (!(err instanceof NoAnswer)) throw err;
    // Slack may have shared the files: without an answer svc cannot tell (Slack keeps no idempotency key).
    return { outcome: noAnswerOutcome("Slack", err, part.index) };
  }
  if (res.status !== 200 || field(res.json, "ok") !== true) {
    const error = slackError(res);
    return {
      outcome: error.startsWith("file")
        ? fileRefusal(res, part.index, `the files of part ${part.index + 1}`)
        : apiRefusal(res, part.index),
    };
  }
  const shared = field(res.json, "files");
  const first = Array.isArray(shared) ? shared[0] : undefined;
  return {
    published: {
      index: part.index,
      remote_id: `${bot.channel}/files/${files.map((f) => f.id).join(",")}`,
      remote_url: str(field(first, "permalink")),
    },
  };
}

type Uploaded = { file: { id: string; title: string } } | { unsent: string } | { outcome: PublishOutcome };

async function uploadOne(
  app: App,
  bot: { token: string; channel: string },
  m: PublishMedia,
  filename: string,
  index: number,
  what: string,
  signal: AbortSignal,
): Promise<Uploaded> {
  const video = streamedVideo(m, filename);
  if (!video && !m.read)
    return {
      outcome: { kind: "rejected", code: "media_unreadable", message: `Slack: ${what} has no bytes.` },
    };
  const bytes = video ? null : await m.read!();
  const length = video ? video.size : bytes!.byteLength;
  let res: NetworkResponse;
  try {
    res = await api(
      app,
      bot.token,
      "files.getUploadURLExternal",
      {
        filename,
        length: String(length),
        ...(m.alt ? { alt_txt: m.alt.slice(0, MAX_ALT) } : {}),
      },
      true,
      signal,
    );
  } catch (err) {
    if (!(err instanceof NoAnswer)) throw err;
    if (err.refused)
      return { outcome: { kind: "rejected", code: "network", message: `Slack: ${err.message}` } };
    return { unsent: `${err.message} while asking where to upload ${what}` };
  }
  if (res.status !== 200 || field(res.json, "ok") !== true) return { outcome: fileRefusal(res, index, what) };
  const url = slackUploadUrl(app, str(field(res.json, "upload_url")));
  const id = str(field(res.json, "file_id"));
  if (!url || !id) return { unsent: `Slack gave no upload URL of its own for ${what}` };

  let form: FormData | StreamedForm;
  if (video) {
    form = new StreamedForm();
    form.append("filename", video);
  } else {
    form = new FormData();
    form.append("filename", new Blob([bytes as Uint8Array<ArrayBuffer>], { type: m.mime }), filename);
  }
  let up: NetworkResponse;
  try {
    up = await networkRequest(app, {
      method: "POST",
      url,
      multipart: form,
      timeoutMs: video ? VIDEO_UPLOAD_MS : IMAGE_UPLOAD_MS,
      signal,
    });
  } catch (err) {
    if (!(err instanceof NoAnswer)) throw err;
    // An uploaded file that is never completed shows nowhere: sending it again is safe.
    return { unsent: `${err.message} while uploading ${what}` };
  }
  if (up.status === 429)
    return {
      outcome: {
        kind: "rate_limited",
        retryAfterMs: retryAfter(up),
        message: `Slack: 429 uploading ${what}`,
      },
    };
  if (up.status >= 500) return { unsent: `Slack answered ${up.status} to the upload of ${what}` };
  if (up.status !== 200)
    return {
      outcome: {
        kind: "rejected",
        code: "media_rejected",
        message: `Slack refused the upload of ${what} (HTTP ${up.status}): ${up.text.slice(0, 200)}`,
      },
    };
  return { file: { id, title: filename } };
}
