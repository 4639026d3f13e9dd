// Starting a sign-in connection (live mode, from the dashboard): a random state whose SHA-256 alone is stored for
// 15 minutes, a PKCE verifier (sealed) where the network takes it, and the network's sign-in URL to send the
// person to. An org's own developer app is used before the install's unless one is named.
import type { App } from "../../app/context.ts";
import { sha256hex } from "../../crypto/hash.ts";
import { nodeCrypto } from "../../crypto/node.ts";
import { forbidden, invalid, problem } from "../../lib/errors.ts";
import { getPlatform } from "../../platforms/rules-registry.ts";
import { accountLister } from "../../platforms/signin/accounts.ts";
import { authorizeUrl, newSignIn } from "../../platforms/signin/oauth.ts";
import { signInSpec } from "../../platforms/signin/specs.ts";
import { type Actor, requireScope } from "../actor.ts";
import { loadUsableApp, usableApps } from "../apps/load.ts";
import { redirectUri } from "../apps/present.ts";
import { loadBrand } from "../brands/service.ts";
import { loadChannel } from "../channels/load.ts";
import { providerUnavailable } from "./errors.ts";
import { sealState } from "./sealed.ts";

/** How long a started sign-in may take, and how long the accounts wait to be picked (reference §5). */
export const SIGN_IN_TTL_MS = 15 * 60 * 1000;

export interface StartInput {
  provider: string;
  brand: string;
  /** A developer app ID; default the org's first app for the provider, else the install's. */
  app?: string | undefined;
  /** A channel to reconnect (it keeps its ID). */
  channel?: string | undefined;
}

export async function startSignIn(app: App, actor: Actor, input: StartInput): Promise<{ url: string }> {
  requireScope(actor, "channels:write");
  if (!actor.userId) throw forbidden("forbidden", "A person signs in to a network, from the dashboard.");
  const spec = signInSpec(input.provider);
  if (!spec)
    throw invalid([
      problem("provider_invalid", `${input.provider} does not connect by signing in.`, "provider"),
    ]);
  const network = getPlatform(spec.provider)!.name;
  if (!actor.livemode)
    throw providerUnavailable(
      `Test mode reaches only sandbox channels; switch to live mode to connect ${network}.`,
    );
  if (!accountLister(spec.provider))
    throw providerUnavailable(`Signing in to ${network} is not available in this version of svc.`);
  const brand = await loadBrand(app.db, actor, input.brand);
  let channelId: string | null = null;
  if (input.channel) {
    const ch = await loadChannel(app.db, actor, input.channel, "channel");
    if (ch.provider !== spec.provider || ch.brand_id !== brand.id)
      throw invalid([
        problem("channel_invalid", `Channel ${ch.id} is not a ${network} channel of this brand.`, "channel"),
      ]);
    channelId = ch.id;
  }
  const chosen = input.app
    ? await loadUsableApp(app.db, actor.orgId, input.app)
    : (await usableApps(app.db, actor.orgId, spec.provider))[0];
  if (!chosen || chosen.provider !== spec.provider)
    throw providerUnavailable(
      `No developer app for ${network}: an admin registers one (POST /v1/developer_apps) or the operator provides one.`,
    );
  const s = await newSignIn(spec);
  const now = app.clock.now();
  const id = nodeCrypto().randomBytes(16).toString("hex");
  await app.db
    .insertInto("connect_states")
    .values({
      id,
      state_hash: sha256hex(s.state),
      org_id: actor.orgId,
      user_id: actor.userId,
      brand_id: brand.id,
      provider: spec.provider,
      app_id: chosen.id,
      channel_id: channelId,
      code_verifier: s.verifier
        ? await sealState(app.db, app, actor.orgId, id, "code_verifier", s.verifier)
        : null,
      tokens: null,
      accounts: null,
      expires_at: now + SIGN_IN_TTL_MS,
      used_at: null,
      created_at: now,
    })
    .execute();
  return {
    url: authorizeUrl(app, spec, {
      clientId: chosen.client_id,
      redirectUri: redirectUri(app.config.baseUrl, spec.provider),
      state: s.state,
      challenge: s.challenge,
    }),
  };
}
