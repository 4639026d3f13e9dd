// A company's OpenID Connect provider for single sign-on tests: oidc-provider on 127.0.0.1 with its development
// login page (any password signs in as the account named), accounts with the email claims a test sets, consent
// granted by the company (no consent page), and ID tokens signed with an RSA key the test holds. `tamper` rewrites
// the next ID token the token endpoint answers with (re-signed with the provider's own key, so only the changed
// claim is wrong): a wrong nonce, audience or lifetime reaches svc as a real provider's mistake would.
import { createPrivateKey, generateKeyPairSync, sign } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface IdpAccount {
  email?: string;
  email_verified?: boolean;
  name?: string;
}

export interface Idp {
  url: string;
  client: { clientId: string; clientSecret: string };
  accounts: Map<string, IdpAccount>;
  /** Changes the claims of the next ID token issued (signed by another key with `foreignKey`). */
  tamper(fn: (claims: Record<string, unknown>) => void, opts?: { foreignKey?: boolean }): void;
  /** Answers 503 to everything (down) or serves again. */
  setDown(down: boolean): void;
  /** Follows an authorization URL through the login page as `login` (cookie jar kept per call); returns where the
   * provider sends the browser back (svc's callback URL with code and state). */
  signIn(authorizationUrl: string, login: string): Promise<URL>;
  close(): Promise<void>;
}

const b64url = (b: Buffer | string) => Buffer.from(b).toString("base64url");

export async function oidcIdp(redirectUri: string): Promise<Idp> {
  const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const jwk = { ...privateKey.export({ format: "jwk" }), kid: "idp-key-1", use: "sig", alg: "RS256" };
  const accounts = new Map<string, IdpAccount>();
  let tamperNext: ((c: Record<string, unknown>) => void) | null = null;
  let signer = privateKey;
  const foreign = generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey;
  let down = false;
  // biome-ignore lint/suspicious/noExplicitAny: the Koa handler
  let handler: any = null;
  const server: Server = createServer((req, res) => {
    if (down) {
      res.statusCode = 503;
      res.end();
      return;
    }
    if (req.method === "POST" && req.url?.startsWith("/token") && tamperNext) {
      const fn = tamperNext;
      tamperNext = null;
      const end = res.end.bind(res);
      // biome-ignore lint/suspicious/noExplicitAny: res.end's overloads
      (res as any).end = (chunk: any, ...rest: any[]) => {
        const body = JSON.parse(String(chunk));
        if (body.id_token) {
          const [h, p] = body.id_token.split(".");
          const claims = JSON.parse(Buffer.from(p, "base64url").toString());
          fn(claims);
          const data = `${h}.${b64url(JSON.stringify(claims))}`;
          body.id_token = `${data}.${b64url(sign("sha256", Buffer.from(data), createPrivateKey(signer.export({ format: "pem", type: "pkcs8" }))))}`;
        }
        const text = JSON.stringify(body);
        res.setHeader("content-length", Buffer.byteLength(text));
        return end(text, ...rest);
      };
    }
    handler(req, res);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const client = { clientId: "svc-sso-client", clientSecret: "sso-client-secret-0123456789" };
  const { default: Provider } = await import("oidc-provider");
  const provider = new Provider(url, {
    clients: [
      {
        client_id: client.clientId,
        client_secret: client.clientSecret,
        redirect_uris: [redirectUri],
        grant_types: ["authorization_code"],
        response_types: ["code"],
        token_endpoint_auth_method: "client_secret_basic",
      },
    ],
    jwks: { keys: [jwk] },
    claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name"] },
    pkce: { required: () => true },
    findAccount: async (_ctx: unknown, sub: string) => ({
      accountId: sub,
      claims: async () => ({ sub, ...(accounts.get(sub) ?? {}) }),
    }),
    // The company has approved svc for its people: no consent page.
    loadExistingGrant: async (ctx: {
      oidc: {
        client: { clientId: string };
        session: { accountId: string };
        provider: {
          Grant: new (
            o: unknown,
          ) => { addOIDCScope(s: string): void; addOIDCClaims(c: string[]): void; save(): Promise<string> };
        };
      };
    }) => {
      const grant = new ctx.oidc.provider.Grant({
        clientId: ctx.oidc.client.clientId,
        accountId: ctx.oidc.session.accountId,
      });
      grant.addOIDCScope("openid email profile");
      grant.addOIDCClaims(["email", "email_verified", "name"]);
      await grant.save();
      return grant;
    },
    features: { devInteractions: { enabled: true } },
    cookies: { keys: ["test-cookie-key-for-the-idp"] },
  });
  handler = provider.callback();

  async function signIn(authorizationUrl: string, login: string): Promise<URL> {
    const jar = new Map<string, string>();
    const cookie = () => [...jar].map(([k, v]) => `${k}=${v}`).join("; ");
    let next: { url: string; init: RequestInit } = { url: authorizationUrl, init: { method: "GET" } };
    for (let hop = 0; hop < 15; hop++) {
      const res = await fetch(next.url, {
        ...next.init,
        redirect: "manual",
        headers: { ...(next.init.headers as Record<string, string>), cookie: cookie() },
      });
      for (const line of res.headers.getSetCookie()) {
        const [pair] = line.split(";");
        const i = pair!.indexOf("=");
        jar.set(pair!.slice(0, i), pair!.slice(i + 1));
      }
      const location = res.headers.get("location");
      if (location) {
        const to = new URL(location, next.url);
        if (to.href.startsWith(redirectUri)) return to;
        next = { url: to.href, init: { method: "GET" } };
        continue;
      }
      const html = await res.text();
      const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
      if (!action)
        throw new Error(`idp: no form and no redirect at ${next.url} (${res.status}): ${html.slice(0, 300)}`);
      const fields = new URLSearchParams();
      for (const m of html.matchAll(/<input[^>]*type="hidden"[^>]*name="([^"]+)"[^>]*value="([^"]*)"/g))
        fields.set(m[1]!, m[2]!);
      if (html.includes('name="login"')) {
        fields.set("login", login);
        fields.set("password", "any password");
      }
      next = {
        url: new URL(action.replace(/&amp;/g, "&"), next.url).href,
        init: {
          method: "POST",
          body: fields.toString(),
          headers: { "content-type": "application/x-www-form-urlencoded" },
        },
      };
    }
    throw new Error("idp: too many hops");
  }

  return {
    url,
    client,
    accounts,
    tamper(fn, opts = {}) {
      tamperNext = fn;
      signer = opts.foreignKey ? foreign : privateKey;
    },
    setDown(d) {
      down = d;
    },
    signIn,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}
