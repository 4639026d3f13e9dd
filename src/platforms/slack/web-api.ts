// Slack's Web API as the adapter calls it: a method at https://slack.com/api/<method> (SVC_PROVIDER_ORIGINS
// `slack`) with the bot token as a bearer header, and its answers (errors as HTTP 200 with ok: false; 429 with
// Retry-After) classified.
import type { App } from "../../app/context.ts";
import type { PublishOutcome } from "../adapter.ts";
import { field, type NetworkResponse, networkRequest, secondsToMs, str } from "../plumbing/http.ts";
import { providerOrigin } from "../plumbing/origins.ts";

export const SLACK_ORIGIN = "https://slack.com";

// Web API errors (HTTP 200, ok: false) that mean the token no longer works: reconnecting is the fix.
const AUTH_ERRORS = new Set([
  "not_authed",
  "invalid_auth",
  "account_inactive",
  "token_revoked",
  "token_expired",
  "no_permission",
  "missing_scope",
  "org_login_required",
  "team_access_not_granted",
]);
const TRANSIENT_ERRORS = new Set(["internal_error", "fatal_error", "service_unavailable", "request_timeout"]);
export function apiOrigin(app: App): string {
  return providerOrigin(app, "slack", SLACK_ORIGIN).replace(/\/+$/, "");
}

export function api(
  app: App,
  token: string,
  method: string,
  params: Record<string, string>,
  post = false,
  signal?: AbortSignal,
) {
  const origin = apiOrigin(app);
  const headers = { authorization: `Bearer ${token}` };
  if (post)
    return networkRequest(app, {
      method: "POST",
      url: `${origin}/api/${method}`,
      headers,
      form: params,
      ...(signal ? { signal } : {}),
    });
  const query = new URLSearchParams(params).toString();
  return networkRequest(app, {
    method: "GET",
    url: `${origin}/api/${method}?${query}`,
    headers,
    timeoutMs: 15_000,
  });
}

export const slackError = (res: NetworkResponse) =>
  str(field(res.json, "error")) ?? (res.text.slice(0, 300) || `HTTP ${res.status}`);

export function retryAfter(res: NetworkResponse): number {
  return secondsToMs(res.headers.get("retry-after")) ?? 60_000;
}

export function apiRefusal(res: NetworkResponse, index: number): PublishOutcome {
  const error = slackError(res);
  const message = `Slack answered ${res.status} to part ${index + 1}: ${error}`;
  if (res.status === 429 || error === "ratelimited" || error === "rate_limited")
    return { kind: "rate_limited", retryAfterMs: retryAfter(res), message };
  if (res.status >= 500 || TRANSIENT_ERRORS.has(error)) return { kind: "transient", message };
  if (AUTH_ERRORS.has(error)) return { kind: "auth_revoked", message };
  return { kind: "rejected", code: "rejected", message };
}
