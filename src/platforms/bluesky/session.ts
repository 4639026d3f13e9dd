// Signing in to a Bluesky account with its app password. No session is stored: an app password does not expire,
// so the channel keeps only it (sealed) and each process signs in when it needs to. The session is kept in memory
// for a while (per app and credentials), because Bluesky limits com.atproto.server.createSession per account
// (30 per 5 minutes, 300 per day): publishing and engagement readings reuse it, and @atproto/api refreshes it.
import type { AtpAgent } from "@atproto/api";
import type { App } from "../../app/context.ts";
import { nodeCrypto } from "../../crypto/node.ts";
import { networkFetch } from "../../net/guarded-fetch.ts";
import { providerOrigin } from "../plumbing/origins.ts";
import { atproto } from "./atproto.ts";

export const DEFAULT_SERVICE = "https://bsky.social";
/** How long a signed-in session is reused before signing in again (an access token lives about 2 hours). */
const SESSION_TTL_MS = 30 * 60_000;

export interface Credentials {
  identifier: string;
  app_password: string;
  service: string;
}

export function credentialsOf(
  settings: Record<string, unknown>,
  secrets: Record<string, string>,
): Credentials {
  return {
    identifier: String(settings.identifier ?? ""),
    app_password: secrets.app_password ?? "",
    service: String(settings.service ?? DEFAULT_SERVICE),
  };
}

/** The PDS to talk to: the account's own, or Bluesky's (which SVC_PROVIDER_ORIGINS may point elsewhere). */
export function serviceUrl(app: App, service: string): string {
  const s = service.replace(/\/+$/, "");
  return s === DEFAULT_SERVICE ? providerOrigin(app, "bluesky", DEFAULT_SERVICE) : s;
}

export function newAgent(app: App, service: string): AtpAgent {
  const { AtpAgent } = atproto();
  return new AtpAgent({
    service: serviceUrl(app, service),
    fetch: networkFetch(app, { timeoutMs: 30_000 }) as typeof fetch,
  });
}

interface Cached {
  agent: AtpAgent;
  until: number;
}
const sessions = new WeakMap<App, Map<string, Cached>>();
const keyOf = (c: Credentials) =>
  nodeCrypto()
    .createHash("sha256")
    .update(JSON.stringify([c.service, c.identifier, c.app_password]))
    .digest("hex");

/** A signed-in agent for these credentials; throws what createSession threw (see errors.ts). */
export async function signedIn(app: App, c: Credentials): Promise<AtpAgent> {
  let byKey = sessions.get(app);
  if (!byKey) {
    byKey = new Map();
    sessions.set(app, byKey);
  }
  const key = keyOf(c);
  const hit = byKey.get(key);
  if (hit && hit.until > Date.now() && hit.agent.hasSession) return hit.agent;
  const agent = newAgent(app, c.service);
  await agent.login({ identifier: c.identifier, password: c.app_password });
  byKey.set(key, { agent, until: Date.now() + SESSION_TTL_MS });
  return agent;
}

/** Forgets a session the network refused, so the next call signs in again. */
export function forgetSession(app: App, c: Credentials): void {
  sessions.get(app)?.delete(keyOf(c));
}
