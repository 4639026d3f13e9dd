// Pinterest v5 with the account's OAuth 2 token: each board is a channel, and a post is one pin on it
// (POST /pins, docs "Create Pin"): the image sent as base64, the first link of the text as the pin's destination,
// the first line as its title when it has at most 100 characters and more text follows (the rest is the
// description; otherwise the whole text is). Pinterest makes no idempotency promise and svc cannot look a pin up
// by its text, so an uncertain create goes to a person. Errors: 401 (token revoked), 429, 4xx, 5xx. Deleting
// (POST /v1/posts/{id}/delete_published) is DELETE /pins/{id} ("Delete Pin": 204; a pin already gone is 404,
// which is what was asked).
import type { App } from "../../app/context.ts";
import type {
  Adapter,
  ConnectOutcome,
  DeleteOutcome,
  EngagementOutcome,
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
import { findLinks } from "../text/links.ts";
import { pinterestApi } from "./signin.ts";

const RATE_LIMIT_MS = 60_000;
const TITLE_MAX = 100;

/** The pin's title, description and destination from the text as rendered. */
export function pinFields(text: string): { title: string | null; description: string; link: string | null } {
  const link = findLinks(text)[0]?.url ?? null;
  const nl = text.indexOf("\n");
  const first = nl === -1 ? text : text.slice(0, nl);
  const rest = nl === -1 ? "" : text.slice(nl + 1).trim();
  if (rest && first.trim() && [...first.trim()].length <= TITLE_MAX)
    return { title: first.trim(), description: rest, link };
  return { title: null, description: text, link };
}

function refusal(res: NetworkResponse): PublishOutcome {
  const message = `Pinterest answered ${res.status}: ${str(field(res.json, "message")) ?? (res.text.slice(0, 300) || "no reason given")}`;
  if (res.status === 429) {
    const after = Number(res.headers.get("retry-after"));
    return {
      kind: "rate_limited",
      retryAfterMs: Number.isFinite(after) && after > 0 ? after * 1000 : RATE_LIMIT_MS,
      message,
    };
  }
  if (res.status === 401) return { kind: "auth_revoked", message };
  if (res.status >= 500) return { kind: "uncertain", message };
  return { kind: "rejected", code: "rejected", message };
}

async function publish(app: App, input: PublishInput): Promise<PublishOutcome> {
  const part = input.parts[0];
  if (!part) return { kind: "rejected", code: "rejected", message: "Nothing to pin." };
  if (input.done.length) return { kind: "published", permalink: input.done[0]!.remote_url };
  const image = part.media[0];
  if (!image?.read || image.kind === "video")
    return {
      kind: "rejected",
      code: "media_required",
      message: "A pin needs one image; nothing was posted.",
    };
  const board = str(input.channel.settings.board_id);
  if (!board) return { kind: "rejected", code: "rejected", message: "The channel does not name its board." };
  const f = pinFields(part.text);
  const bytes = await image.read();
  let res: NetworkResponse;
  try {
    res = await networkRequest(app, {
      method: "POST",
      url: `${pinterestApi(app)}/pins`,
      headers: { authorization: `Bearer ${input.channel.secrets.access_token ?? ""}` },
      signal: input.signal,
      json: {
        board_id: board,
        description: f.description,
        ...(f.title ? { title: f.title } : {}),
        ...(f.link ? { link: f.link } : {}),
        ...(image.alt ? { alt_text: image.alt.slice(0, 500) } : {}),
        media_source: {
          source_type: "image_base64",
          content_type: image.mime,
          data: Buffer.from(bytes).toString("base64"),
        },
      },
      timeoutMs: 60_000,
    });
  } catch (err) {
    if (!(err instanceof NoAnswer)) throw err;
    return noAnswerOutcome("Pinterest", err, 0);
  }
  if (res.status !== 201 && res.status !== 200) return refusal(res);
  const id = str(field(res.json, "id"));
  if (!id) return { kind: "uncertain", message: "Pinterest accepted the pin but sent no ID." };
  const done = { index: 0, remote_id: id, remote_url: `https://www.pinterest.com/pin/${id}/` };
  await input.onPartPublished(done);
  return { kind: "published", permalink: done.remote_url };
}

/** The daily check: the board can still be read with the token. */
async function connect(
  app: App,
  input: { settings: Record<string, string>; secrets: Record<string, string> },
): Promise<ConnectOutcome> {
  const board = input.settings.board_id;
  if (!board)
    return {
      kind: "rejected",
      message: "Connect Pinterest by signing in (/connect); each board is a channel.",
    };
  try {
    const res = await networkRequest(app, {
      method: "GET",
      url: `${pinterestApi(app)}/boards/${encodeURIComponent(board)}`,
      headers: { authorization: `Bearer ${input.secrets.access_token ?? ""}` },
      timeoutMs: 15_000,
    });
    if (res.status === 200)
      return {
        kind: "connected",
        account: {
          display_name: str(field(res.json, "name")),
          handle: input.settings.username ? `@${input.settings.username}` : null,
          profile_url: input.settings.username
            ? `https://www.pinterest.com/${input.settings.username}/`
            : null,
        },
      };
    if (res.status === 401 || res.status === 403 || res.status === 404)
      return {
        kind: "rejected",
        message: `Pinterest answered ${res.status}: ${str(field(res.json, "message")) ?? "refused"}`,
      };
    return { kind: "unavailable", message: `Pinterest answered ${res.status}.` };
  } catch (e) {
    if (e instanceof NoAnswer) return { kind: "unavailable", message: `Pinterest: ${e.message}` };
    throw e;
  }
}

/**
 * A pin's counts from GET /pins/{pin_id}?pin_metrics=true (docs "Get Pin"): its lifetime metrics give reactions
 * (likes), comments (replies) and impressions (views). Saves are reported only by the analytics endpoint for
 * business accounts, so reposts and quotes stay 0.
 */
async function engagement(
  app: App,
  input: RemoteInput & { parts: PublishedPart[] },
): Promise<EngagementOutcome> {
  const pin = input.parts[0];
  if (!pin) return { kind: "failed", message: "The target has no published pin to read." };
  let res: NetworkResponse;
  try {
    res = await networkRequest(app, {
      method: "GET",
      url: `${pinterestApi(app)}/pins/${encodeURIComponent(pin.remote_id)}?pin_metrics=true`,
      headers: { authorization: `Bearer ${input.channel.secrets.access_token ?? ""}` },
      timeoutMs: 15_000,
    });
  } catch (err) {
    return { kind: "failed", message: `Pinterest: ${err instanceof Error ? err.message : String(err)}` };
  }
  if (res.status === 404) return { kind: "deleted" };
  if (res.status !== 200)
    return {
      kind: "failed",
      message: `Pinterest answered ${res.status}: ${str(field(res.json, "message")) ?? "no reason given"}`,
    };
  const life = field(field(res.json, "pin_metrics"), "lifetime_metrics");
  const n = (name: string) => {
    const v = field(life, name);
    return typeof v === "number" && Number.isFinite(v) ? v : 0;
  };
  return {
    kind: "counts",
    counts: {
      likes: n("reaction"),
      reposts: 0,
      replies: n("comment"),
      quotes: 0,
      views: typeof field(life, "impression") === "number" ? n("impression") : null,
    },
  };
}

async function deletePublished(
  app: App,
  input: RemoteInput & { parts: PublishedPart[] },
): Promise<DeleteOutcome> {
  for (const pin of input.parts) {
    let res: NetworkResponse;
    try {
      res = await networkRequest(app, {
        method: "DELETE",
        url: `${pinterestApi(app)}/pins/${encodeURIComponent(pin.remote_id)}`,
        headers: { authorization: `Bearer ${input.channel.secrets.access_token ?? ""}` },
        signal: input.signal,
        timeoutMs: 15_000,
      });
    } catch (err) {
      return { kind: "failed", message: `Pinterest: ${err instanceof Error ? err.message : String(err)}` };
    }
    if (res.status !== 204 && res.status !== 404)
      return {
        kind: "failed",
        message: `Pinterest answered ${res.status}: ${str(field(res.json, "message")) ?? "no reason given"}`,
      };
  }
  return { kind: "deleted" };
}

export const pinterestAdapter: Adapter = {
  provider: "pinterest",
  idempotent: false,
  publish,
  connect,
  engagement,
  deletePublished,
};
