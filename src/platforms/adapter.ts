// The one interface between the publish worker and a network. The worker writes the attempt row, opens the
// channel's secrets, calls publish() and records the outcome; the adapter only talks to its network.
//
// Outcomes (reference §6): published; rate_limited (the channel is held until retryAfterMs has passed, at least
// 30 s); auth_revoked (the channel becomes needs_reauth); rejected (permanent: the target fails with `code`);
// transient (nothing was posted, or resuming is safe: retried with backoff); uncertain (the network may have
// posted: retried only when `idempotent`, else the target needs attention).
//
// An adapter that THROWS is an unclassified error: the worker records the attempt as `unknown` and the target
// needs attention, whatever `idempotent` says, because nothing tells it whether the network posted. So an
// adapter returns `transient` itself when it knows nothing was sent, and throws only when it cannot tell.
import type { App } from "../app/context.ts";

export interface PublishPart {
  index: number;
  text: string;
  /** The post's media, on the first part only (reference §4: media attach to the first part). */
  media: PublishMedia[];
}

/**
 * One medium as this network gets it: resized and re-encoded as JPEG where the network's rules need it (then
 * `mime`, `size`, `width`, `height` describe what is sent), else the original unchanged. The worker always fills
 * every field; all but id, mime and alt are optional in the type so that parts made by hand (tests) stay short.
 */
export interface PublishMedia {
  id: string;
  mime: string;
  alt: string | null;
  kind?: "image" | "video";
  size?: number;
  width?: number | null;
  height?: number | null;
  /** True when the service scaled it down or converted it for this network. */
  resized?: boolean;
  /** The bytes to send (an image; for a video prefer `stream`). */
  read?(): Promise<Uint8Array>;
  /**
   * The bytes as a stream, never all in memory (video); from byte `from` on when given (an upload resumed where
   * the network says it stopped).
   */
  stream?(from?: number): Promise<ReadableStream<Uint8Array>>;
  /**
   * A signed link to the original, valid one hour, for networks that fetch media by URL; null when this install is
   * not reachable from the internet (the worker refuses such targets with media_link_missing first).
   */
  link?(): string | null;
  /** Video facts read from the file's index; null for an image. */
  video?: { duration_ms: number; frame_rate: number | null; video_codec: string | null } | null;
}

export interface PublishedPart {
  index: number;
  remote_id: string;
  remote_url: string | null;
}

export interface PublishInput {
  targetId: string;
  postId: string;
  livemode: boolean;
  /** 1-based. */
  attempt: number;
  channel: {
    id: string;
    provider: string;
    emulates: string | null;
    settings: Record<string, unknown>;
    secrets: Record<string, string>;
  };
  parts: PublishPart[];
  /** Parts already posted by earlier attempts: resume after them. */
  done: PublishedPart[];
  metadata: Record<string, string>;
  signal: AbortSignal;
  /** Persists each part's remote reference as it succeeds, so a later attempt resumes after it. */
  onPartPublished(part: PublishedPart): Promise<void>;
}

export type PublishOutcome =
  | { kind: "published"; permalink: string | null }
  /** `quotaExhausted`: the developer app's daily quota is spent (every channel of that app waits for its reset). */
  | { kind: "rate_limited"; retryAfterMs: number; message: string; quotaExhausted?: boolean }
  | { kind: "auth_revoked"; message: string }
  | { kind: "rejected"; code: string; message: string }
  | { kind: "transient"; message: string }
  | { kind: "uncertain"; message: string };

export interface Adapter {
  provider: string;
  /** Repeating an uncertain publish cannot post twice (ARCHITECTURE rule 5). */
  idempotent: boolean;
  publish(app: App, input: PublishInput): Promise<PublishOutcome>;
  /** Checks credentials with the network and reads the account (connect, reconnect, `channels.check`). */
  connect?(app: App, input: ConnectInput): Promise<ConnectOutcome>;
  /**
   * Deletes a published target's parts from the network, the last first (replies before what they answer); a part
   * already gone counts as deleted, so asking again is harmless. Without it the network's posts cannot be deleted.
   */
  deletePublished?(app: App, input: RemoteInput & { parts: PublishedPart[] }): Promise<DeleteOutcome>;
  /** Reads a published target's counts (a thread counts as one post: its first part). */
  engagement?(app: App, input: RemoteInput & { parts: PublishedPart[] }): Promise<EngagementOutcome>;
  /** Looks for a post an uncertain attempt may have made, among the account's recent posts. */
  find?(
    app: App,
    input: RemoteInput & { parts: PublishPart[]; done: PublishedPart[]; since: number },
  ): Promise<FindOutcome>;
  /** How long after an uncertain attempt `find` can be trusted to have seen the post. */
  consistencyWindowMs?: number;
}

/** Deleting a published target's post (all its parts) from the network. */
export type DeleteOutcome = { kind: "deleted" } | { kind: "failed"; message: string };

// ---- Connecting, checking, engagement and settling: optional, per network. ----
// A network without `connect` is connected without a check; without `engagement` its targets' engagement state is
// `unsupported`; without `find` an uncertain attempt is settled by a person (needs_attention) as before.

export interface ConnectInput {
  livemode: boolean;
  /** The channel's non-secret connect fields (its `settings`). */
  settings: Record<string, string>;
  /** The secret connect fields, in the clear. */
  secrets: Record<string, string>;
  signal: AbortSignal;
}

export interface ConnectedAccount {
  display_name: string | null;
  handle: string | null;
  profile_url: string | null;
}

export type ConnectOutcome =
  | {
      kind: "connected";
      account: ConnectedAccount;
      /** Replaces what is stored when the network issued something to keep (a session, a resolved DID). */
      settings?: Record<string, string>;
      secrets?: Record<string, string>;
    }
  /** The network refused the credentials: `connect_failed` when connecting, `needs_reauth` on a check. */
  | { kind: "rejected"; message: string }
  /** The network could not be asked (down, rate-limited, unreachable): nothing is concluded. */
  | { kind: "unavailable"; message: string };

export interface RemoteInput {
  targetId: string;
  livemode: boolean;
  channel: PublishInput["channel"];
  signal: AbortSignal;
}

export interface EngagementCounts {
  likes: number;
  reposts: number;
  replies: number;
  quotes: number;
  /** null where the network reports no views. */
  views: number | null;
}

export type EngagementOutcome =
  | { kind: "counts"; counts: EngagementCounts }
  /** The post is gone from the network: no further readings. */
  | { kind: "deleted" }
  | { kind: "failed"; message: string };

export type FindOutcome =
  /** The post is on the network: the target is published with these parts. */
  | { kind: "found"; permalink: string | null; parts: PublishedPart[] }
  | { kind: "not_found" }
  | { kind: "unknown"; message: string };
