// Mastodon: the channel's own server and access token. Idempotent: every part carries an Idempotency-Key per
// target and part, which Mastodon honours for about an hour, so an uncertain attempt may be repeated.
import type { App } from "../../app/context.ts";
import type { Adapter } from "../adapter.ts";
import { providerOrigin } from "../plumbing/origins.ts";
import {
  connectMastodon,
  findMastodon,
  type MastodonFlavour,
  mastodonDelete,
  mastodonEngagement,
  publishMastodon,
} from "./api.ts";

/** The server as the tenant typed it ("mastodon.social", "https://mastodon.social/"), as an origin. */
export function serverOrigin(instance: unknown): string {
  const s = String(instance ?? "").trim();
  return /^https?:\/\//i.test(s) ? s : `https://${s}`;
}

const flavour: MastodonFlavour = {
  provider: "mastodon",
  name: "Mastodon",
  // SVC_PROVIDER_ORIGINS may send every Mastodon server's traffic to one proxy; else the channel's server.
  origin: (app: App, settings) => providerOrigin(app, "mastodon", serverOrigin(settings.instance)),
  idempotencyKeys: true,
};

export const mastodonAdapter: Adapter = {
  provider: "mastodon",
  idempotent: true,
  publish: (app, input) => publishMastodon(app, flavour, input),
  connect: (app, input) => connectMastodon(app, flavour, input),
  engagement: (app, input) => mastodonEngagement(app, flavour, input),
  find: (app, input) => findMastodon(app, flavour, input),
  deletePublished: (app, input) => mastodonDelete(app, flavour, input),
  // A status is in the author's own timeline as soon as the POST is answered.
  consistencyWindowMs: 60_000,
};
