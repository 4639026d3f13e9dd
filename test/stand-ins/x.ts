// X's API v2 as an account signed in with OAuth 2 sees it (docs.x.com "Users lookup: GET /2/users/me";
// "Response codes and errors"): the user a token belongs to, asked of the real authorization server that issued
// it (oidc-provider, test/helpers/oauth-server.ts), so a revoked or expired token is refused as X refuses it.
// Every request and answer is checked against xdevplatform/xdk's specs/openapi.json.
import { type Answer, type StandIn, startStandIn } from "./server.ts";
import { loadSpec } from "./spec.ts";

export interface XUser {
  id: string;
  name: string;
  username: string;
}

export interface XStandIn extends StandIn {
  /** The X user behind an authorization-server account (made on first use). */
  userOf(accountId: string): XUser;
}

// X answers an unusable token with an RFC 7807 body of type about:blank, which its description does not list.
const unauthorized: Answer = {
  status: 401,
  body: { title: "Unauthorized", type: "about:blank", status: 401, detail: "Unauthorized" },
};

export async function startX(auth: { accountOf(token: string): Promise<string | null> }): Promise<XStandIn> {
  const spec = await loadSpec({ file: "x/openapi.json" });
  const users = new Map<string, XUser>();
  let next = 1_500_000_000_000_000_000n;
  const userOf = (accountId: string): XUser => {
    let u = users.get(accountId);
    if (!u) {
      u = {
        id: String(++next),
        name: `${accountId[0]!.toUpperCase()}${accountId.slice(1)}`,
        username: accountId,
      };
      users.set(accountId, u);
    }
    return u;
  };
  const s = startStandIn({
    spec,
    route: (path) => (path.startsWith("/2/") ? { path } : null),
    invalid: (problems) => ({
      status: 400,
      body: {
        errors: problems.map((p) => ({ message: p })),
        title: "Invalid Request",
        detail: "One or more parameters to your request was invalid.",
        type: "https://api.x.com/2/problems/invalid-request",
      },
    }),
    documentedElsewhere: {
      401: "docs.x.com/x-api/fundamentals/response-codes-and-errors: 401 Unauthorized (about:blank)",
      429: "docs.x.com/x-api/fundamentals/rate-limits: 429 Too Many Requests with x-rate-limit-reset",
      503: "docs.x.com/x-api/fundamentals/response-codes-and-errors: 503 Service Unavailable",
    },
    failure(kind) {
      if (kind === "rate_limited")
        return {
          status: 429,
          body: { title: "Too Many Requests", detail: "Too Many Requests", type: "about:blank", status: 429 },
          headers: { "x-rate-limit-reset": String(Math.floor(Date.now() / 1000) + 60) },
        };
      if (kind === "revoked") return unauthorized;
      return { status: 503, body: { title: "Service Unavailable", type: "about:blank", status: 503 } };
    },
    async handle(req) {
      const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? "")?.[1];
      const account = token ? await auth.accountOf(token) : null;
      if (!account) return unauthorized;
      if (req.method === "GET" && req.path === "/2/users/me") {
        const u = userOf(account);
        const withImage = (req.query["user.fields"] ?? "").split(",").includes("profile_image_url");
        return {
          status: 200,
          body: {
            data: {
              ...u,
              ...(withImage
                ? { profile_image_url: `https://pbs.twimg.com/profile_images/${u.id}/a_normal.jpg` }
                : {}),
            },
          },
        };
      }
      return {
        status: 404,
        body: { title: "Not Found Error", detail: "Not found", type: "about:blank", status: 404 },
      };
    },
  });
  return Object.assign(s, { userOf });
}
