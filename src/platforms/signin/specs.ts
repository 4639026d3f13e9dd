// What a network's sign-in (OAuth 2 authorization code) needs, as data: where the person signs in, where codes
// and refresh tokens are exchanged, the scopes, whether PKCE is supported, and how the client authenticates
// (reference §5). Each endpoint's origin can be pointed elsewhere with SVC_PROVIDER_ORIGINS: `<provider>.auth` for
// the sign-in page, `<provider>.token` for the token endpoint (the API itself stays `<provider>`).
import type { Provider } from "../types.ts";

export interface SignInSpec {
  provider: Provider;
  /** The sign-in page: the `<provider>.auth` origin (or this default) + path. */
  authorize: { origin: string; path: string };
  /** The token endpoint: the `<provider>.token` origin (or this default) + path. */
  token: { origin: string; path: string };
  scopes: string[];
  /** Send a PKCE S256 challenge (the network supports it for confidential web clients). */
  pkce: boolean;
  /** client_secret_basic or client_secret_post at the token endpoint, as the network documents. */
  clientAuth: "basic" | "post";
  /**
   * The issuer the network writes in the ID token it returns with "openid" (LinkedIn's is not its sign-in page's
   * origin); the sign-in page's origin when unset or when the endpoints are pointed elsewhere.
   */
  issuer?: string;
  /** Parameters the sign-in page needs beyond OAuth's (Google's `access_type=offline` for a refresh token). */
  authorizeParams?: Record<string, string>;
  /**
   * The name the network reads the client ID under, where it is not OAuth's `client_id` (TikTok's `client_key`):
   * sent under both names to the sign-in page and the token endpoint.
   */
  clientIdParam?: string;
  /** How scopes are joined in the sign-in URL (TikTok: commas); default a space, as OAuth says. */
  scopeSeparator?: string;
  /** The network's word for the client ID on its developer site. */
  clientIdLabel: string;
  /** Where the app is registered, for the form's help. */
  developerSite: string;
  /**
   * Meta's token endpoints are not plain OAuth 2 (no token_type from Threads, no refresh tokens, a long-lived token
   * got by a second exchange): `meta` (Facebook Login) and `threads` go through platforms/meta/oauth.ts instead.
   */
  flavor?: "meta" | "threads";
  /** The access token itself renews (Threads' th_refresh_token): no refresh token is kept. */
  renewsAccessToken?: boolean;
}

const specs: SignInSpec[] = [
  {
    provider: "x",
    // https://docs.x.com/resources/fundamentals/authentication/oauth-2-0/authorization-code
    authorize: { origin: "https://x.com", path: "/i/oauth2/authorize" },
    token: { origin: "https://api.x.com", path: "/2/oauth2/token" },
    scopes: ["tweet.read", "tweet.write", "users.read", "media.write", "offline.access"],
    pkce: true,
    clientAuth: "basic",
    clientIdLabel: "OAuth 2.0 Client ID",
    developerSite: "https://developer.x.com/en/portal/dashboard",
  },
  {
    provider: "linkedin",
    // https://learn.microsoft.com/linkedin/shared/authentication/authorization-code-flow
    authorize: { origin: "https://www.linkedin.com", path: "/oauth/v2/authorization" },
    token: { origin: "https://www.linkedin.com", path: "/oauth/v2/accessToken" },
    scopes: ["openid", "profile", "w_member_social"],
    issuer: "https://www.linkedin.com/oauth",
    // LinkedIn documents PKCE only for native clients; a web app signs in with its secret.
    pkce: false,
    clientAuth: "post",
    clientIdLabel: "Client ID",
    developerSite: "https://www.linkedin.com/developers/apps",
  },
  {
    provider: "linkedin_pages",
    authorize: { origin: "https://www.linkedin.com", path: "/oauth/v2/authorization" },
    token: { origin: "https://www.linkedin.com", path: "/oauth/v2/accessToken" },
    scopes: ["r_organization_admin", "w_organization_social"],
    pkce: false,
    clientAuth: "post",
    clientIdLabel: "Client ID",
    developerSite: "https://www.linkedin.com/developers/apps",
  },
  {
    provider: "pinterest",
    // https://developers.pinterest.com/docs/getting-started/set-up-authentication-and-authorization/
    authorize: { origin: "https://www.pinterest.com", path: "/oauth/" },
    token: { origin: "https://api.pinterest.com", path: "/v5/oauth/token" },
    scopes: ["boards:read", "pins:read", "pins:write", "user_accounts:read"],
    pkce: false,
    clientAuth: "basic",
    clientIdLabel: "App ID",
    developerSite: "https://developers.pinterest.com/apps/",
  },
  {
    provider: "facebook",
    // https://developers.facebook.com/docs/facebook-login/guides/advanced/manual-flow (with PKCE: code_challenge,
    // code_verifier at the exchange); each Page's token comes with GET /me/accounts.
    authorize: { origin: "https://www.facebook.com", path: "/v25.0/dialog/oauth" },
    token: { origin: "https://graph.facebook.com", path: "/v25.0/oauth/access_token" },
    scopes: ["pages_show_list", "pages_read_engagement", "pages_manage_posts", "pages_manage_engagement"],
    pkce: true,
    clientAuth: "post",
    clientIdLabel: "App ID",
    developerSite: "https://developers.facebook.com/apps/",
    flavor: "meta",
  },
  {
    provider: "instagram",
    // Instagram API with Facebook Login: the same Meta app and dialog; the professional accounts linked to the
    // person's Pages, published to with each Page's token.
    // https://developers.facebook.com/docs/instagram-platform/instagram-api-with-facebook-login/get-started
    authorize: { origin: "https://www.facebook.com", path: "/v25.0/dialog/oauth" },
    token: { origin: "https://graph.facebook.com", path: "/v25.0/oauth/access_token" },
    scopes: [
      "instagram_basic",
      "instagram_content_publish",
      "instagram_manage_comments",
      "instagram_manage_insights",
      "pages_show_list",
      "pages_read_engagement",
    ],
    pkce: true,
    clientAuth: "post",
    clientIdLabel: "App ID",
    developerSite: "https://developers.facebook.com/apps/",
    flavor: "meta",
  },
  {
    provider: "threads",
    // https://developers.facebook.com/docs/threads/get-started/get-access-tokens-and-permissions
    authorize: { origin: "https://threads.net", path: "/oauth/authorize" },
    token: { origin: "https://graph.threads.net", path: "/oauth/access_token" },
    scopes: [
      "threads_basic",
      "threads_content_publish",
      "threads_manage_insights",
      "threads_manage_replies",
      "threads_delete",
    ],
    // Threads documents no PKCE; the secret goes with the code.
    pkce: false,
    clientAuth: "post",
    clientIdLabel: "Threads App ID",
    developerSite: "https://developers.facebook.com/apps/",
    flavor: "threads",
    renewsAccessToken: true,
  },
  {
    provider: "youtube",
    // https://developers.google.com/identity/protocols/oauth2/web-server (PKCE and access_type=offline;
    // prompt=consent so a second sign-in is given a refresh token again)
    authorize: { origin: "https://accounts.google.com", path: "/o/oauth2/v2/auth" },
    token: { origin: "https://oauth2.googleapis.com", path: "/token" },
    // youtube.force-ssl is what commentThreads.insert needs (a first comment); a channel connected before it was
    // asked for posts videos as before and gets its first comments once reconnected.
    scopes: [
      "https://www.googleapis.com/auth/youtube.upload",
      "https://www.googleapis.com/auth/youtube.readonly",
      "https://www.googleapis.com/auth/youtube.force-ssl",
    ],
    authorizeParams: { access_type: "offline", prompt: "consent", include_granted_scopes: "true" },
    pkce: true,
    clientAuth: "post",
    issuer: "https://accounts.google.com",
    clientIdLabel: "OAuth client ID",
    developerSite: "https://console.cloud.google.com/apis/credentials",
  },
  {
    provider: "tiktok",
    // https://developers.tiktok.com/doc/login-kit-web (authorize: client_key, comma-separated scopes, PKCE S256)
    // https://developers.tiktok.com/doc/oauth-user-access-token-management (token and refresh: client_key and
    // client_secret in the form; refresh tokens rotate)
    authorize: { origin: "https://www.tiktok.com", path: "/v2/auth/authorize/" },
    token: { origin: "https://open.tiktokapis.com", path: "/v2/oauth/token/" },
    scopes: ["user.info.basic", "video.publish", "video.upload"],
    scopeSeparator: ",",
    clientIdParam: "client_key",
    pkce: true,
    clientAuth: "post",
    clientIdLabel: "Client key",
    developerSite: "https://developers.tiktok.com/apps/",
  },
];

const byProvider: ReadonlyMap<string, SignInSpec> = new Map(specs.map((s) => [s.provider, s]));

/** The sign-in facts of a provider that connects through a developer app; null for every other provider. */
export function signInSpec(provider: string): SignInSpec | null {
  return byProvider.get(provider) ?? null;
}

/** Providers whose channels connect by signing in through a developer app. */
export const signInProviders: readonly Provider[] = specs.map((s) => s.provider);
