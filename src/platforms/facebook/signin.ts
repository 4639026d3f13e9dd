// The Pages a Facebook Login reaches (GET /me/accounts with each Page's own token, Graph API "Page access
// tokens": developers.facebook.com/docs/pages-api/getting-started): each Page the person may create content on
// becomes a channel published to with that Page's token. Read with the long-lived user token, those Page tokens
// do not expire. Instagram's lister reads the same list for the professional accounts linked to the Pages.
import type { App } from "../../app/context.ts";
import { GRAPH_VERSION, graphError, withQuery } from "../meta/graph.ts";
import { field, type NetworkResponse, NoAnswer, networkRequest, str } from "../plumbing/http.ts";
import { providerOrigin } from "../plumbing/origins.ts";
import type { AccountsOutcome, SignInAccount } from "../signin/types.ts";

export const GRAPH_HOST = "https://graph.facebook.com";
const MAX_PAGES = 10;

export const graphApi = (app: App, provider: "facebook" | "instagram") =>
  `${providerOrigin(app, provider, GRAPH_HOST).replace(/\/+$/, "")}/${GRAPH_VERSION}`;

export interface ManagedPage {
  id: string;
  name: string;
  token: string;
  /** The Instagram professional account linked to the Page, if any. */
  instagram: string | null;
}

/** Every Page of the token's person, across pages of the list; a refusal or an outage as an outcome. */
export async function managedPages(
  app: App,
  provider: "facebook" | "instagram",
  accessToken: string,
  signal: AbortSignal,
): Promise<{ pages: ManagedPage[] } | Exclude<AccountsOutcome, { kind: "accounts" }>> {
  const pages: ManagedPage[] = [];
  let after: string | null = null;
  try {
    for (let n = 0; n < MAX_PAGES; n++) {
      signal.throwIfAborted();
      const res: NetworkResponse = await networkRequest(app, {
        method: "GET",
        url: withQuery(`${graphApi(app, provider)}/me/accounts`, {
          fields: "id,name,access_token,tasks,instagram_business_account",
          limit: "100",
          ...(after ? { after } : {}),
        }),
        headers: { authorization: `Bearer ${accessToken}` },
        timeoutMs: 30_000,
      });
      if (res.status !== 200) {
        const e = graphError(res);
        if (res.status < 500 && e.code !== 4 && e.code !== 17)
          return { kind: "rejected", message: `Facebook refused the sign-in: ${e.message}` };
        return {
          kind: "unavailable",
          message: `Facebook answered ${res.status} for the Pages: ${e.message}`,
        };
      }
      const data = field(res.json, "data");
      for (const p of Array.isArray(data) ? data : []) {
        const id = str(field(p, "id"));
        const token = str(field(p, "access_token"));
        const tasks = field(p, "tasks");
        // A Page the person may only moderate or read cannot be posted to: it is not offered.
        if (!id || !token || (Array.isArray(tasks) && !tasks.includes("CREATE_CONTENT"))) continue;
        pages.push({
          id,
          name: str(field(p, "name")) ?? id,
          token,
          instagram: str(field(field(p, "instagram_business_account"), "id")),
        });
      }
      after = field(field(res.json, "paging"), "next")
        ? str(field(field(field(res.json, "paging"), "cursors"), "after"))
        : null;
      if (!after) break;
    }
  } catch (e) {
    if (e instanceof NoAnswer) return { kind: "unavailable", message: `Facebook: ${e.message}` };
    throw e;
  }
  return { pages };
}

export async function facebookAccounts(
  app: App,
  accessToken: string,
  signal: AbortSignal,
): Promise<AccountsOutcome> {
  const listed = await managedPages(app, "facebook", accessToken, signal);
  if (!("pages" in listed)) return listed;
  const accounts: SignInAccount[] = listed.pages.map((p) => ({
    key: p.id,
    display_name: p.name,
    handle: null,
    profile_url: `https://www.facebook.com/${p.id}`,
    settings: { page_id: p.id, page_name: p.name },
  }));
  return {
    kind: "accounts",
    accounts,
    accountTokens: Object.fromEntries(listed.pages.map((p) => [p.id, p.token])),
  };
}
