// What single sign-on needs of the outside: the org's OIDC provider, discovered from its issuer and checked
// (the document must name the same issuer and the endpoints sign-in uses), reached through the guarded client
// (the issuer is an address a tenant chose: ARCHITECTURE rule 7), and the DNS TXT record that proves a domain.
// openid-client is loaded on first use: only a connect or a sign-in through a provider needs it.
import type { App } from "../../../app/context.ts";
import { ServiceError } from "../../../lib/errors.ts";
import { networksAllow } from "../../../net/allow.ts";
import { guardedFetch } from "../../../net/guarded-fetch.ts";

type OpenIdClient = typeof import("openid-client");
let lib: Promise<OpenIdClient> | null = null;
export const openidClient = () => {
  lib ??= import("openid-client");
  return lib;
};

export interface IssuerMetadata {
  issuer: string;
  authorization_endpoint: string;
  token_endpoint: string;
  jwks_uri: string;
  [k: string]: unknown;
}

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|localhost|\[::1\])$/;

/** The issuer as typed, normalised (no trailing slash), or issuer_invalid. Plain http only on this machine. */
export function parseIssuer(raw: string): URL {
  const invalid = () =>
    new ServiceError(
      422,
      "issuer_invalid",
      "The issuer must be an https URL such as https://login.example.com.",
      {
        param: "issuer",
      },
    );
  let u: URL;
  try {
    u = new URL(raw.trim());
  } catch {
    throw invalid();
  }
  if (u.protocol !== "https:" && !(u.protocol === "http:" && LOOPBACK.test(u.hostname))) throw invalid();
  if (u.search || u.hash || u.username || u.password || raw.length > 500) throw invalid();
  return u;
}

export const ssoFetch = (app: App) => guardedFetch({ allow: networksAllow(app.config), timeoutMs: 10_000 });

/**
 * The provider's discovery document (OpenID Connect Discovery 1.0 §4): unreachable, not JSON or not 200 is
 * `issuer_unreachable` (at sign-in the caller turns it into sso_provider_unavailable); a document naming another
 * issuer, or without the endpoints sign-in uses, is `issuer_invalid`.
 */
export async function discover(app: App, issuer: string): Promise<IssuerMetadata> {
  const url = parseIssuer(issuer);
  const base = url.href.replace(/\/$/, "");
  const unreachable = (why: string) =>
    new ServiceError(
      422,
      "issuer_unreachable",
      `The issuer's discovery document could not be read: ${why}.`,
      {
        param: "issuer",
      },
    );
  let doc: unknown;
  try {
    const res = await ssoFetch(app)(`${base}/.well-known/openid-configuration`, {
      headers: { accept: "application/json" },
    });
    if (res.status !== 200) throw unreachable(`it answered ${res.status}`);
    doc = await res.json();
  } catch (e) {
    if (e instanceof ServiceError) throw e;
    throw unreachable((e as Error).message);
  }
  const m = doc as Partial<IssuerMetadata> | null;
  const bad = (why: string) =>
    new ServiceError(422, "issuer_invalid", `The issuer's discovery document ${why}.`, { param: "issuer" });
  if (!m || typeof m !== "object") throw bad("is not a JSON object");
  if (m.issuer !== base && m.issuer !== url.href) throw bad(`names another issuer (${String(m.issuer)})`);
  for (const k of ["authorization_endpoint", "token_endpoint", "jwks_uri"] as const)
    if (typeof m[k] !== "string") throw bad(`has no ${k}`);
  return m as IssuerMetadata;
}

/** The openid-client configuration for the org's client at its provider; ID token signatures are checked too. */
export async function clientConfig(app: App, meta: IssuerMetadata, clientId: string, clientSecret: string) {
  // The document was read as JSON, so every value is JSON.
  const c = await openidClient();
  // client_secret_basic is what providers register a web app with by default; post only where basic is not offered.
  const methods = meta.token_endpoint_auth_methods_supported;
  const basic = !Array.isArray(methods) || methods.includes("client_secret_basic");
  const config = new c.Configuration(
    meta as never,
    clientId,
    clientSecret,
    basic ? c.ClientSecretBasic(clientSecret) : c.ClientSecretPost(clientSecret),
  );
  const fetch = ssoFetch(app);
  config[c.customFetch] = (url, init) => fetch(url, init as RequestInit);
  if (new URL(meta.token_endpoint).protocol === "http:") c.allowInsecureRequests(config);
  c.enableNonRepudiationChecks(config);
  return config;
}

export const redirectUri = (app: App) => `${app.config.baseUrl}/signin/sso/callback`;

/** The TXT records of a name; [] when there are none. The resolver's servers are set only by tests (App.dnsServers). */
export async function txtRecords(app: App, name: string): Promise<string[]> {
  const { Resolver } = await import("node:dns/promises");
  const r = new Resolver({ timeout: 3000, tries: 2 });
  if (app.dnsServers?.length) r.setServers(app.dnsServers);
  try {
    return (await r.resolveTxt(name)).map((chunks) => chunks.join(""));
  } catch (e) {
    const code = (e as { code?: string }).code;
    if (code === "ENOTFOUND" || code === "ENODATA") return [];
    throw e;
  }
}
