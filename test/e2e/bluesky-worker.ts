// A real `svc worker`-like process for the Bluesky crash test: the publish worker with the real adapters over the
// configured database. The test kills it with SIGKILL while the PDS holds a post whose answer has not come back.
import { loadConfig } from "../../src/app/config.ts";
import { createApp } from "../../src/app/context.ts";
import { registerHooks } from "../../src/boot.ts";
import { adapterFor } from "../../src/platforms/adapter-registry.ts";
import { startPublishWorker } from "../../src/queue/publish/worker.ts";

registerHooks();
const app = createApp(loadConfig());
startPublishWorker(app, { adapterFor, pollMs: 50 });
process.stdout.write("ready\n");
