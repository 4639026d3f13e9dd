// A real `svc worker`-like process for the networks' crash tests: the publish worker over the configured database
// with the real adapters, reaching the stand-ins through SVC_PROVIDER_ORIGINS and SVC_ALLOW_PRIVATE_NETWORKS.
import { loadConfig } from "../../src/app/config.ts";
import { createApp } from "../../src/app/context.ts";
import { registerHooks } from "../../src/boot.ts";
import { adapterFor } from "../../src/platforms/adapter-registry.ts";
import { startPublishWorker } from "../../src/queue/publish/worker.ts";

registerHooks();
const app = createApp(loadConfig());
const worker = startPublishWorker(app, { adapterFor, pollMs: 50 });
process.stdout.write("ready\n");
process.on("SIGTERM", async () => {
  await worker.stop();
  await app.close();
  process.exit(0);
});
