// The world bench/api.ts and bench/api-statements.ts post into: a SQLite database in a new data directory with a
// brand of 4 sandbox channels, enough API keys that the per-key rate limit (25/s) never binds, and the request
// body (one post for every channel, an hour ahead).
import { randomBytes } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../src/app/config.ts";
import { type App, createApp } from "../src/app/context.ts";
import { silentLogger } from "../src/app/log.ts";
import { registerHooks } from "../src/boot.ts";
import { migrate } from "../src/db/migrate.ts";
import { adminActor } from "../src/domain/actor.ts";
import { bootstrap } from "../src/domain/bootstrap/service.ts";
import { createChannel } from "../src/domain/channels/service.ts";
import { createApiKey } from "../src/domain/identity/api-keys/service.ts";
import { scopesOfRole } from "../src/domain/scopes.ts";

export interface ApiWorld {
  dir: string;
  /** The environment that opens this database (SVC_DATA_DIR, master keys). */
  env: Record<string, string>;
  app: App;
  keys: string[];
  body: string;
}

export async function apiWorld(name: string): Promise<ApiWorld> {
  const dir = mkdtempSync(join(tmpdir(), `svc-bench-${name}-`));
  const env = {
    ...(process.env as Record<string, string>),
    SVC_DATA_DIR: dir,
    SVC_MASTER_KEYS: `b:${randomBytes(32).toString("base64")}`,
    SVC_AUTO_MIGRATE: "true",
  };
  registerHooks();
  const app = createApp(loadConfig(env), { log: silentLogger });
  await migrate(app.db, app.dialect);
  const b = await bootstrap(app, { email: "bench@example.com", org: "Bench", sandbox: false });
  const owner = adminActor(b.org.id, "bench", scopesOfRole("owner"));
  for (let i = 0; i < 4; i++) await createChannel(app, owner, { brand: b.brand.id, provider: "sandbox" });
  const keys: string[] = [];
  for (let i = 0; i < 400; i++) keys.push((await createApiKey(app, owner, { name: `bench ${i}` })).secret!);
  const body = JSON.stringify({
    brand: b.brand.slug,
    content: {
      body: "Benchmarking the publishing API: one post, four channels, checked against each network's rules. https://example.com/launch",
    },
    publish_at: new Date(Date.now() + 3600_000).toISOString(),
    metadata: { campaign: "bench" },
  });
  return { dir, env, app, keys, body };
}
