// An upgrade as an operator does it: the previous release (its code, from git) made the database and wrote to it
// through its API; while its server keeps serving reads, this release's `svc migrate` brings the schema up; the old
// server's reads never fail during or after it, and this release's server then reads everything the old one wrote.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describeEachDialect, freshDatabase } from "../helpers/db.ts";

const repo = join(import.meta.dir, "../..");
/** The last release: `main` as it landed before this one (stop 33, 2026-11-26), schema version 19. */
const PREVIOUS = "28a0f2f1307952765159c291eb4af6388dea53f2";
const work = mkdtempSync(join(tmpdir(), "svc-upgrade-"));
const old = join(work, "previous");

beforeAll(async () => {
  // The previous release's code, without touching this checkout's git state; its dependencies are a subset of
  // this release's at the same versions.
  mkdirSync(old);
  await Bun.$`git -C ${repo} archive ${PREVIOUS} | tar -x -C ${old}`.quiet();
  symlinkSync(join(repo, "node_modules"), join(old, "node_modules"));
}, 60_000);

afterAll(async () => {
  await Bun.$`rm -rf ${work}`.quiet();
});

type Env = Record<string, string>;
async function run(cwd: string, args: string[], env: Env): Promise<string> {
  const p = Bun.spawn(["bun", "src/main.ts", ...args], {
    cwd,
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: work, SVC_LOG_LEVEL: "warn", ...env },
    stdout: "pipe",
    stderr: "pipe",
  });
  const [out, err, code] = await Promise.all([
    new Response(p.stdout).text(),
    new Response(p.stderr).text(),
    p.exited,
  ]);
  if (code !== 0)
    throw new Error(`svc ${args.join(" ")} (${cwd === old ? "previous" : "this"} release): ${err}`);
  return out;
}

async function serve(cwd: string, env: Env) {
  const port = 23000 + Math.floor(Math.random() * 9000);
  const proc = Bun.spawn(["bun", "src/main.ts", "server"], {
    cwd,
    env: {
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      HOME: work,
      SVC_LOG_LEVEL: "warn",
      SVC_LISTEN: `127.0.0.1:${port}`,
      SVC_AUTO_MIGRATE: "false",
      ...env,
    },
    stdout: "ignore",
    stderr: "ignore",
  });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 200; i++) {
    const r = await fetch(`${url}/readyz`).catch(() => null);
    if (r?.ok) break;
    await Bun.sleep(50);
  }
  return {
    url,
    async stop() {
      proc.kill();
      await proc.exited;
    },
  };
}

describeEachDialect("upgrading from the previous release", (dialect) => {
  test("the old server keeps serving reads while this release migrates; nothing it wrote is lost", async () => {
    const db =
      dialect === "sqlite"
        ? `sqlite:${join(work, `upgrade-${Date.now()}.db`)}`
        : (await freshDatabase("postgres", { migrated: false })).url;
    const env: Env = { SVC_DATABASE_URL: db, SVC_DATA_DIR: work, SVC_BASE_URL: "http://localhost:8080" };
    env.SVC_MASTER_KEYS = (await run(old, ["admin", "keys", "generate", "--id", "upgrade"], env)).trim();

    // The previous release: schema, an org with its sandbox channel, a key, then writes through its API.
    await run(old, ["migrate"], env);
    await run(
      old,
      ["admin", "bootstrap", "--email", "up@example.com", "--org", "Upgrade", "--brand", "Up"],
      env,
    );
    const key = (
      await run(old, ["admin", "apikeys", "create", "--org", "Upgrade", "--name", "upgrade"], env)
    ).trim();
    const auth = { authorization: `Bearer ${key}`, "content-type": "application/json" };
    const before = await serve(old, env);
    const channels = (await (await fetch(`${before.url}/v1/channels`, { headers: auth })).json()) as {
      data: { id: string; brand: string }[];
    };
    const { id: channel, brand } = channels.data[0]!;
    const posts: string[] = [];
    for (let i = 0; i < 5; i++) {
      const r = await fetch(`${before.url}/v1/posts`, {
        method: "POST",
        headers: auth,
        body: JSON.stringify({
          brand,
          channels: [channel],
          content: { body: `Written by the previous release #${i} — ünïcödé <b>kept</b>` },
          publish_at: new Date(Date.now() + (i + 1) * 86_400_000).toISOString(),
        }),
      });
      expect(r.status).toBe(201);
      posts.push(((await r.json()) as { id: string }).id);
    }
    const hook = await fetch(`${before.url}/v1/webhook_endpoints`, {
      method: "POST",
      headers: auth,
      body: JSON.stringify({ url: "https://hooks.example.org/up", enabled_events: ["post.published"] }),
    });
    expect(hook.status).toBe(201);

    // Reads against the old server, all through this release's migration.
    let reading = true;
    const failures: string[] = [];
    let reads = 0;
    const reader = (async () => {
      while (reading) {
        const r = await fetch(`${before.url}/v1/posts?limit=10`, { headers: auth }).catch((e) => e as Error);
        reads++;
        if (r instanceof Error || r.status !== 200)
          failures.push(r instanceof Error ? r.message : String(r.status));
        await Bun.sleep(5);
      }
    })();
    const migrated = await run(repo, ["migrate"], env);
    await Bun.sleep(100);
    reading = false;
    await reader;
    await before.stop();
    expect(failures).toEqual([]);
    expect(reads).toBeGreaterThan(0);
    expect(migrated).toMatch(/\d+/);

    // This release reads everything the previous one wrote, and its keys unwrap.
    const after = await serve(repo, env);
    try {
      for (const id of posts) {
        const r = await fetch(`${after.url}/v1/posts/${id}`, { headers: auth });
        expect(r.status).toBe(200);
        const p = (await r.json()) as { status: string; content: { body: string } };
        expect(p.status).toBe("scheduled");
        expect(p.content.body).toContain("ünïcödé <b>kept</b>");
      }
      const hooks = (await (await fetch(`${after.url}/v1/webhook_endpoints`, { headers: auth })).json()) as {
        data: { url: string }[];
      };
      expect(hooks.data.map((h) => h.url)).toEqual(["https://hooks.example.org/up"]);
      expect(await run(repo, ["admin", "keys", "status"], env)).toContain("Every data key unwraps.");
    } finally {
      await after.stop();
    }
  }, 120_000);
});
