// Meta's sign-in token requests, which are not plain OAuth 2 and so do not go through oauth4webapi:
// - Facebook Login (Facebook Pages, Instagram): the code is exchanged at /oauth/access_token for a short-lived
//   user token, which is exchanged at once for a long-lived one (grant_type=fb_exchange_token, about 60 days);
//   the Page tokens read with a long-lived user token do not expire, so nothing is renewed afterwards.
//   developers.facebook.com/docs/facebook-login/guides/advanced/manual-flow, .../guides/access-tokens/get-long-lived
// - Threads: the code is exchanged at graph.threads.net/oauth/access_token (the answer has no token_type, which
//   oauth4webapi requires) for a one-hour token, exchanged for a 60-day one (th_exchange_token), which is renewed
//   with itself (th_refresh_token) before it ends. developers.facebook.com/docs/threads/get-started/long-lived-tokens
import type { App } from "../../app/context.ts";
import { field, type NetworkResponse, NoAnswer, networkRequest, str } from "../plumbing/http.ts";
import type { SignInSpec } from "../signin/specs.ts";

/** The sign-in's tokens, as signin/oauth.ts keeps them (the same shape; that module calls this one). */
export interface MetaTokens {
  access_token: string;
  refresh_token: null;
  expires_at: number | null;
  scope: null;
}

/** Why a token request gave no tokens; signin/oauth.ts turns it into its TokenError. */
export class MetaTokenError extends Error {
  constructor(
    readonly kind: "refused" | "unavailable",
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = "MetaTokenError";
  }
}

interface Client {
  clientId: string;
  clientSecret: string;
}

function tokensOf(app: App, res: NetworkResponse): MetaTokens {
  const access = str(field(res.json, "access_token"));
  if (!access) throw new MetaTokenError("unavailable", "the answer carried no access token");
  const ttl = field(res.json, "expires_in");
  return {
    access_token: access,
    refresh_token: null,
    expires_at: typeof ttl === "number" && ttl > 0 ? app.clock.now() + ttl * 1000 : null,
    scope: null,
  };
}

/** A token request's answer as tokens; Meta's {error:{message,type,code}} on a 4xx is a refusal. */
async function tokenRequest(app: App, req: Parameters<typeof networkRequest>[1]): Promise<MetaTokens> {
  let res: NetworkResponse;
  try {
    res = await networkRequest(app, { timeoutMs: 30_000, ...req });
  } catch (e) {
    if (e instanceof NoAnswer) throw new MetaTokenError("unavailable", e.message, { cause: e });
    throw e;
  }
  if (res.status === 200) return tokensOf(app, res);
  const err = field(res.json, "error");
  const why = str(field(err, "message")) ?? str(field(res.json, "error_message")) ?? res.text.slice(0, 200);
  if (res.status >= 400 && res.status < 500)
    throw new MetaTokenError("refused", `${str(field(err, "type")) ?? "OAuthException"}: ${why}`);
  throw new MetaTokenError("unavailable", `HTTP ${res.status}: ${why}`);
}

const withQuery = (url: URL, q: Record<string, string>) => {
  const u = new URL(url);
  for (const [k, v] of Object.entries(q)) u.searchParams.set(k, v);
  return u.href;
};

export async function exchangeMetaCode(
  app: App,
  spec: SignInSpec,
  client: Client,
  p: { token: URL; code: string; redirectUri: string; verifier: string | null; signal?: AbortSignal },
): Promise<MetaTokens> {
  const { token } = p;
  const signal = p.signal ? { signal: p.signal } : {};
  const short = await tokenRequest(app, {
    method: "POST",
    url: token.href,
    form: {
      client_id: client.clientId,
      client_secret: client.clientSecret,
      redirect_uri: p.redirectUri,
      code: p.code,
      ...(spec.flavor === "threads" ? { grant_type: "authorization_code" } : {}),
      ...(p.verifier ? { code_verifier: p.verifier } : {}),
    },
    ...signal,
  });
  if (spec.flavor === "threads")
    return tokenRequest(app, {
      method: "GET",
      url: withQuery(new URL("/access_token", token), {
        grant_type: "th_exchange_token",
        client_secret: client.clientSecret,
        access_token: short.access_token,
      }),
      ...signal,
    });
  return tokenRequest(app, {
    method: "GET",
    url: withQuery(token, {
      grant_type: "fb_exchange_token",
      client_id: client.clientId,
      client_secret: client.clientSecret,
      fb_exchange_token: short.access_token,
    }),
    ...signal,
  });
}

/**
 * Renews a long-lived token with itself. Only Threads' tokens renew this way; a Facebook Page token does not
 * expire, and a user token that ended needs a new sign-in (refused, so the channel asks for one).
 */
export async function refreshMetaToken(
  app: App,
  spec: SignInSpec,
  _client: Client,
  accessToken: string,
  token: URL,
  signal?: AbortSignal,
): Promise<MetaTokens> {
  if (spec.flavor !== "threads")
    throw new MetaTokenError("refused", "a Facebook Login token cannot be renewed without signing in again");
  return tokenRequest(app, {
    method: "GET",
    url: withQuery(new URL("/refresh_access_token", token), {
      grant_type: "th_refresh_token",
      access_token: accessToken,
    }),
    ...(signal ? { signal } : {}),
  });
}
