// Bootstrap gives the first brand a test-mode sandbox channel (emulating Bluesky), so a new install can post
// in test mode at once. Registered as a bootstrap hook by the composition root (src/boot.ts).
import type { BootstrapHook } from "../bootstrap/hooks.ts";
import { connectChannel } from "./service.ts";

/** A bootstrap hook: the first brand gets a sandbox channel emulating Bluesky, so a new install can post at once. */
export const sandboxChannel: BootstrapHook = async (tx, app, actor, brandId) => ({
  channel: await connectChannel(tx, app, { ...actor, livemode: false }, brandId, {
    provider: "sandbox",
    emulates: "bluesky",
  }),
});
