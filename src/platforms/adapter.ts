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
  media: { id: string; mime: string; alt: string | null }[];
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
  | { kind: "rate_limited"; retryAfterMs: number; message: string }
  | { kind: "auth_revoked"; message: string }
  | { kind: "rejected"; code: string; message: string }
  | { kind: "transient"; message: string }
  | { kind: "uncertain"; message: string };

export interface Adapter {
  provider: string;
  /** Repeating an uncertain publish cannot post twice (ARCHITECTURE rule 5). */
  idempotent: boolean;
  publish(app: App, input: PublishInput): Promise<PublishOutcome>;
}

// The registry lives in adapters.ts (it imports every adapter); re-exported so callers need one import.
export { adapterFor } from "./adapters.ts";
