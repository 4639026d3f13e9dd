// What bootstrap adds once other features exist (the publishing engine adds a sandbox channel).
import type { App } from "../../app/context.ts";
import type { Tx } from "../../db/index.ts";
import type { Actor } from "../actor.ts";

export type BootstrapHook = (
  tx: Tx,
  app: App,
  actor: Actor,
  brandId: string,
) => Promise<Record<string, unknown>>;
export const afterBootstrapHooks: BootstrapHook[] = [];

/** Adds a hook once (registering twice is harmless). */
export function onBootstrap(hook: BootstrapHook): void {
  if (!afterBootstrapHooks.includes(hook)) afterBootstrapHooks.push(hook);
}
