// The account a TikTok sign-in reaches: GET /v2/user/info/ with fields open_id, avatar_url, display_name
// (developers.tiktok.com/doc/tiktok-api-v2-get-user-info; scope user.info.basic). One sign-in is one account.
// Its channel states plainly that posts are private until the developer app passes TikTok's audit.
import type { App } from "../../app/context.ts";
import { field, NoAnswer, networkRequest, str } from "../plumbing/http.ts";
import type { AccountsOutcome } from "../signin/types.ts";
import { codeOf, errorText, tiktokOrigin } from "./api.ts";

/** What a TikTok channel says about who sees its posts (svc posts SELF_ONLY: see adapter.ts). */
export const TIKTOK_VISIBILITY =
  "Private: only the account sees these videos. TikTok allows an app nothing else until it passes TikTok's audit.";

export async function tiktokAccounts(
  app: App,
  accessToken: string,
  signal: AbortSignal,
): Promise<AccountsOutcome> {
  let res: Awaited<ReturnType<typeof networkRequest>>;
  try {
    res = await networkRequest(app, {
      method: "GET",
      url: `${tiktokOrigin(app)}/v2/user/info/?fields=open_id,avatar_url,display_name`,
      headers: { authorization: `Bearer ${accessToken}` },
      timeoutMs: 30_000,
    });
  } catch (e) {
    if (e instanceof NoAnswer) return { kind: "unavailable", message: `TikTok: ${e.message}` };
    throw e;
  }
  signal.throwIfAborted();
  const user = field(field(res.json, "data"), "user");
  const openId = str(field(user, "open_id"));
  if (res.status === 200 && codeOf(res) === "ok" && openId) {
    const name = str(field(user, "display_name")) ?? openId;
    return {
      kind: "accounts",
      accounts: [
        {
          key: openId,
          display_name: name,
          handle: null,
          profile_url: null,
          settings: { open_id: openId, privacy: "SELF_ONLY", visibility: TIKTOK_VISIBILITY },
        },
      ],
    };
  }
  if (res.status === 401)
    return { kind: "rejected", message: `TikTok refused the sign-in: ${errorText(res)}` };
  return { kind: "unavailable", message: `TikTok answered ${res.status}: ${errorText(res)}` };
}
