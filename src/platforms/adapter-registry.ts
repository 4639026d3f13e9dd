// Which adapter publishes for a provider. A provider without one here (its adapter comes in a later issue) has
// channels that can be connected but not published to: the worker fails such a target with
// `provider_unsupported`.
//
// Each network's adapter (its client for the network's API, its media upload, its error rules) loads the first time
// one of its channels is published to, connected, checked or read, not at start-up. The registry knows at start only
// what callers read without calling the adapter: whether a retry is safe, which of connect, engagement and find it
// has, and its consistency window. test/platforms/adapters.test.ts checks these against each adapter.
import { once } from "../lib/once.ts";
import type { Adapter } from "./adapter.ts";
import { sandboxAdapter } from "./sandbox/adapter.ts";

export interface DeferredAdapter extends Pick<Adapter, "provider" | "idempotent" | "consistencyWindowMs"> {
  has: readonly ("connect" | "engagement" | "find" | "deletePublished")[];
  load(): Promise<Adapter>;
}

const mastodonLike = ["connect", "engagement", "find"] as const;

export const deferredAdapters: DeferredAdapter[] = [
  {
    provider: "bluesky",
    idempotent: true,
    consistencyWindowMs: 5000,
    has: [...mastodonLike, "deletePublished"],
    load: async () => (await import("./bluesky/adapter.ts")).blueskyAdapter,
  },
  {
    provider: "mastodon",
    idempotent: true,
    consistencyWindowMs: 60_000,
    has: [...mastodonLike, "deletePublished"],
    load: async () => (await import("./mastodon/adapter.ts")).mastodonAdapter,
  },
  {
    provider: "gab",
    idempotent: false,
    consistencyWindowMs: 60_000,
    has: mastodonLike,
    load: async () => (await import("./gab/adapter.ts")).gabAdapter,
  },
  {
    provider: "discord",
    idempotent: false,
    has: ["connect"],
    load: async () => (await import("./discord/adapter.ts")).discordAdapter,
  },
  {
    provider: "telegram",
    idempotent: false,
    has: ["connect"],
    load: async () => (await import("./telegram/adapter.ts")).telegramAdapter,
  },
  {
    provider: "slack",
    idempotent: false,
    has: ["connect"],
    load: async () => (await import("./slack/adapter.ts")).slackAdapter,
  },
  {
    provider: "x",
    idempotent: false,
    consistencyWindowMs: 60_000,
    has: [...mastodonLike, "deletePublished"],
    load: async () => (await import("./x/adapter.ts")).xAdapter,
  },
  {
    provider: "pinterest",
    idempotent: false,
    has: ["connect", "engagement", "deletePublished"],
    load: async () => (await import("./pinterest/adapter.ts")).pinterestAdapter,
  },
  {
    provider: "linkedin",
    idempotent: false,
    has: ["connect", "engagement", "deletePublished"],
    load: async () => (await import("./linkedin/adapter.ts")).linkedinAdapter,
  },
  {
    provider: "linkedin_pages",
    idempotent: false,
    has: ["connect", "engagement", "deletePublished"],
    load: async () => (await import("./linkedin/adapter.ts")).linkedinPagesAdapter,
  },
  {
    provider: "facebook",
    idempotent: false,
    has: ["connect", "engagement", "deletePublished"],
    load: async () => (await import("./facebook/adapter.ts")).facebookAdapter,
  },
  {
    provider: "instagram",
    idempotent: false,
    consistencyWindowMs: 60_000,
    has: ["connect", "engagement", "find", "deletePublished"],
    load: async () => (await import("./instagram/adapter.ts")).instagramAdapter,
  },
  {
    provider: "threads",
    idempotent: false,
    has: ["connect", "engagement", "deletePublished"],
    load: async () => (await import("./threads/adapter.ts")).threadsAdapter,
  },
  {
    provider: "youtube",
    idempotent: false,
    consistencyWindowMs: 0,
    has: ["connect", "engagement", "find", "deletePublished"],
    load: async () => (await import("./youtube/adapter.ts")).youtubeAdapter,
  },
  {
    provider: "tiktok",
    idempotent: false,
    consistencyWindowMs: 0,
    has: ["connect", "find"],
    load: async () => (await import("./tiktok/adapter.ts")).tiktokAdapter,
  },
];

/** An adapter that loads the real one on its first call. */
function deferred(d: DeferredAdapter): Adapter {
  const load = once(() => d.load());
  const a: Adapter = {
    provider: d.provider,
    idempotent: d.idempotent,
    publish: async (app, input) => (await load()).publish(app, input),
  };
  if (d.consistencyWindowMs !== undefined) a.consistencyWindowMs = d.consistencyWindowMs;
  if (d.has.includes("connect")) a.connect = async (app, input) => (await load()).connect!(app, input);
  if (d.has.includes("engagement"))
    a.engagement = async (app, input) => (await load()).engagement!(app, input);
  if (d.has.includes("find")) a.find = async (app, input) => (await load()).find!(app, input);
  if (d.has.includes("deletePublished"))
    a.deletePublished = async (app, input) => (await load()).deletePublished!(app, input);
  return a;
}

const adapters: ReadonlyMap<string, Adapter> = new Map([
  [sandboxAdapter.provider, sandboxAdapter],
  ...deferredAdapters.map((d) => [d.provider, deferred(d)] as const),
]);

export function adapterFor(provider: string): Adapter | null {
  return adapters.get(provider) ?? null;
}
