// The Threads account a Threads sign-in reaches (GET /v1.0/me?fields=id,username,name, docs "Threads profiles":
// developers.facebook.com/docs/threads/threads-profiles): one account, one channel.
import type { App } from "../../app/context.ts";
import { graphError, withQuery } from "../meta/graph.ts";
import { field, NoAnswer, networkRequest, str } from "../plumbing/http.ts";
import { providerOrigin } from "../plumbing/origins.ts";
import type { AccountsOutcome } from "../signin/types.ts";

export const THREADS_HOST = "https://graph.threads.net";
export const threadsApi = (app: App) =>
  `${providerOrigin(app, "threads", THREADS_HOST).replace(/\/+$/, "")}/v1.0`;

export async function threadsAccounts(
  app: App,
  accessToken: string,
  signal: AbortSignal,
): Promise<AccountsOutcome> {
  try {
    const res = await networkRequest(app, {
      method: "GET",
      url: withQuery(`${threadsApi(app)}/me`, { fields: "id,username,name" }),
      headers: { authorization: `Bearer ${accessToken}` },
      timeoutMs: 30_000,
      signal,
    });
    const e = graphError(res);
    if (res.status >= 400 && res.status < 500 && e.code !== 4 && e.code !== 17)
      return { kind: "rejected", message: `Threads refused the sign-in: ${e.message}` };
    const id = str(field(res.json, "id"));
    if (res.status !== 200 || !id)
      return { kind: "unavailable", message: `Threads answered ${res.status} for the account.` };
    const username = str(field(res.json, "username"));
    return {
      kind: "accounts",
      accounts: [
        {
          key: id,
          display_name: str(field(res.json, "name")) ?? username,
          handle: username ? `@${username}` : null,
          profile_url: username ? `https://www.threads.net/@${username}` : null,
          settings: { user_id: id, ...(username ? { username } : {}) },
        },
      ],
    };
  } catch (e) {
    if (e instanceof NoAnswer) return { kind: "unavailable", message: `Threads: ${e.message}` };
    throw e;
  }
}
