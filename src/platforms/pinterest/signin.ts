// The boards a Pinterest sign-in reaches (developers.pinterest.com v5: GET /user_account, GET /boards with its
// bookmark for the next page): each board the account owns becomes a channel the person may pick; an account
// without boards offers nothing (connect_empty).
import type { App } from "../../app/context.ts";
import { field, NoAnswer, networkRequest, str } from "../plumbing/http.ts";
import { providerOrigin } from "../plumbing/origins.ts";
import type { AccountsOutcome, SignInAccount } from "../signin/types.ts";

export const PINTEREST_API = "https://api.pinterest.com";
const MAX_PAGES = 10;

export const pinterestApi = (app: App) =>
  `${providerOrigin(app, "pinterest", PINTEREST_API).replace(/\/+$/, "")}/v5`;

export async function pinterestAccounts(
  app: App,
  accessToken: string,
  signal: AbortSignal,
): Promise<AccountsOutcome> {
  const get = (path: string) =>
    networkRequest(app, {
      method: "GET",
      url: `${pinterestApi(app)}${path}`,
      headers: { authorization: `Bearer ${accessToken}` },
      timeoutMs: 30_000,
    });
  try {
    const me = await get("/user_account");
    if (me.status === 401 || me.status === 403)
      return {
        kind: "rejected",
        message: `Pinterest refused the sign-in: ${str(field(me.json, "message")) ?? me.status}`,
      };
    const username = str(field(me.json, "username"));
    if (me.status !== 200 || !username)
      return { kind: "unavailable", message: `Pinterest answered ${me.status} for the account.` };
    const accounts: SignInAccount[] = [];
    let bookmark: string | null = null;
    for (let page = 0; page < MAX_PAGES; page++) {
      signal.throwIfAborted();
      const res = await get(
        `/boards?page_size=100${bookmark ? `&bookmark=${encodeURIComponent(bookmark)}` : ""}`,
      );
      if (res.status !== 200)
        return { kind: "unavailable", message: `Pinterest answered ${res.status} for the boards.` };
      const items = field(res.json, "items");
      for (const b of Array.isArray(items) ? items : []) {
        const id = str(field(b, "id"));
        if (!id) continue;
        const name = str(field(b, "name")) ?? id;
        accounts.push({
          key: id,
          display_name: name,
          handle: `@${username}`,
          profile_url: `https://www.pinterest.com/${username}/`,
          settings: { board_id: id, board_name: name, username },
        });
      }
      bookmark = str(field(res.json, "bookmark"));
      if (!bookmark) break;
    }
    return { kind: "accounts", accounts };
  } catch (e) {
    if (e instanceof NoAnswer) return { kind: "unavailable", message: `Pinterest: ${e.message}` };
    throw e;
  }
}
