// A real `svc worker`-like process for the crash tests: the publish worker over the configured database, with an
// adapter that reports every publish it receives to a receiver in the test (so the test counts deliveries
// independently of our database), then takes ADAPTER_DELAY_MS before answering.
import { loadConfig } from "../../src/app/config.ts";
import { createApp } from "../../src/app/context.ts";
import { registerHooks } from "../../src/boot.ts";
import type { Adapter } from "../../src/platforms/adapter.ts";
import { startPublishWorker } from "../../src/queue/publish/worker.ts";

const receiver = process.env.RECEIVER_URL!;
const delay = Number(process.env.ADAPTER_DELAY_MS ?? "20");
registerHooks();
const app = createApp(loadConfig());

const counting: Adapter = {
  provider: "sandbox",
  idempotent: false,
  async publish(_app, input) {
    await fetch(receiver, {
      method: "POST",
      body: JSON.stringify({ target: input.targetId, attempt: input.attempt, pid: process.pid }),
    });
    await Bun.sleep(delay);
    return { kind: "published", permalink: `https://example.net/${input.targetId}` };
  },
};

const worker = startPublishWorker(app, { adapterFor: () => counting, pollMs: 50 });
process.stdout.write("ready\n");
process.on("SIGTERM", async () => {
  await worker.stop();
  await app.close();
  process.exit(0);
});
