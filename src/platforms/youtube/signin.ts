// The YouTube channels a Google sign-in reaches: GET /youtube/v3/channels?part=snippet&mine=true (YouTube Data
// API "Channels: list"). Each channel the account owns becomes a channel the person may pick; a Google account
// without a YouTube channel offers nothing (connect_empty). Videos go up as `privacy` says, public by default.
import type { App } from "../../app/context.ts";
import { field, NoAnswer, networkRequest, str } from "../plumbing/http.ts";
import type { AccountsOutcome, SignInAccount } from "../signin/types.ts";
import { errorText, youtubeOrigin } from "./api.ts";

export async function youtubeAccounts(
  app: App,
  accessToken: string,
  signal: AbortSignal,
): Promise<AccountsOutcome> {
  let res: Awaited<ReturnType<typeof networkRequest>>;
  try {
    res = await networkRequest(app, {
      method: "GET",
      url: `${youtubeOrigin(app)}/youtube/v3/channels?part=snippet&mine=true&maxResults=50`,
      headers: { authorization: `Bearer ${accessToken}` },
      timeoutMs: 30_000,
    });
  } catch (e) {
    if (e instanceof NoAnswer) return { kind: "unavailable", message: `YouTube: ${e.message}` };
    throw e;
  }
  signal.throwIfAborted();
  if (res.status === 401 || res.status === 403)
    return { kind: "rejected", message: `YouTube refused the sign-in: ${errorText(res)}` };
  if (res.status !== 200)
    return { kind: "unavailable", message: `YouTube answered ${res.status}: ${errorText(res)}` };
  const items = field(res.json, "items");
  const accounts: SignInAccount[] = [];
  for (const c of Array.isArray(items) ? items : []) {
    const id = str(field(c, "id"));
    if (!id) continue;
    const snippet = field(c, "snippet");
    const custom = str(field(snippet, "customUrl"));
    accounts.push({
      key: id,
      display_name: str(field(snippet, "title")) ?? id,
      handle: custom ? (custom.startsWith("@") ? custom : `@${custom}`) : null,
      profile_url: `https://www.youtube.com/channel/${id}`,
      settings: { channel_id: id, privacy: "public" },
    });
  }
  return { kind: "accounts", accounts };
}
