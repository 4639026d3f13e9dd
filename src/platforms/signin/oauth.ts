// The OAuth 2 authorization-code client for sign-in connections, over oauth4webapi (loaded on first use: only a
// sign-in or a renewal needs it). Every request to a network's token endpoint goes through the guarded client,
// like the rest of an adapter's traffic. Nothing here touches the database: the domain keeps state and tokens.
import type { App } from "../../app/context.ts";
import { networksAllow } from "../../net/allow.ts";
import { type FetchLike, guardedFetch } from "../../net/guarded-fetch.ts";
import { providerOrigin } from "../plumbing/origins.ts";
import type { SignInSpec } from "./specs.ts";

type OAuth = typeof import("oauth4webapi");
let lib: Promise<OAuth> | null = null;
const oauth = () => {
  lib ??= import("oauth4webapi");
  return lib;
};

export interface Tokens {
  access_token: string;
  /** null when the network issued none (it cannot be renewed then). */
  refresh_token: string | null;
  /** Epoch ms; null when the network gave no lifetime. */
  expires_at: number | null;
  scope: string | null;
  /** Tokens per account key, where each account publishes with its own (Facebook Pages); absent elsewhere. */
  account_tokens?: Record<string, string>;
}

export interface SignInClient {
  clientId: string;
  clientSecret: string;
}

/** Why a token request did not give tokens: `refused` by the network (a bad code, a revoked grant), else unavailable. */
export class TokenError extends Error {
  constructor(
    readonly kind: "refused" | "unavailable",
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = "TokenError";
  }
}

interface Endpoints {
  authorize: URL;
  token: URL;
  /** The authorization server as oauth4webapi sees it (it checks an ID token's issuer against `issuer`). */
  server: { issuer: string; authorization_endpoint: string; token_endpoint: string };
}

/**
 * A network's endpoints under this configuration, made once per configuration and network: a renewal run asks
 * for them once per channel. The URLs are never handed out (callers get copies or strings).
 */
const endpointsOf = new WeakMap<App["config"], Map<string, Endpoints>>();

function endpointsFor(app: App, spec: SignInSpec): Endpoints {
  let byProvider = endpointsOf.get(app.config);
  if (!byProvider) {
    byProvider = new Map();
    endpointsOf.set(app.config, byProvider);
  }
  let e = byProvider.get(spec.provider);
  if (!e) {
    const authorize = new URL(
      spec.authorize.path,
      providerOrigin(app, `${spec.provider}.auth`, spec.authorize.origin),
    );
    const token = new URL(spec.token.path, providerOrigin(app, `${spec.provider}.token`, spec.token.origin));
    const pointed = app.config.providerOrigins[`${spec.provider}.auth`] !== undefined;
    e = {
      authorize,
      token,
      server: {
        issuer: pointed ? authorize.origin : (spec.issuer ?? authorize.origin),
        authorization_endpoint: authorize.href,
        token_endpoint: token.href,
      },
    };
    byProvider.set(spec.provider, e);
  }
  return e;
}

function endpoints(app: App, spec: SignInSpec) {
  const e = endpointsFor(app, spec);
  return { authorize: new URL(e.authorize.href), token: new URL(e.token.href) };
}

function server(app: App, spec: SignInSpec) {
  return endpointsFor(app, spec).server;
}

/** The guarded fetch for token requests, one per configuration (the allow setting is parsed once per process). */
const fetches = new WeakMap<App["config"], FetchLike>();

async function options(app: App, spec: SignInSpec, clientId: string, signal?: AbortSignal) {
  const o = await oauth();
  let fetch = fetches.get(app.config);
  if (!fetch) {
    // The parsed, named setting: a refusal names SVC_ALLOW_PRIVATE_NETWORKS.
    fetch = guardedFetch({ allow: networksAllow(app.config), timeoutMs: 30_000 });
    fetches.set(app.config, fetch);
  }
  const f = fetch;
  const { token } = endpointsFor(app, spec);
  return {
    // A network that reads the client ID under its own name (TikTok's client_key) gets it there too.
    ...(spec.clientIdParam ? { additionalParameters: { [spec.clientIdParam]: clientId } } : {}),
    [o.customFetch]: (url: string, init: RequestInit) => f(url, signal ? { ...init, signal } : init),
    // Plain http only where an operator pointed the endpoint at a local server (a proxy, a test's server).
    ...(token.protocol === "http:" ? { [o.allowInsecureRequests]: true } : {}),
  };
}

async function clientAuth(spec: SignInSpec, c: SignInClient) {
  const o = await oauth();
  return spec.clientAuth === "basic"
    ? o.ClientSecretBasic(c.clientSecret)
    : o.ClientSecretPost(c.clientSecret);
}

/** A new random state and (where the network takes PKCE) a verifier with its S256 challenge. */
export async function newSignIn(spec: SignInSpec) {
  const o = await oauth();
  const state = o.generateRandomState();
  if (!spec.pkce) return { state, verifier: null, challenge: null };
  const verifier = o.generateRandomCodeVerifier();
  return { state, verifier, challenge: await o.calculatePKCECodeChallenge(verifier) };
}

/** Where the person's browser goes to sign in to the network. */
export function authorizeUrl(
  app: App,
  spec: SignInSpec,
  p: { clientId: string; redirectUri: string; state: string; challenge: string | null },
): string {
  const url = new URL(server(app, spec).authorization_endpoint);
  url.searchParams.set("response_type", "code");
  url.searchParams.set("client_id", p.clientId);
  if (spec.clientIdParam) url.searchParams.set(spec.clientIdParam, p.clientId);
  url.searchParams.set("redirect_uri", p.redirectUri);
  url.searchParams.set("scope", spec.scopes.join(spec.scopeSeparator ?? " "));
  for (const [k, v] of Object.entries(spec.authorizeParams ?? {})) url.searchParams.set(k, v);
  url.searchParams.set("state", p.state);
  if (p.challenge) {
    url.searchParams.set("code_challenge", p.challenge);
    url.searchParams.set("code_challenge_method", "S256");
  }
  return url.href;
}

function tokensOf(
  r: { access_token: string; refresh_token?: string; expires_in?: number; scope?: string },
  now: number,
): Tokens {
  return {
    access_token: r.access_token,
    refresh_token: r.refresh_token ?? null,
    expires_at: typeof r.expires_in === "number" ? now + r.expires_in * 1000 : null,
    scope: r.scope ?? null,
  };
}

/** Turns a token-endpoint failure into a TokenError: an OAuth error answer is a refusal, anything else not. */
async function classify(e: unknown): Promise<TokenError> {
  const o = await oauth();
  if (e instanceof o.ResponseBodyError)
    return new TokenError("refused", `${e.error}${e.error_description ? `: ${e.error_description}` : ""}`, {
      cause: e,
    });
  if (e instanceof o.AuthorizationResponseError)
    return new TokenError("refused", `${e.error}${e.error_description ? `: ${e.error_description}` : ""}`, {
      cause: e,
    });
  return new TokenError("unavailable", (e as Error)?.message ?? String(e), { cause: e });
}

/**
 * The callback's code exchanged for tokens. The state was already checked by the caller (it is stored hashed and
 * claimed once), so the library is told to skip its own comparison.
 */
export async function exchangeCode(
  app: App,
  spec: SignInSpec,
  client: SignInClient,
  p: { callbackUrl: URL; redirectUri: string; verifier: string | null; signal?: AbortSignal },
): Promise<Tokens> {
  if (spec.flavor) {
    const meta = await import("../meta/oauth.ts");
    return metaTokens(
      meta.exchangeMetaCode(app, spec, client, {
        token: endpoints(app, spec).token,
        code: p.callbackUrl.searchParams.get("code") ?? "",
        redirectUri: p.redirectUri,
        verifier: p.verifier,
        ...(p.signal ? { signal: p.signal } : {}),
      }),
    );
  }
  const o = await oauth();
  const as = server(app, spec);
  const c = { client_id: client.clientId };
  try {
    const params = o.validateAuthResponse(as, c, p.callbackUrl, o.skipStateCheck);
    const res = await o.authorizationCodeGrantRequest(
      as,
      c,
      await clientAuth(spec, client),
      params,
      p.redirectUri,
      p.verifier ?? o.nopkce,
      await options(app, spec, client.clientId, p.signal),
    );
    return tokensOf(await o.processAuthorizationCodeResponse(as, c, res), app.clock.now());
  } catch (e) {
    throw await classify(e);
  }
}

/** New tokens for a refresh token. A network that rotates refresh tokens returns a new one to keep. */
export async function refreshTokens(
  app: App,
  spec: SignInSpec,
  client: SignInClient,
  refreshToken: string,
  signal?: AbortSignal,
): Promise<Tokens> {
  if (spec.flavor) {
    const meta = await import("../meta/oauth.ts");
    return metaTokens(
      meta.refreshMetaToken(app, spec, client, refreshToken, endpoints(app, spec).token, signal),
    );
  }
  const o = await oauth();
  const as = server(app, spec);
  const c = { client_id: client.clientId };
  try {
    const res = await o.refreshTokenGrantRequest(
      as,
      c,
      await clientAuth(spec, client),
      refreshToken,
      await options(app, spec, client.clientId, signal),
    );
    const t = tokensOf(await o.processRefreshTokenResponse(as, c, res), app.clock.now());
    // A network that does not rotate keeps the refresh token it had.
    return { ...t, refresh_token: t.refresh_token ?? refreshToken };
  } catch (e) {
    throw await classify(e);
  }
}

/** Meta's token requests (not plain OAuth 2: platforms/meta/oauth.ts), their failures as TokenErrors. */
async function metaTokens(p: Promise<Tokens>): Promise<Tokens> {
  try {
    return await p;
  } catch (e) {
    if (e instanceof Error && e.name === "MetaTokenError")
      throw new TokenError((e as Error & { kind: TokenError["kind"] }).kind, e.message, { cause: e });
    throw e;
  }
}

/** The error a network sent to the callback instead of a code (the person declined, say), or null. */
export function callbackError(url: URL): string | null {
  const error = url.searchParams.get("error");
  if (!error) return null;
  const d = url.searchParams.get("error_description");
  return d ? `${error}: ${d}` : error;
}
