// How svc talks to LinkedIn's REST API: the versioned endpoints under /rest with the `LinkedIn-Version` (YYYYMM)
// and Rest.li 2.0 headers every call needs (learn.microsoft.com/linkedin/marketing/versioning), the token as a
// bearer, and LinkedIn's error body ({status, serviceErrorCode, code, message}).
import type { App } from "../../app/context.ts";
import { field, type NetworkResponse, str } from "../plumbing/http.ts";
import { providerOrigin } from "../plumbing/origins.ts";

export const LINKEDIN_API = "https://api.linkedin.com";
/** The API version sent when a channel names none (a sign-in channel): LinkedIn supports each for a year. */
export const DEFAULT_LINKEDIN_VERSION = "202506";

export const linkedinApi = (app: App) => providerOrigin(app, "linkedin", LINKEDIN_API).replace(/\/+$/, "");

export function restHeaders(token: string, version: string | null | undefined): Record<string, string> {
  return {
    authorization: `Bearer ${token}`,
    "linkedin-version": version || DEFAULT_LINKEDIN_VERSION,
    "x-restli-protocol-version": "2.0.0",
  };
}

export function errorText(res: NetworkResponse): string {
  return str(field(res.json, "message")) ?? (res.text.slice(0, 300) || `HTTP ${res.status}`);
}
