// Which adapter publishes for a provider. A provider without one here (its adapter comes in a later issue) has
// channels that can be connected but not published to: the worker fails such a target with
// `provider_unsupported`.
import type { Adapter } from "./adapter.ts";
import { blueskyAdapter } from "./bluesky/adapter.ts";
import { discordAdapter } from "./discord/adapter.ts";
import { gabAdapter } from "./gab/adapter.ts";
import { linkedinAdapter, linkedinPagesAdapter } from "./linkedin/adapter.ts";
import { mastodonAdapter } from "./mastodon/adapter.ts";
import { pinterestAdapter } from "./pinterest/adapter.ts";
import { sandboxAdapter } from "./sandbox/adapter.ts";
import { slackAdapter } from "./slack/adapter.ts";
import { telegramAdapter } from "./telegram/adapter.ts";
import { xAdapter } from "./x/adapter.ts";

const adapters: ReadonlyMap<string, Adapter> = new Map(
  [
    sandboxAdapter,
    blueskyAdapter,
    mastodonAdapter,
    gabAdapter,
    discordAdapter,
    telegramAdapter,
    slackAdapter,
    xAdapter,
    pinterestAdapter,
    linkedinAdapter,
    linkedinPagesAdapter,
  ].map((a) => [a.provider, a]),
);

export function adapterFor(provider: string): Adapter | null {
  return adapters.get(provider) ?? null;
}
