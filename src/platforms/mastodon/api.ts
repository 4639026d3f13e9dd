// The Mastodon client API, shared by Mastodon and Gab (a Mastodon fork on one server): verify_credentials for
// the account, POST /api/v2/media for the first part's media (media.ts), POST /api/v1/statuses for each part (a
// thread is a reply chain through in_reply_to_id), the account's statuses to settle an uncertain attempt, and
// GET /api/v1/statuses/:id for counts.
// Errors are read as Mastodon documents them: 401 (token revoked or wrong), 403 (token lacks a scope, or the
// account is disabled or suspended), 404, 422 (validation, with `error`), 429 with X-RateLimit-Reset (an ISO
// time), 5xx.
import type { App } from "../../app/context.ts";
import type {
  ConnectInput,
  ConnectOutcome,
  DeleteOutcome,
  EngagementOutcome,
  FindOutcome,
  PublishedPart,
  PublishInput,
  PublishOutcome,
  PublishPart,
  RemoteInput,
} from "../adapter.ts";
import {
  field,
  msUntil,
  type NetworkResponse,
  NoAnswer,
  networkRequest,
  noAnswerOutcome,
  remainingParts,
  str,
} from "../plumbing/http.ts";
import { statusText } from "./html.ts";
import { uploadMedia } from "./media.ts";

export interface MastodonFlavour {
  /** Provider name, also the SVC_PROVIDER_ORIGINS key. */
  provider: "mastodon" | "gab";
  /** Display name of the network, for messages. */
  name: string;
  /** The server: Mastodon's comes from the channel, Gab has one. */
  origin(app: App, settings: Record<string, unknown>): string;
  /** Sends an Idempotency-Key per target and part (Mastodon honours it for about an hour). */
  idempotencyKeys: boolean;
}

const RATE_LIMIT_FALLBACK_MS = 5 * 60_000;

/** The API's error text: `error`, with `error_description` where given. */
function errorText(res: NetworkResponse): string {
  const error = str(field(res.json, "error"));
  const description = str(field(res.json, "error_description"));
  if (error && description && description !== error) return `${error}: ${description}`;
  return error ?? description ?? (res.text.slice(0, 300) || `HTTP ${res.status}`);
}

function base(app: App, f: MastodonFlavour, settings: Record<string, unknown>): string {
  return f.origin(app, settings).replace(/\/+$/, "");
}

function auth(input: { secrets: Record<string, string> }): Record<string, string> {
  return { authorization: `Bearer ${input.secrets.access_token ?? ""}` };
}

interface Account {
  id: string;
  username: string;
  acct: string;
  display_name: string;
  url: string;
}

function readAccount(json: unknown): Account | null {
  const id = str(field(json, "id"));
  const username = str(field(json, "username"));
  if (!id || !username) return null;
  return {
    id,
    username,
    acct: str(field(json, "acct")) ?? username,
    display_name: str(field(json, "display_name")) ?? "",
    url: str(field(json, "url")) ?? "",
  };
}

async function verifyCredentials(
  app: App,
  f: MastodonFlavour,
  input: { settings: Record<string, unknown>; secrets: Record<string, string> },
): Promise<NetworkResponse> {
  return networkRequest(app, {
    method: "GET",
    url: `${base(app, f, input.settings)}/api/v1/accounts/verify_credentials`,
    headers: auth(input),
    timeoutMs: 15_000,
  });
}

export async function connectMastodon(
  app: App,
  f: MastodonFlavour,
  input: ConnectInput,
): Promise<ConnectOutcome> {
  let res: NetworkResponse;
  try {
    res = await verifyCredentials(app, f, input);
  } catch (err) {
    if (err instanceof NoAnswer && !err.refused)
      return { kind: "unavailable", message: `${f.name}: ${err.message}` };
    // A server address that is not a URL at all is the tenant's mistake, not an outage.
    return { kind: "rejected", message: `${f.name}: ${err instanceof Error ? err.message : String(err)}` };
  }
  if (res.status === 401 || res.status === 403)
    return { kind: "rejected", message: `${f.name} refused the access token: ${errorText(res)}` };
  if (res.status === 429 || res.status >= 500)
    return { kind: "unavailable", message: `${f.name} answered ${res.status}: ${errorText(res)}` };
  const account = res.status === 200 ? readAccount(res.json) : null;
  if (!account)
    return {
      kind: "rejected",
      message: `${f.name} did not answer as a Mastodon server (HTTP ${res.status}); check the server address.`,
    };
  const host = new URL(account.url || base(app, f, input.settings)).host;
  return {
    kind: "connected",
    account: {
      display_name: account.display_name || account.username,
      handle: `@${account.username}@${host}`,
      profile_url: account.url || null,
    },
    settings: { ...input.settings, account_id: account.id },
  };
}

/** Classifies a refusal of POST /api/v1/statuses (or of a media upload, `what` naming it). */
function refusal(
  app: App,
  f: MastodonFlavour,
  res: NetworkResponse,
  part: PublishPart | null,
  what = part ? `part ${part.index + 1}` : "the request",
): PublishOutcome {
  const message = `${f.name} answered ${res.status} to ${what}: ${errorText(res)}`;
  if (res.status === 429) {
    const wait = msUntil(app, res.headers.get("x-ratelimit-reset")) ?? RATE_LIMIT_FALLBACK_MS;
    return { kind: "rate_limited", retryAfterMs: wait, message };
  }
  if (res.status === 401 || res.status === 403) return { kind: "auth_revoked", message };
  if (res.status >= 500) return { kind: "transient", message };
  return { kind: "rejected", code: "rejected", message };
}

export async function publishMastodon(
  app: App,
  f: MastodonFlavour,
  input: PublishInput,
): Promise<PublishOutcome> {
  const origin = base(app, f, input.channel.settings);
  const todo = remainingParts(input.parts, input.done);
  const posted: PublishedPart[] = [...input.done].sort((a, b) => a.index - b.index);
  for (const part of todo) {
    if (input.signal.aborted)
      return { kind: "transient", message: `Stopped before part ${part.index + 1} was sent.` };
    const previous = posted.at(-1);
    const headers = auth(input.channel);
    // One key per target and part: a repeat of the same part within the server's window returns the first
    // status instead of posting again.
    if (f.idempotencyKeys) headers["idempotency-key"] = `svc-${input.targetId}-${part.index}`;
    // Media are uploaded first (without the idempotency key: each upload is its own request) and attached by ID.
    let mediaIds: string[] = [];
    if (part.media.length) {
      const up = await uploadMedia(
        {
          app,
          name: f.name,
          origin,
          headers: auth(input.channel),
          signal: input.signal,
          refused: (res, what) => refusal(app, f, res, null, what),
        },
        part.media,
      );
      if ("outcome" in up) return up.outcome;
      mediaIds = up.ids;
    }
    let res: NetworkResponse;
    try {
      res = await networkRequest(app, {
        method: "POST",
        url: `${origin}/api/v1/statuses`,
        headers,
        signal: input.signal,
        json: {
          status: part.text,
          ...(mediaIds.length ? { media_ids: mediaIds } : {}),
          ...(previous ? { in_reply_to_id: previous.remote_id } : {}),
        },
      });
    } catch (err) {
      if (!(err instanceof NoAnswer)) throw err;
      return noAnswerOutcome(f.name, err, part.index);
    }
    if (res.status !== 200) return refusal(app, f, res, part);
    const id = str(field(res.json, "id"));
    if (!id)
      return {
        kind: "uncertain",
        message: `${f.name} accepted part ${part.index + 1} but sent no status ID.`,
      };
    const published = { index: part.index, remote_id: id, remote_url: str(field(res.json, "url")) };
    await input.onPartPublished(published);
    posted.push(published);
  }
  return { kind: "published", permalink: posted[0]?.remote_url ?? null };
}

export async function mastodonEngagement(
  app: App,
  f: MastodonFlavour,
  input: RemoteInput & { parts: PublishedPart[] },
): Promise<EngagementOutcome> {
  const first = [...input.parts].sort((a, b) => a.index - b.index)[0];
  if (!first) return { kind: "failed", message: "The target has no published part to read." };
  let res: NetworkResponse;
  try {
    res = await networkRequest(app, {
      method: "GET",
      url: `${base(app, f, input.channel.settings)}/api/v1/statuses/${encodeURIComponent(first.remote_id)}`,
      headers: auth(input.channel),
      timeoutMs: 15_000,
    });
  } catch (err) {
    return { kind: "failed", message: `${f.name}: ${err instanceof Error ? err.message : String(err)}` };
  }
  if (res.status === 404) return { kind: "deleted" };
  if (res.status !== 200)
    return { kind: "failed", message: `${f.name} answered ${res.status}: ${errorText(res)}` };
  const n = (name: string) => {
    const v = field(res.json, name);
    return typeof v === "number" && Number.isFinite(v) ? v : 0;
  };
  return {
    kind: "counts",
    counts: {
      likes: n("favourites_count"),
      reposts: n("reblogs_count"),
      replies: n("replies_count"),
      quotes: 0,
      views: null,
    },
  };
}

/**
 * Deletes each part's status, the last first (a reply before what it answers). A status already gone (404) counts
 * as deleted, so asking again is harmless.
 */
export async function mastodonDelete(
  app: App,
  f: MastodonFlavour,
  input: RemoteInput & { parts: PublishedPart[] },
): Promise<DeleteOutcome> {
  for (const part of [...input.parts].sort((a, b) => b.index - a.index)) {
    let res: NetworkResponse;
    try {
      res = await networkRequest(app, {
        method: "DELETE",
        url: `${base(app, f, input.channel.settings)}/api/v1/statuses/${encodeURIComponent(part.remote_id)}`,
        headers: auth(input.channel),
        timeoutMs: 15_000,
      });
    } catch (err) {
      return { kind: "failed", message: `${f.name}: ${err instanceof Error ? err.message : String(err)}` };
    }
    if (res.status !== 200 && res.status !== 404)
      return { kind: "failed", message: `${f.name} answered ${res.status}: ${errorText(res)}` };
  }
  return { kind: "deleted" };
}

/** Whitespace-insensitive comparison, since the server renders text to HTML and back loses line structure. */
const normal = (s: string) => s.replace(/\s+/g, " ").trim();

/**
 * Looks among the account's latest statuses for the parts an uncertain attempt may have posted: each remaining
 * part, in order, written after `since` and replying to the part before it. Found only when every part is.
 */
export async function findMastodon(
  app: App,
  f: MastodonFlavour,
  input: RemoteInput & { parts: PublishPart[]; done: PublishedPart[]; since: number },
): Promise<FindOutcome> {
  const origin = base(app, f, input.channel.settings);
  try {
    let accountId = str(input.channel.settings.account_id);
    if (!accountId) {
      const me = await verifyCredentials(app, f, input.channel);
      if (me.status !== 200)
        return { kind: "unknown", message: `${f.name} answered ${me.status}: ${errorText(me)}` };
      accountId = readAccount(me.json)?.id ?? null;
      if (!accountId) return { kind: "unknown", message: `${f.name} sent no account ID.` };
    }
    const res = await networkRequest(app, {
      method: "GET",
      url: `${origin}/api/v1/accounts/${encodeURIComponent(accountId)}/statuses?limit=40&exclude_reblogs=true`,
      headers: auth(input.channel),
      signal: input.signal,
      timeoutMs: 15_000,
    });
    if (res.status !== 200 || !Array.isArray(res.json))
      return { kind: "unknown", message: `${f.name} answered ${res.status}: ${errorText(res)}` };
    const statuses = (res.json as unknown[])
      .map((s) => ({
        id: str(field(s, "id")),
        url: str(field(s, "url")),
        replyTo: str(field(s, "in_reply_to_id")),
        at: Date.parse(str(field(s, "created_at")) ?? ""),
        text: normal(statusText(str(field(s, "content")) ?? "")),
      }))
      // A minute of slack for the clocks of two machines.
      .filter((s) => s.id && Number.isFinite(s.at) && s.at >= input.since - 60_000);
    const parts: PublishedPart[] = [...input.done].sort((a, b) => a.index - b.index);
    const todo = remainingParts(input.parts, input.done);
    for (const [i, part] of todo.entries()) {
      const previous = parts.at(-1)?.remote_id ?? null;
      const hit = statuses.find((s) => s.text === normal(part.text) && s.replyTo === previous);
      if (!hit) {
        if (i === 0) return { kind: "not_found" };
        // Some parts are up and the rest are not: neither "published" nor "never posted" is true.
        return {
          kind: "unknown",
          message: `${f.name} shows parts up to ${part.index} of the thread but not part ${part.index + 1}.`,
        };
      }
      parts.push({ index: part.index, remote_id: hit.id!, remote_url: hit.url });
    }
    return { kind: "found", permalink: parts[0]?.remote_url ?? null, parts };
  } catch (err) {
    return { kind: "unknown", message: `${f.name}: ${err instanceof Error ? err.message : String(err)}` };
  }
}
