// A worker process for the newsletter hand-off kill test: one newsletters.handoff run over the configured database,
// reaching the Brevo stand-in through SVC_PROVIDER_ORIGINS. The test kills it mid-way.
import { loadConfig } from "../../src/app/config.ts";
import { createApp } from "../../src/app/context.ts";
import { registerHooks } from "../../src/boot.ts";
import { handOffDue } from "../../src/domain/newsletters/handoff.ts";

registerHooks();
const app = createApp(loadConfig());
process.stdout.write("ready\n");
const run = await handOffDue(app);
process.stdout.write(`done ${JSON.stringify(run)}\n`);
await app.close();
process.exit(0);
