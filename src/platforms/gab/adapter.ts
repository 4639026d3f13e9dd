// Gab: a Mastodon fork on one server (gab.com) with the Mastodon client API and a personal access token. It makes
// no idempotency promise, so no Idempotency-Key is relied on and an uncertain attempt waits for `find` or a person.
import type { Adapter } from "../adapter.ts";
import {
  connectMastodon,
  findMastodon,
  type MastodonFlavour,
  mastodonEngagement,
  publishMastodon,
} from "../mastodon/api.ts";
import { providerOrigin } from "../plumbing/origins.ts";

export const GAB_ORIGIN = "https://gab.com";

const flavour: MastodonFlavour = {
  provider: "gab",
  name: "Gab",
  origin: (app) => providerOrigin(app, "gab", GAB_ORIGIN),
  idempotencyKeys: false,
};

export const gabAdapter: Adapter = {
  provider: "gab",
  idempotent: false,
  publish: (app, input) => publishMastodon(app, flavour, input),
  connect: (app, input) => connectMastodon(app, flavour, input),
  engagement: (app, input) => mastodonEngagement(app, flavour, input),
  find: (app, input) => findMastodon(app, flavour, input),
  consistencyWindowMs: 60_000,
};
