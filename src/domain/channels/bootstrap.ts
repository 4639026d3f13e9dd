// Bootstrap gives the first brand a test-mode sandbox channel (emulating Bluesky), so a new install can post
// in test mode at once. Imported by domain/bootstrap/service.ts, which runs the hooks.
import { afterBootstrapHooks } from "../bootstrap/hooks.ts";
import { connectChannel } from "./service.ts";

afterBootstrapHooks.push(async (tx, app, actor, brandId) => ({
  channel: await connectChannel(tx, app, { ...actor, livemode: false }, brandId, {
    provider: "sandbox",
    emulates: "bluesky",
  }),
}));
