// What an attempt's outcome does to its target (reference §6, "Target machine"). Pure, so every rule is tested
// without a network or a database.
import type { PublishOutcome } from "../../platforms/adapter.ts";

export const MIN_RATE_LIMIT_WAIT_MS = 30_000;
const BACKOFF_BASE_MS = 30_000;
const BACKOFF_CAP_MS = 30 * 60_000;

/** 30 s doubling per attempt, capped at 30 minutes. */
export const backoff = (attempt: number) =>
  Math.min(BACKOFF_BASE_MS * 2 ** Math.max(0, attempt - 1), BACKOFF_CAP_MS);

export interface Decision {
  status: "published" | "queued" | "failed" | "needs_attention";
  nextAttemptAt: number | null;
  permalink: string | null;
  errorCode: string | null;
  errorMessage: string | null;
  /** The attempt's outcome (reference §3 attempt outcomes). */
  attemptOutcome:
    | "published"
    | "rate_limited"
    | "auth_revoked"
    | "rejected"
    | "transient"
    | "uncertain"
    | "unknown";
  events: string[];
  rateLimitedUntil: number | null;
  needsReauth: string | null;
}

export function decide(
  outcome: PublishOutcome | { kind: "error"; message: string },
  t: { attempts: number; publish_by: number | null },
  idempotent: boolean,
  now: number,
): Decision {
  const base = {
    nextAttemptAt: null,
    permalink: null,
    errorCode: null,
    errorMessage: null,
    rateLimitedUntil: null,
    needsReauth: null,
  };
  const pastDeadline = (at: number) => t.publish_by !== null && at > t.publish_by;
  const fail = (code: string, message: string, attemptOutcome: Decision["attemptOutcome"]): Decision => ({
    ...base,
    status: "failed",
    errorCode: code,
    errorMessage: message,
    attemptOutcome,
    events: ["post_target.failed"],
  });
  switch (outcome.kind) {
    case "published":
      return {
        ...base,
        status: "published",
        permalink: outcome.permalink,
        attemptOutcome: "published",
        events: ["post_target.published"],
      };
    case "rate_limited": {
      const at = now + Math.max(outcome.retryAfterMs, MIN_RATE_LIMIT_WAIT_MS);
      if (pastDeadline(at))
        return fail(
          "rate_limited",
          `Rate limited until after publish_by: ${outcome.message}`,
          "rate_limited",
        );
      return {
        ...base,
        status: "queued",
        nextAttemptAt: at,
        errorCode: "rate_limited",
        errorMessage: outcome.message,
        attemptOutcome: "rate_limited",
        events: [],
        rateLimitedUntil: at,
      };
    }
    case "auth_revoked":
      // The channel needs reconnecting; the target waits (publish.expire fails it at publish_by).
      return {
        ...base,
        status: "queued",
        nextAttemptAt: now + backoff(t.attempts),
        errorCode: "unauthorized",
        errorMessage: outcome.message,
        attemptOutcome: "auth_revoked",
        events: [],
        needsReauth: outcome.message,
      };
    case "rejected":
      return fail(outcome.code || "rejected", outcome.message, "rejected");
    case "transient": {
      const at = now + backoff(t.attempts);
      if (pastDeadline(at))
        return fail("network", `Gave up before publish_by: ${outcome.message}`, "transient");
      return {
        ...base,
        status: "queued",
        nextAttemptAt: at,
        errorCode: "network",
        errorMessage: outcome.message,
        attemptOutcome: "transient",
        events: [],
      };
    }
    case "uncertain": {
      if (idempotent) {
        // The network dedupes on our key or record ID, so trying again cannot post twice.
        const at = now + backoff(t.attempts);
        if (pastDeadline(at))
          return fail(
            "unknown",
            `Outcome unknown and no time left before publish_by: ${outcome.message}`,
            "uncertain",
          );
        return {
          ...base,
          status: "queued",
          nextAttemptAt: at,
          errorCode: "unknown",
          errorMessage: outcome.message,
          attemptOutcome: "uncertain",
          events: [],
        };
      }
      return {
        ...base,
        status: "needs_attention",
        errorCode: "unknown",
        errorMessage: `The network may have posted: ${outcome.message}`,
        attemptOutcome: "uncertain",
        events: ["post_target.uncertain", "post_target.needs_attention"],
      };
    }
    case "error":
      return {
        ...base,
        status: "needs_attention",
        errorCode: "unknown",
        errorMessage: outcome.message,
        attemptOutcome: "unknown",
        events: ["post_target.needs_attention"],
      };
  }
}
