// How a request to X is authorized. A channel connected by signing in holds the user's OAuth 2 token (Bearer). A
// channel connected with pasted keys holds OAuth 1.0a user-context credentials (docs.x.com "OAuth 1.0a: user
// context": the app's consumer key and secret with the account's access token and secret); each request is then
// signed (HMAC-SHA1 over the method, the URL and its query parameters) by oauth-1.0a, a maintained implementation
// of RFC 5849, rather than by hand. JSON and multipart bodies are not part of the signature (RFC 5849 §3.4.1.3
// signs only form-encoded bodies), which is what X expects for API v2. oauth-1.0a loads on the first signed request:
// most installs never have such a channel.
import { createHmac } from "node:crypto";

export type XSecrets = Record<string, string>;

/** A channel with pasted OAuth 1.0a keys (its secrets hold the access token's secret). */
export const isOAuth1 = (secrets: XSecrets) => secrets.access_token_secret !== undefined;

type OAuthClass = typeof import("oauth-1.0a");
let loaded: Promise<OAuthClass> | null = null;
const oauthLibrary = () => {
  loaded ??= import("oauth-1.0a").then((m) => m.default);
  return loaded;
};

/** The headers that authorize `method url` for the channel's credentials. */
export async function xAuthHeaders(
  secrets: XSecrets,
  method: string,
  url: string,
): Promise<Record<string, string>> {
  if (!isOAuth1(secrets)) return { authorization: `Bearer ${secrets.access_token ?? ""}` };
  const OAuth = await oauthLibrary();
  const oauth = new OAuth({
    consumer: { key: secrets.api_key ?? "", secret: secrets.api_key_secret ?? "" },
    signature_method: "HMAC-SHA1",
    hash_function: (base, key) => createHmac("sha1", key).update(base).digest("base64"),
  });
  const signed = oauth.authorize(
    { url, method },
    { key: secrets.access_token ?? "", secret: secrets.access_token_secret ?? "" },
  );
  return { authorization: oauth.toHeader(signed).Authorization };
}
