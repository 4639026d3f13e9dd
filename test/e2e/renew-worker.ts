// A real worker process for the renewal crash tests: channels.refresh (renewDueTokens) over the configured database,
// reaching the token endpoint through SVC_PROVIDER_ORIGINS. Prints "ready", runs once, prints what it did, then
// waits to be killed.
import { loadConfig } from "../../src/app/config.ts";
import { createApp } from "../../src/app/context.ts";
import { registerHooks } from "../../src/boot.ts";
import { renewDueTokens } from "../../src/domain/connect/renew.ts";

registerHooks();
const app = createApp(loadConfig());
process.stdout.write("ready\n");
const counts = await renewDueTokens(app, 500);
process.stdout.write(`${JSON.stringify(counts)}\n`);
setInterval(() => {}, 60_000);
