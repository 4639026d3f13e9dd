// Every platform's rules in one ordered list, and the one question the rest of the service asks: which rules
// does this channel's text and media have to meet?
import { bluesky } from "./bluesky/rules.ts";
import { discord } from "./discord/rules.ts";
import { facebook } from "./facebook/rules.ts";
import { gab } from "./gab/rules.ts";
import { instagram } from "./instagram/rules.ts";
import { linkedin } from "./linkedin/rules.ts";
import { linkedin_pages } from "./linkedin_pages/rules.ts";
import { mastodon } from "./mastodon/rules.ts";
import { pinterest } from "./pinterest/rules.ts";
import { sandbox } from "./sandbox/rules.ts";
import { slack } from "./slack/rules.ts";
import { telegram } from "./telegram/rules.ts";
import { threads } from "./threads/rules.ts";
import { tiktok } from "./tiktok/rules.ts";
import type { PlatformRules, Provider } from "./types.ts";
import { providers } from "./types.ts";
import { x } from "./x/rules.ts";
import { youtube } from "./youtube/rules.ts";

const byProvider: Record<Provider, PlatformRules> = {
  sandbox,
  bluesky,
  mastodon,
  gab,
  x,
  threads,
  linkedin,
  linkedin_pages,
  facebook,
  instagram,
  pinterest,
  youtube,
  tiktok,
  discord,
  telegram,
  slack,
};

/** All platforms in the order the API lists them. */
export const platforms: readonly PlatformRules[] = providers.map((p) => byProvider[p]);

/** What a sandbox channel emulates when it names nothing. */
export const DEFAULT_EMULATES: Provider = "bluesky";

export function isProvider(s: string): s is Provider {
  return Object.hasOwn(byProvider, s);
}

export function getPlatform(provider: string): PlatformRules | undefined {
  return isProvider(provider) ? byProvider[provider] : undefined;
}

/**
 * The rules a channel is checked against. A sandbox channel takes the limits of the provider it emulates (so a
 * test post fails where the live one would) but keeps its own identity and behaviour: it is still "sandbox",
 * not idempotent, test only, connected by its own fields, and fetches nothing by link.
 */
export function rulesFor(provider: Provider, emulates?: Provider | null): PlatformRules {
  const own = byProvider[provider];
  if (provider !== "sandbox") return own;
  const limits = byProvider[emulates ?? DEFAULT_EMULATES];
  return {
    ...limits,
    provider: own.provider,
    name: own.name,
    connect_fields: own.connect_fields,
    idempotent: own.idempotent,
    media_by_link: own.media_by_link,
    test_only: own.test_only,
  };
}
