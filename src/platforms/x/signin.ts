// The account an X sign-in reaches: GET /2/users/me with the user's OAuth 2 token, or signed with pasted OAuth 1.0a
// keys (docs.x.com "Users lookup: me"; the operation getUsersMe of X's OpenAPI description). One sign-in is one
// account.
import type { App } from "../../app/context.ts";
import { NoAnswer, networkRequest } from "../plumbing/http.ts";
import { providerOrigin } from "../plumbing/origins.ts";
import type { AccountsOutcome } from "../signin/types.ts";
import { type XSecrets, xAuthHeaders } from "./auth.ts";

export const X_API = "https://api.x.com";

export function xAccounts(app: App, accessToken: string, signal: AbortSignal): Promise<AccountsOutcome> {
  return xAccount(app, { access_token: accessToken }, signal);
}

/** The account the channel's credentials (an OAuth 2 token or OAuth 1.0a keys) belong to. */
export async function xAccount(app: App, secrets: XSecrets, signal: AbortSignal): Promise<AccountsOutcome> {
  let res: Awaited<ReturnType<typeof networkRequest>>;
  const url = `${providerOrigin(app, "x", X_API)}/2/users/me?user.fields=profile_image_url`;
  try {
    res = await networkRequest(app, {
      method: "GET",
      url,
      headers: await xAuthHeaders(secrets, "GET", url),
      timeoutMs: 30_000,
    });
  } catch (e) {
    if (e instanceof NoAnswer) return { kind: "unavailable", message: `X: ${e.message}` };
    throw e;
  }
  signal.throwIfAborted();
  const data = (res.json as { data?: { id?: string; name?: string; username?: string } } | undefined)?.data;
  if (res.status === 200 && data?.id && data.username)
    return {
      kind: "accounts",
      accounts: [
        {
          key: data.id,
          display_name: data.name ?? data.username,
          handle: `@${data.username}`,
          profile_url: `https://x.com/${data.username}`,
          settings: { user_id: data.id, username: data.username },
        },
      ],
    };
  const detail = (res.json as { detail?: string; title?: string } | undefined) ?? {};
  const why = detail.detail ?? detail.title ?? `HTTP ${res.status}`;
  if (res.status === 401 || res.status === 403)
    return { kind: "rejected", message: `X refused the sign-in: ${why}` };
  return { kind: "unavailable", message: `X did not answer: ${why}` };
}
