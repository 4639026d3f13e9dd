// Bluesky's failures, classified (XRPC errors: HTTP status plus an `error` name; rate limits carry
// `ratelimit-reset`, epoch seconds).
import type { XRPCError } from "@atproto/api";
import { mayHaveBeenSent, outboundCause } from "../../net/guarded-fetch.ts";
import type { PublishOutcome } from "../adapter.ts";
import { atproto } from "./atproto.ts";

const AUTH_ERRORS = new Set(["AuthenticationRequired", "InvalidToken", "ExpiredToken", "AccountTakedown"]);

export const isXrpcError = (e: unknown): e is XRPCError => e instanceof atproto().XRPCError;

export const isAuthError = (e: unknown) => isXrpcError(e) && (e.status === 401 || AUTH_ERRORS.has(e.error));

/** Milliseconds until `ratelimit-reset` (at least 1 s), else a minute. */
export function retryAfterMs(e: XRPCError, now = Date.now()): number {
  const reset = Number(e.headers?.["ratelimit-reset"] ?? Number.NaN);
  if (Number.isFinite(reset) && reset > 0) return Math.max(1000, reset * 1000 - now);
  return 60_000;
}

const words = (e: unknown) => (e instanceof Error ? e.message : String(e)) || "no message";

/**
 * What a failed call means. `writing` says whether the call could have created something: a read that failed is
 * at worst transient, a create that timed out after sending is uncertain.
 */
export function classify(e: unknown, writing: boolean): PublishOutcome {
  const net = outboundCause(e);
  if (net) {
    if (net.kind === "blocked_address" || net.kind === "invalid_url")
      return { kind: "rejected", code: "network", message: net.message };
    if (writing && mayHaveBeenSent(net)) return { kind: "uncertain", message: net.message };
    return { kind: "transient", message: net.message };
  }
  if (isXrpcError(e)) {
    const msg = `${e.error}: ${words(e)}`;
    if (e.status === 429) return { kind: "rate_limited", retryAfterMs: retryAfterMs(e), message: msg };
    if (isAuthError(e)) return { kind: "auth_revoked", message: msg };
    if (e.status >= 500 || e.status === 1) {
      // 502-504 may come from a proxy after the PDS took the write; other 5xx are the PDS refusing it.
      if (writing && (e.status === 502 || e.status === 504 || e.status === 1))
        return { kind: "uncertain", message: msg };
      return { kind: "transient", message: msg };
    }
    return { kind: "rejected", code: "rejected", message: msg };
  }
  return { kind: writing ? "uncertain" : "transient", message: words(e) };
}
