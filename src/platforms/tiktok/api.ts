// Where TikTok's Open API v2 is reached, and how it says no. Every answer carries `error: {code, message, log_id}`
// with code "ok" on success (developers.tiktok.com/doc/tiktok-api-v2-error-handling); the codes that matter to
// publishing are classified here.
import type { App } from "../../app/context.ts";
import type { PublishOutcome } from "../adapter.ts";
import { field, type NetworkResponse, str } from "../plumbing/http.ts";
import { providerOrigin } from "../plumbing/origins.ts";

export const TIKTOK_API = "https://open.tiktokapis.com";

export const tiktokOrigin = (app: App) => providerOrigin(app, "tiktok", TIKTOK_API).replace(/\/+$/, "");

export const bearer = (secrets: Record<string, string>) => ({
  authorization: `Bearer ${secrets.access_token ?? ""}`,
});

/** TikTok's error code ("ok" on success), or null when the answer carries none. */
export const codeOf = (res: NetworkResponse) => str(field(field(res.json, "error"), "code"));

export function errorText(res: NetworkResponse): string {
  const e = field(res.json, "error");
  const code = str(field(e, "code"));
  const message = str(field(e, "message"));
  return code ? `${code}${message ? `: ${message}` : ""}` : res.text.slice(0, 300) || `HTTP ${res.status}`;
}

const RATE_LIMIT_MS = 60_000;
const SPAM_WAIT_MS = 24 * 3600_000;

/** A refusal of a request that published nothing (the post's start, a status question, a chunk). */
export function refusal(res: NetworkResponse, what: string): PublishOutcome {
  const code = codeOf(res);
  const message = `TikTok answered ${res.status} to ${what}: ${errorText(res)}`;
  if (code === "rate_limit_exceeded" || res.status === 429)
    return { kind: "rate_limited", retryAfterMs: RATE_LIMIT_MS, message };
  // Too many posts from the account today (Direct Post guidelines): wait a day, not a minute.
  if (code === "spam_risk_too_many_posts" || code === "spam_risk_user_banned_from_posting")
    return { kind: "rate_limited", retryAfterMs: SPAM_WAIT_MS, message };
  if (code === "access_token_invalid" || code === "scope_not_authorized" || res.status === 401)
    return { kind: "auth_revoked", message };
  if (code === "unaudited_client_can_only_post_to_private_accounts")
    return {
      kind: "rejected",
      code: "unauthorized",
      message: `${message}. Until the developer app passes TikTok's audit, it can post only to private accounts: make the TikTok account private, or have the app audited.`,
    };
  if (res.status >= 500) return { kind: "transient", message: `${message}; nothing was published.` };
  if (code === "invalid_file_upload") return { kind: "rejected", code: "video_rejected", message };
  return { kind: "rejected", code: "rejected", message };
}
