// What a LinkedIn sign-in reaches. The member feed: the member themself, read from the OpenID Connect userinfo
// endpoint (learn.microsoft.com/linkedin/consumer/integrations/self-serve/sign-in-with-linkedin-v2: GET
// /v2/userinfo, `sub` is the member's ID). LinkedIn Pages: each organization the member administers
// (learn.microsoft.com/linkedin/marketing/community-management/organizations/organization-access-control-by-role:
// GET /rest/organizationAcls?q=roleAssignee&role=ADMINISTRATOR&state=APPROVED), named by GET
// /rest/organizations/{id} (organization-lookup-api).
import type { App } from "../../app/context.ts";
import { field, type NetworkResponse, NoAnswer, networkRequest, str } from "../plumbing/http.ts";
import type { AccountsOutcome, SignInAccount } from "../signin/types.ts";
import { DEFAULT_LINKEDIN_VERSION, errorText, linkedinApi, restHeaders } from "./api.ts";

async function get(app: App, path: string, token: string): Promise<NetworkResponse> {
  return networkRequest(app, {
    method: "GET",
    url: `${linkedinApi(app)}${path}`,
    headers: restHeaders(token, DEFAULT_LINKEDIN_VERSION),
    timeoutMs: 30_000,
  });
}

function refused(res: NetworkResponse, what: string): AccountsOutcome {
  if (res.status === 401 || res.status === 403)
    return { kind: "rejected", message: `LinkedIn refused the sign-in (${what}): ${errorText(res)}` };
  return { kind: "unavailable", message: `LinkedIn answered ${res.status} (${what}): ${errorText(res)}` };
}

/** The member a LinkedIn (member feed) sign-in reaches. */
export async function linkedinMember(app: App, token: string): Promise<AccountsOutcome> {
  try {
    const res = await get(app, "/v2/userinfo", token);
    const sub = str(field(res.json, "sub"));
    if (res.status !== 200 || !sub) return refused(res, "userinfo");
    const name = str(field(res.json, "name"));
    return {
      kind: "accounts",
      accounts: [
        {
          key: sub,
          display_name: name,
          handle: null,
          profile_url: null,
          settings: { author: `urn:li:person:${sub}`, api_version: DEFAULT_LINKEDIN_VERSION },
        },
      ],
    };
  } catch (e) {
    if (e instanceof NoAnswer) return { kind: "unavailable", message: `LinkedIn: ${e.message}` };
    throw e;
  }
}

export const linkedinAccounts = (app: App, token: string, _signal: AbortSignal) => linkedinMember(app, token);

/** The Pages a LinkedIn Pages sign-in reaches: each organization the member administers. */
export async function linkedinPagesAccounts(
  app: App,
  token: string,
  signal: AbortSignal,
): Promise<AccountsOutcome> {
  try {
    const acls = await get(
      app,
      "/rest/organizationAcls?q=roleAssignee&role=ADMINISTRATOR&state=APPROVED",
      token,
    );
    if (acls.status !== 200) return refused(acls, "organizationAcls");
    const elements = field(acls.json, "elements");
    const accounts: SignInAccount[] = [];
    for (const e of Array.isArray(elements) ? elements : []) {
      signal.throwIfAborted();
      const urn = str(field(e, "organization"));
      const id = urn?.match(/^urn:li:organization:(\d+)$/)?.[1];
      if (!urn || !id) continue;
      const org = await get(app, `/rest/organizations/${id}`, token);
      if (org.status !== 200) return refused(org, `organization ${id}`);
      const vanity = str(field(org.json, "vanityName"));
      accounts.push({
        key: id,
        display_name: str(field(org.json, "localizedName")) ?? urn,
        handle: vanity,
        profile_url: vanity ? `https://www.linkedin.com/company/${vanity}/` : null,
        settings: { author: urn, api_version: DEFAULT_LINKEDIN_VERSION },
      });
    }
    return { kind: "accounts", accounts };
  } catch (e) {
    if (e instanceof NoAnswer) return { kind: "unavailable", message: `LinkedIn: ${e.message}` };
    throw e;
  }
}
