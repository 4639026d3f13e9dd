// Which adapter publishes for a provider. A provider without one here (its adapter comes in a later issue) has
// channels that can be connected but not published to: the worker fails such a target with
// `provider_unsupported`.
import type { Adapter } from "./adapter.ts";
import { blueskyAdapter } from "./bluesky/adapter.ts";
import { sandboxAdapter } from "./sandbox/adapter.ts";

const adapters: ReadonlyMap<string, Adapter> = new Map([
  [sandboxAdapter.provider, sandboxAdapter],
  [blueskyAdapter.provider, blueskyAdapter],
]);

export function adapterFor(provider: string): Adapter | null {
  return adapters.get(provider) ?? null;
}
