// The Instagram professional accounts a Facebook Login reaches (Instagram API with Facebook Login): each of the
// person's Pages with a linked account (GET /me/accounts, instagram_business_account), that account read with
// GET /{ig-user-id}?fields=id,username,name. Each account becomes a channel published to with its Page's token.
import type { App } from "../../app/context.ts";
import { graphApi, managedPages } from "../facebook/signin.ts";
import { graphError, withQuery } from "../meta/graph.ts";
import { field, NoAnswer, networkRequest, str } from "../plumbing/http.ts";
import type { AccountsOutcome, SignInAccount } from "../signin/types.ts";

export async function instagramAccounts(
  app: App,
  accessToken: string,
  signal: AbortSignal,
): Promise<AccountsOutcome> {
  const listed = await managedPages(app, "instagram", accessToken, signal);
  if (!("pages" in listed)) return listed;
  const accounts: SignInAccount[] = [];
  const accountTokens: Record<string, string> = {};
  try {
    for (const page of listed.pages) {
      if (!page.instagram) continue;
      const res = await networkRequest(app, {
        method: "GET",
        url: withQuery(`${graphApi(app, "instagram")}/${encodeURIComponent(page.instagram)}`, {
          fields: "id,username,name",
        }),
        headers: { authorization: `Bearer ${page.token}` },
        timeoutMs: 30_000,
        signal,
      });
      if (res.status !== 200)
        return {
          kind: "unavailable",
          message: `Instagram answered ${res.status}: ${graphError(res).message}`,
        };
      const username = str(field(res.json, "username"));
      accounts.push({
        key: page.instagram,
        display_name: str(field(res.json, "name")) ?? username ?? page.name,
        handle: username ? `@${username}` : null,
        profile_url: username ? `https://www.instagram.com/${username}/` : null,
        settings: { ig_user_id: page.instagram, page_id: page.id, ...(username ? { username } : {}) },
      });
      accountTokens[page.instagram] = page.token;
    }
  } catch (e) {
    if (e instanceof NoAnswer) return { kind: "unavailable", message: `Instagram: ${e.message}` };
    throw e;
  }
  return { kind: "accounts", accounts, accountTokens };
}
