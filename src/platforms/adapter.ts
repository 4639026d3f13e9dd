// The interface every network adapter implements. The publish worker commits the attempt row before calling
// publish(), then records the outcome; an adapter that throws is treated as an unclassified error, which leaves
// the target needs_attention (the network may have posted), never a blind retry.
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
  /** 1-based */
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
  /** Persist each part's remote reference as it succeeds. */
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
  idempotent: boolean;
  publish(app: App, input: PublishInput): Promise<PublishOutcome>;
}
