// A real OAuth 2 authorization server for sign-in connections: oidc-provider on 127.0.0.1, configured the way a
// network documents its OAuth 2 (X's paths, scopes and client authentication; PKCE required; refresh tokens that
// rotate, so a refresh token used twice is refused and ends the grant). Its own development login and consent
// pages stand in for the network's: any login name with any password signs in as that account.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface OAuthServer {
  url: string;
  // biome-ignore lint/suspicious/noExplicitAny: oidc-provider's Provider type
  provider: any;
  /** Token endpoint answers so far: grants given and refused (a reused refresh token is one of these). */
  tokenAnswers: { granted: number; refused: string[] };
  /** Registers the client (the developer app) once svc's redirect URI is known. */
  start(client: { clientId: string; clientSecret: string; redirectUri: string }): Promise<void>;
  /** The account an access token belongs to, or null when it is unknown, expired or revoked. */
  accountOf(accessToken: string): Promise<string | null>;
  /**
   * Tokens for an account as a finished consent leaves them (a grant with the scopes, an access token and a
   * refresh token, saved by the server itself), for tests that start after the sign-in.
   */
  issue(
    accountId: string,
    clientId: string,
    /** The scopes granted, when fewer than the server's (a consent given before an app asked for more). */
    scopes?: string[],
  ): Promise<{ access_token: string; refresh_token: string }>;
  /**
   * Runs once the token endpoint has its answer and before it is sent (the answer waits for it), with the refresh
   * token the request sent: what happens elsewhere while the network answers. Null: nothing.
   */
  beforeTokenAnswer: ((refreshToken: string | undefined) => Promise<void>) | null;
  /** Ends every grant of an account (the person removed the app's access on the network). */
  revokeGrants(accountId: string): Promise<void>;
  close(): Promise<void>;
}

export interface OAuthServerOptions {
  /** Paths of the authorization and token endpoints (default X's). */
  routes?: { authorization: string; token: string };
  scopes?: string[];
  /** Access token lifetime in seconds (X: two hours). */
  accessTokenTtl?: number;
  tokenEndpointAuthMethod?: "client_secret_basic" | "client_secret_post";
  /** Require PKCE (X does; Pinterest and LinkedIn web apps sign in without it). Default true. */
  pkce?: boolean;
}

export async function oauthServer(opts: OAuthServerOptions = {}): Promise<OAuthServer> {
  // biome-ignore lint/suspicious/noExplicitAny: the Koa handler, set once the provider exists
  let handler: any = (_req: unknown, res: { statusCode: number; end(): void }) => {
    res.statusCode = 503;
    res.end();
  };
  const server: Server = createServer((req, res) => handler(req, res));
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // biome-ignore lint/suspicious/noExplicitAny: set in start()
  let provider: any = null;
  const note = (t: { accountId?: string; grantId?: string }) => {
    if (!t.accountId || !t.grantId) return;
    if (!grants.has(t.accountId)) grants.set(t.accountId, new Set());
    grants.get(t.accountId)!.add(t.grantId);
  };
  // Grants by account, so a test can end them as the network would.
  const grants = new Map<string, Set<string>>();
  const tokenAnswers = { granted: 0, refused: [] as string[] };
  const out: OAuthServer = {
    url,
    tokenAnswers,
    beforeTokenAnswer: null,
    get provider() {
      return provider;
    },
    async start(client) {
      const { default: Provider } = await import("oidc-provider");
      provider = new Provider(url, {
        clients: [
          {
            client_id: client.clientId,
            client_secret: client.clientSecret,
            redirect_uris: [client.redirectUri],
            grant_types: ["authorization_code", "refresh_token"],
            response_types: ["code"],
            token_endpoint_auth_method: opts.tokenEndpointAuthMethod ?? "client_secret_basic",
          },
        ],
        routes: opts.routes ?? { authorization: "/i/oauth2/authorize", token: "/2/oauth2/token" },
        scopes: opts.scopes ?? ["tweet.read", "tweet.write", "users.read", "media.write", "offline.access"],
        pkce: { required: () => opts.pkce ?? true },
        rotateRefreshToken: true,
        // X issues a refresh token when offline.access is granted; any client allowed the grant gets one here.
        issueRefreshToken: async (_ctx: unknown, c: { grantTypeAllowed(t: string): boolean }) =>
          c.grantTypeAllowed("refresh_token"),
        ttl: {
          AccessToken: opts.accessTokenTtl ?? 7200,
          AuthorizationCode: 60,
          RefreshToken: 60 * 60 * 24 * 30,
          Grant: 60 * 60 * 24 * 30,
          Interaction: 60 * 60,
          Session: 60 * 60,
        },
        findAccount: async (_ctx: unknown, sub: string) => ({
          accountId: sub,
          claims: async () => ({ sub }),
        }),
        features: { devInteractions: { enabled: true }, revocation: { enabled: true } },
        cookies: { keys: ["test-cookie-key-for-oidc-provider"] },
      });
      provider.on("grant.success", () => {
        tokenAnswers.granted++;
      });
      provider.on("grant.error", (_ctx: unknown, err: { message: string; error_description?: string }) => {
        tokenAnswers.refused.push(err.error_description ?? err.message);
      });
      provider.on("access_token.saved", note);
      provider.on("refresh_token.saved", note);
      provider.use(
        async (
          ctx: { path: string; oidc?: { params?: { refresh_token?: string } } },
          next: () => Promise<void>,
        ) => {
          await next();
          const hook = out.beforeTokenAnswer;
          if (hook && ctx.path === (opts.routes?.token ?? "/2/oauth2/token"))
            await hook(ctx.oidc?.params?.refresh_token);
        },
      );
      handler = provider.callback();
    },
    async accountOf(accessToken) {
      const t = await provider.AccessToken.find(accessToken);
      if (!t || t.isExpired) return null;
      const grant = await provider.Grant.find(t.grantId);
      return grant ? t.accountId : null;
    },
    async issue(accountId, clientId, scopes) {
      const scope = (
        scopes ??
        opts.scopes ?? ["tweet.read", "tweet.write", "users.read", "media.write", "offline.access"]
      ).join(" ");
      const client = await provider.Client.find(clientId);
      const grant = new provider.Grant({ accountId, clientId });
      grant.addOIDCScope(scope);
      const grantId = await grant.save();
      const common = {
        accountId,
        client,
        grantId,
        scope,
        gty: "authorization_code",
        expiresWithSession: false,
      };
      const access_token = await new provider.AccessToken(common).save();
      const refresh_token = await new provider.RefreshToken(common).save();
      note({ accountId, grantId });
      return { access_token, refresh_token };
    },
    async revokeGrants(accountId) {
      // Ending the grant ends every token issued under it (oidc-provider checks the grant on each use).
      for (const id of grants.get(accountId) ?? []) {
        const g = await provider.Grant.find(id);
        if (g) await g.destroy();
      }
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
  return out;
}
