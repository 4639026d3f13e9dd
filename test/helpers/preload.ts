// Every test process composes the App as `svc` does: the composition root's hooks (webhook outbox, stream
// wake-ups, the bootstrap sandbox channel) are registered before any test runs.
import { registerHooks } from "../../src/boot.ts";

registerHooks();
