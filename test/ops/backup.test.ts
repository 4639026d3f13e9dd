// Backups that restore, as docs/operations.md says to take them: on SQLite `VACUUM INTO` while svc runs, on
// Postgres `pg_dump`. Each is restored into an empty database, `svc migrate` runs on it, `svc admin keys status`
// shows every data key unwrapping with the same master keys, a sealed secret opens, and a post scheduled before the
// backup goes out from the restored database.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "kysely";
import { FakeClock } from "../../src/lib/clock.ts";
import { type TestApp, testApp } from "../helpers/app.ts";
import { describeEachDialect, freshDatabase } from "../helpers/db.ts";
import { type Tenant, tenant } from "../helpers/factories.ts";
import { drain } from "../helpers/networks.ts";

const repo = join(import.meta.dir, "../..");
const work = mkdtempSync(join(tmpdir(), "svc-backup-"));

async function svc(args: string[], env: Record<string, string>): Promise<{ code: number; out: string }> {
  const p = Bun.spawn(["bun", "src/main.ts", ...args], {
    cwd: repo,
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: work, SVC_LOG_LEVEL: "warn", ...env },
    stdout: "pipe",
    stderr: "pipe",
  });
  const [out, err, code] = await Promise.all([
    new Response(p.stdout).text(),
    new Response(p.stderr).text(),
    p.exited,
  ]);
  return { code, out: out + err };
}

describeEachDialect("backup and restore", (dialect) => {
  const clock = new FakeClock(Date.parse("2026-03-02T09:00:00Z"));
  let t: TestApp;
  let a: Tenant;
  let postId: string;
  let webhookId: string;
  let restoredUrl: string;

  beforeAll(async () => {
    t = await testApp(dialect, { clock });
    a = await tenant(t.app, "Backup Org");
    const channel = (await t.request("GET", "/v1/channels", { key: a.testKey })).body.data[0].id;
    const post = await t.request("POST", "/v1/posts", {
      key: a.testKey,
      body: {
        brand: a.brandId,
        channels: [channel],
        content: { body: "Scheduled before the backup" },
        publish_at: "2026-03-02T10:00:00Z",
      },
    });
    expect(post.status).toBe(201);
    postId = post.body.id;
    // A sealed secret under the org's data key.
    const hook = await t.request("POST", "/v1/webhook_endpoints", {
      key: a.testKey,
      body: { url: "https://hooks.example.org/svc", enabled_events: ["*"] },
    });
    expect(hook.status).toBe(201);
    webhookId = hook.body.id;

    // The backup, taken while svc is open on the database.
    if (dialect === "sqlite") {
      const file = join(work, `backup-${Date.now()}.db`);
      await t.app.db.executeQuery({
        sql: `VACUUM INTO '${file}'`,
        parameters: [],
        query: {} as never,
      } as never);
      restoredUrl = `sqlite:${file}`;
    } else {
      const dump = join(work, `backup-${Date.now()}.dump`);
      const d = Bun.spawnSync(["pg_dump", "--format=custom", "--no-owner", "--file", dump, t.dbUrl]);
      if (d.exitCode !== 0) throw new Error(d.stderr.toString());
      const empty = await freshDatabase("postgres", { migrated: false });
      await empty.database.close();
      const r = Bun.spawnSync(["pg_restore", "--no-owner", "--exit-on-error", "--dbname", empty.url, dump]);
      if (r.exitCode !== 0) throw new Error(r.stderr.toString());
      restoredUrl = empty.url;
    }
  });

  afterAll(() => t.close());

  test("svc migrate on the restored database, then keys status: every data key unwraps", async () => {
    const env = { SVC_DATABASE_URL: restoredUrl, SVC_MASTER_KEYS: t.masterKeys, SVC_DATA_DIR: work };
    const m = await svc(["migrate"], env);
    expect(m.code).toBe(0);
    const s = await svc(["admin", "keys", "status"], env);
    expect(s.out).toContain("Every data key unwraps.");
    expect(s.code).toBe(0);
    // With another master key nothing unwraps, and the command says so.
    const other = await svc(["admin", "keys", "status"], {
      ...env,
      SVC_MASTER_KEYS: `k9:${Buffer.alloc(32, 7).toString("base64")}`,
    });
    expect(other.code).toBe(1);
    expect(other.out).toContain("do not unwrap");
  }, 60_000);

  test("the restored install opens sealed secrets and publishes the post scheduled before the backup", async () => {
    const r = await testApp(dialect, { url: restoredUrl, clock, env: { SVC_MASTER_KEYS: t.masterKeys } });
    try {
      const rolled = await r.request("POST", `/v1/webhook_endpoints/${webhookId}/roll_secret`, {
        key: a.testKey,
        body: { overlap_hours: 1 },
      });
      expect(rolled.status).toBe(200);
      clock.set(Date.parse("2026-03-02T10:00:05Z"));
      await drain(r);
      const post = await r.request("GET", `/v1/posts/${postId}`, { key: a.testKey });
      expect(post.body.status).toBe("published");
      expect(post.body.content.body).toBe("Scheduled before the backup");
    } finally {
      await r.close();
    }
  }, 60_000);
});
