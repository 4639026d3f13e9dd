// Never twice on Instagram, with real processes: a worker is killed (SIGKILL) while Instagram is still preparing
// the post's container (its status polled, not FINISHED). Nothing is on the account: a container is nothing until
// published. After reclaim the target is queued to be settled: a new worker looks for the post among the account's
// media (`find`), does not find it, and makes a new container, published once.
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import type { Subprocess } from "bun";
import { createApp as createSvcApp } from "../../../src/app/context.ts";
import { silentLogger } from "../../../src/app/log.ts";
import { openDatabase } from "../../../src/db/index.ts";
import { createApp } from "../../../src/domain/apps/create.ts";
import { finishSignIn } from "../../../src/domain/connect/callback.ts";
import { chooseAccounts, pendingSignIn } from "../../../src/domain/connect/choose.ts";
import { startSignIn } from "../../../src/domain/connect/start.ts";
import { FakeClock } from "../../../src/lib/clock.ts";
import { reclaimExpired } from "../../../src/queue/tasks/publish-reclaim.ts";
import type { TestApp } from "../../helpers/app.ts";
import { describeEachDialect } from "../../helpers/db.ts";
import { type Tenant, tenant } from "../../helpers/factories.ts";
import { jpeg, upload } from "../../helpers/media.ts";
import { networkApp } from "../../helpers/networks.ts";
import { personActor } from "../../helpers/person.ts";
import { type MetaStandIn, startMeta } from "../../stand-ins/meta.ts";
import { expectClean } from "../../stand-ins/server.ts";
import { validationNote } from "../../stand-ins/spec.ts";

validationNote();
setDefaultTimeout(120_000);

const BASE = "https://svc.example.org";
const CLIENT = { client_id: "555000111", client_secret: "crash-secret" };

describeEachDialect("Instagram: a worker killed during the container wait", (dialect) => {
  let t: TestApp;
  let a: Tenant;
  let meta: MetaStandIn;
  let env: Record<string, string>;
  beforeAll(async () => {
    meta = startMeta({
      fetchMedia: async (url) => t.http.handle(new Request(url.replace(BASE, "http://localhost"))),
    });
    const origins = { instagram: meta.url, "instagram.auth": meta.url, "instagram.token": meta.url };
    t = await networkApp(dialect, origins, { SVC_BASE_URL: BASE });
    env = {
      SVC_ALLOW_PRIVATE_NETWORKS: "true",
      SVC_PROVIDER_ORIGINS: Object.entries(origins)
        .map(([k, v]) => `${k}=${v}`)
        .join(","),
    };
    a = await tenant(t.app);
    await createApp(t.app, await personActor(t.app, a.userId, a.orgId, true), {
      provider: "instagram",
      name: "Meta",
      ...CLIENT,
    });
    meta.registerApp(CLIENT.client_id, CLIENT.client_secret, `${BASE}/connect/instagram/callback`);
  });
  afterAll(async () => {
    await t.close();
    meta.stop();
  });

  async function spawnWorker(): Promise<Subprocess<"ignore", "pipe", "inherit">> {
    const proc = Bun.spawn(["bun", "test/e2e/network-worker.ts"], {
      env: {
        ...process.env,
        ...env,
        SVC_DATABASE_URL: t.dbUrl,
        SVC_MASTER_KEYS: t.masterKeys,
        SVC_BASE_URL: BASE,
        SVC_LOG_LEVEL: "error",
      },
      stdout: "pipe",
      stderr: "inherit",
    });
    const reader = proc.stdout.getReader();
    const { value } = await reader.read();
    reader.releaseLock();
    if (!new TextDecoder().decode(value).includes("ready")) throw new Error("worker did not start");
    return proc;
  }

  test("SIGKILL while the container is being prepared: nothing posted; settled as not found, posted once", async () => {
    const actor = await personActor(t.app, a.userId, a.orgId, true);
    meta.addPage("kai", "Kai Crafts", "kaicrafts");
    meta.signInAs = "kai";
    const { url } = await startSignIn(t.app, actor, { provider: "instagram", brand: a.brandId });
    const back = await fetch(url, { redirect: "manual" });
    const { id } = await finishSignIn(t.app, a.userId, "instagram", new URL(back.headers.get("location")!));
    const pending = await pendingSignIn(t.app, actor, id);
    const [ch] = await chooseAccounts(t.app, actor, id, [pending.accounts[0]!.key]);
    const m = await upload(t, a.liveKey, {
      brand: a.brandId,
      file: { bytes: await jpeg(600, 600), name: "k.jpg", type: "image/jpeg" },
    });
    // Instagram keeps the container IN_PROGRESS for as long as the test needs.
    meta.imagePolls = 1_000_000;
    const r = await t.request("POST", "/v1/posts", {
      key: a.liveKey,
      body: { brand: a.brandId, content: { body: "Made by hand" }, channels: [ch!.id], media: [m.body.id] },
    });
    expect(r.status).toBe(201);
    const polls = () => meta.requests.filter((q) => q.query.fields === "id,status_code,status").length;
    const w = await spawnWorker();
    for (let i = 0; i < 2400 && polls() === 0; i++) await Bun.sleep(25);
    expect(polls()).toBeGreaterThan(0);
    w.kill("SIGKILL");
    await w.exited;
    expect(meta.containers).toHaveLength(1);
    expect(meta.media).toHaveLength(0);

    const later = createSvcApp(t.app.config, {
      database: openDatabase(t.dbUrl),
      log: silentLogger,
      clock: new FakeClock(Date.now() + 4 * 60_000),
    });
    expect(await reclaimExpired(later)).toBe(1);
    await later.close();
    const target = () =>
      t.app.db
        .selectFrom("post_targets")
        .select(["id", "status", "error_code", "permalink"])
        .where("post_id", "=", r.body.id)
        .executeTakeFirstOrThrow();
    // Instagram's posts can be looked for (`find`): the target is queued to be settled that way first.
    expect(await target()).toMatchObject({ status: "queued", error_code: "worker_lost" });
    // The reclaimer's clock ran 4 minutes ahead; what it queued is due now on the real clock.
    await t.app.db
      .updateTable("post_targets")
      .set({ next_attempt_at: Date.now() })
      .where("post_id", "=", r.body.id)
      .execute();
    // As if the lost attempt began over a minute ago: Instagram's consistency window has passed, so the new
    // worker's one look is trusted at once rather than after a minute's wait.
    const tid = (await target()).id;
    await t.app.db
      .updateTable("post_attempts")
      .set({ started_at: Date.now() - 2 * 60_000 })
      .where("target_id", "=", tid)
      .execute();
    meta.imagePolls = 1;
    const w2 = await spawnWorker();
    for (let i = 0; i < 2400 && (await target()).status !== "published"; i++) await Bun.sleep(25);
    w2.kill("SIGTERM");
    await w2.exited;
    const done = await target();
    expect(done.status).toBe("published");
    expect(meta.containers).toHaveLength(2);
    expect(meta.media).toHaveLength(1);
    expect(meta.containers.filter((c) => c.published)).toHaveLength(1);
    expect(done.permalink).toBe(`https://www.instagram.com/p/${meta.media[0]!.shortcode}/`);
    // The new worker looked among the account's media first and found nothing there.
    expect(meta.requests.some((q) => q.method === "GET" && q.path.endsWith("/media"))).toBe(true);
    expectClean(meta);
  });
});
