// Where YouTube's Data API v3 is reached, and how it says no: Google's JSON error (`error.code`, `error.message`,
// `error.errors[].reason`; developers.google.com/youtube/v3/docs/errors), classified for the publish worker.
import type { App } from "../../app/context.ts";
import type { PublishOutcome } from "../adapter.ts";
import { field, type NetworkResponse, str } from "../plumbing/http.ts";
import { providerOrigin } from "../plumbing/origins.ts";
import { waitForReset, youtubeQuota } from "./quota.ts";

export const YOUTUBE_API = "https://www.googleapis.com";

/** The API origin (uploads go to `/upload/youtube/v3/…` on the same origin). */
export const youtubeOrigin = (app: App) => providerOrigin(app, "youtube", YOUTUBE_API).replace(/\/+$/, "");

export const bearer = (secrets: Record<string, string>) => ({
  authorization: `Bearer ${secrets.access_token ?? ""}`,
});

/** The first reason Google gives (quotaExceeded, uploadLimitExceeded, authError, …), or null. */
export function reasonOf(res: NetworkResponse): string | null {
  const errors = field(field(res.json, "error"), "errors");
  return Array.isArray(errors) ? str(field(errors[0], "reason")) : null;
}

export function errorText(res: NetworkResponse): string {
  return str(field(field(res.json, "error"), "message")) ?? (res.text.slice(0, 300) || `HTTP ${res.status}`);
}

/**
 * A refusal of a request that created no video (the upload's start, a status question): what the worker does.
 * Quota spent → the channel is held until the quota's reset (Pacific midnight); the account's own upload limit
 * → held for a day's worth of an hour; a token Google no longer takes → reconnect; 5xx → try again later.
 */
export function refusal(app: App, res: NetworkResponse, what: string): PublishOutcome {
  const reason = reasonOf(res);
  const message = `YouTube answered ${res.status}${reason ? ` (${reason})` : ""} to ${what}: ${errorText(res)}`;
  if (reason === "quotaExceeded" || reason === "dailyLimitExceeded")
    return {
      kind: "rate_limited",
      retryAfterMs: waitForReset(app.clock.now(), youtubeQuota),
      message: `${message}; the app's daily quota is spent until midnight Pacific time.`,
      quotaExhausted: true,
    };
  if (reason === "uploadLimitExceeded" || reason === "rateLimitExceeded" || res.status === 429)
    return { kind: "rate_limited", retryAfterMs: youtubeQuota.minWaitMs, message };
  if (res.status === 401) return { kind: "auth_revoked", message };
  if (res.status >= 500) return { kind: "transient", message: `${message}; nothing was published.` };
  return { kind: "rejected", code: res.status === 403 ? "unauthorized" : "rejected", message };
}
