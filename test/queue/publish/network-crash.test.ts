// Never twice, per network, with real processes: a worker publishing to each stand-in is killed (SIGKILL) while
// every network has taken the post but not yet answered; after reclaim a new worker finishes. Each stand-in is
// then asked how many posts it holds: exactly one each. Mastodon, which honours Idempotency-Key, is retried and
// published with that one status; the networks without idempotency wait for a person (worker_lost).
import { afterAll, beforeAll, expect, test } from "bun:test";
import type { Subprocess } from "bun";
import { createApp } from "../../../src/app/context.ts";
import { silentLogger } from "../../../src/app/log.ts";
import { openDatabase } from "../../../src/db/index.ts";
import { FakeClock } from "../../../src/lib/clock.ts";
import { reclaimExpired } from "../../../src/queue/tasks/publish-reclaim.ts";
import type { TestApp } from "../../helpers/app.ts";
import { describeEachDialect } from "../../helpers/db.ts";
import { type Tenant, tenant } from "../../helpers/factories.ts";
import { jpeg, upload } from "../../helpers/media.ts";
import { connectLive, networkApp } from "../../helpers/networks.ts";
import { type DiscordStandIn, startDiscord } from "../../stand-ins/discord.ts";
import { type MastodonStandIn, startMastodon } from "../../stand-ins/mastodon.ts";
import { expectClean } from "../../stand-ins/server.ts";
import { type SlackStandIn, startSlack } from "../../stand-ins/slack.ts";
import { validationNote } from "../../stand-ins/spec.ts";
import { startTelegram, type TelegramStandIn } from "../../stand-ins/telegram.ts";

validationNote();

const TEXT = "Never twice: this goes out once";

async function spawnWorker(
  t: TestApp,
  env: Record<string, string>,
): Promise<Subprocess<"ignore", "pipe", "inherit">> {
  const proc = Bun.spawn(["bun", "test/e2e/network-worker.ts"], {
    env: {
      ...process.env,
      ...env,
      SVC_DATABASE_URL: t.dbUrl,
      SVC_MASTER_KEYS: t.masterKeys,
      SVC_BASE_URL: "http://localhost:8080",
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

describeEachDialect("never twice on the real networks", (dialect) => {
  let t: TestApp;
  let a: Tenant;
  let mastodon: MastodonStandIn;
  let gab: MastodonStandIn;
  let discord: DiscordStandIn;
  let telegram: TelegramStandIn;
  let slack: SlackStandIn;
  let env: Record<string, string>;
  beforeAll(async () => {
    [mastodon, gab, discord, telegram, slack] = await Promise.all([
      startMastodon(),
      startMastodon({ gab: true }),
      startDiscord(),
      startTelegram(),
      startSlack(),
    ]);
    const origins = {
      gab: gab.url,
      discord: discord.url,
      telegram: telegram.url,
      slack: slack.url,
      "slack.hooks": slack.url,
    };
    env = {
      SVC_ALLOW_PRIVATE_NETWORKS: "true",
      SVC_PROVIDER_ORIGINS: Object.entries(origins)
        .map(([k, v]) => `${k}=${v}`)
        .join(","),
    };
    t = await networkApp(dialect, origins);
    a = await tenant(t.app);
  });
  afterAll(async () => {
    await t.close();
    for (const s of [mastodon, gab, discord, telegram, slack]) s.stop();
  });

  test("SIGKILL while every network holds its answer, then reclaim and a new worker: one post each", async () => {
    const m = mastodon.addAccount("crash");
    const g = gab.addAccount("crash");
    const hook = discord.addWebhook("Crash");
    const bot = telegram.addBot("crash_bot");
    const chat = telegram.addChat({ type: "channel", title: "Crash", username: "crashchan" }, [bot]);
    const room = slack.addChannel("crash");
    const slackBot = slack.addBot([room]);
    const channels = {
      mastodon: await connectLive(t, a, "mastodon", { instance: mastodon.url, access_token: m.token }),
      gab: await connectLive(t, a, "gab", { access_token: g.token }),
      discord: await connectLive(t, a, "discord", { webhook_url: hook.url }),
      telegram: await connectLive(t, a, "telegram", { bot_token: bot.token, chat_id: "@crashchan" }),
      slack: await connectLive(t, a, "slack", { bot_token: slackBot.token, channel: room.id }),
    };
    // Each network stores the post at once and holds its answer for a minute.
    for (const s of [mastodon, gab, discord, telegram, slack]) s.fail({ slowMs: 60_000 });
    const r = await t.request("POST", "/v1/posts", {
      key: a.liveKey,
      body: {
        brand: a.brandId,
        content: { body: TEXT },
        channels: Object.values(channels).map((c) => c.id),
      },
    });
    expect(r.status).toBe(201);

    const counts = () => ({
      mastodon: mastodon.statuses.filter((s) => s.account_id === m.id).length,
      gab: gab.statuses.filter((s) => s.account_id === g.id).length,
      discord: discord.messages.filter((x) => x.webhook_id === hook.id).length,
      telegram: telegram.messages.filter((x) => x.chat_id === chat.id).length,
      slack: slack.messages.filter((x) => x.channel === room.id).length,
    });
    const targets = () =>
      t.app.db
        .selectFrom("post_targets")
        .select(["provider", "status", "error_code", "permalink"])
        .where("post_id", "=", r.body.id)
        .execute();
    const w = await spawnWorker(t, env);
    // Generous: each stand-in compiles its description's validators on first use, on a machine shared with others.
    for (let i = 0; i < 2400 && Object.values(counts()).some((n) => n === 0); i++) await Bun.sleep(25);
    expect(counts()).toEqual({ mastodon: 1, gab: 1, discord: 1, telegram: 1, slack: 1 });
    w.kill("SIGKILL");
    await w.exited;

    // Leases last 3 minutes: the reclaimer runs as if that much time had passed.
    const later = createApp(t.app.config, {
      database: openDatabase(t.dbUrl),
      log: silentLogger,
      clock: new FakeClock(Date.now() + 4 * 60_000),
    });
    expect(await reclaimExpired(later)).toBe(5);
    await later.close();
    // What the reclaimer decided: an idempotent network (Mastodon) is queued again; a network whose posts svc can
    // look for (Gab's `find`) may be queued to be looked for first, where the worker settles that way; the others
    // wait for a person.
    const reclaimed = Object.fromEntries((await targets()).map((x) => [x.provider, x.status]));
    expect(reclaimed.mastodon).toBe("queued");
    for (const p of ["discord", "telegram", "slack"])
      expect([p, reclaimed[p]]).toEqual([p, "needs_attention"]);
    // The reclaimer's clock ran 4 minutes ahead; the retry it queued is due now on the real clock.
    await t.app.db
      .updateTable("post_targets")
      .set({ next_attempt_at: Date.now() })
      .where("post_id", "=", r.body.id)
      .where("status", "=", "queued")
      .execute();

    const w2 = await spawnWorker(t, env);
    for (let i = 0; i < 2400; i++) {
      if ((await targets()).every((x) => x.status !== "queued" && x.status !== "publishing")) break;
      await Bun.sleep(25);
    }
    w2.kill("SIGTERM");
    await w2.exited;

    const byProvider = Object.fromEntries((await targets()).map((x) => [x.provider, x]));
    // Mastodon was retried with the same Idempotency-Key: the server answered with the status it already had.
    const status = mastodon.statuses.find((s) => s.account_id === m.id)!;
    expect(byProvider.mastodon).toMatchObject({
      status: "published",
      permalink: `${mastodon.url}/@crash/${status.id}`,
    });
    // Gab: looked for and found (published with the one status it has), or left for a person.
    const gabStatus = gab.statuses.find((s) => s.account_id === g.id)!;
    if (reclaimed.gab === "queued")
      expect(byProvider.gab).toMatchObject({
        status: "published",
        permalink: `${gab.url}/@crash/${gabStatus.id}`,
      });
    else
      expect([byProvider.gab!.status, byProvider.gab!.error_code]).toEqual([
        "needs_attention",
        "worker_lost",
      ]);
    for (const p of ["discord", "telegram", "slack"])
      expect([p, byProvider[p]!.status, byProvider[p]!.error_code]).toEqual([
        p,
        "needs_attention",
        "worker_lost",
      ]);
    expect(counts()).toEqual({ mastodon: 1, gab: 1, discord: 1, telegram: 1, slack: 1 });
    for (const s of [mastodon, gab, discord, telegram, slack]) expectClean(s);
  }, 180_000);

  test("Slack with an image: SIGKILL while files.completeUploadExternal holds its answer: shared once, never again", async () => {
    const room = slack.addChannel("crash-files");
    const slackBot = slack.addBot([room]);
    const ch = await connectLive(t, a, "slack", { bot_token: slackBot.token, channel: room.id });
    const img = await upload(t, a.liveKey, {
      brand: a.brandId,
      file: { bytes: await jpeg(64, 48), name: "a.jpg", type: "image/jpeg" },
    });
    expect(img.status).toBe(201);
    // The files are shared into the channel at once, and the answer is held for a minute.
    slack.fail({ slowMs: 60_000 });
    const r = await t.request("POST", "/v1/posts", {
      key: a.liveKey,
      body: { brand: a.brandId, content: { body: TEXT }, channels: [ch.id], media: [img.body.id] },
    });
    expect(r.status).toBe(201);
    const inRoom = () => slack.messages.filter((x) => x.channel === room.id);
    const w = await spawnWorker(t, env);
    for (let i = 0; i < 2400 && inRoom().length === 0; i++) await Bun.sleep(25);
    expect(inRoom().map((x) => [x.text, x.files?.length])).toEqual([[TEXT, 1]]);
    w.kill("SIGKILL");
    await w.exited;

    const later = createApp(t.app.config, {
      database: openDatabase(t.dbUrl),
      log: silentLogger,
      clock: new FakeClock(Date.now() + 4 * 60_000),
    });
    expect(await reclaimExpired(later)).toBe(1);
    await later.close();
    // Slack keeps no idempotency key and svc cannot look for a shared file: a person decides, nothing is resent.
    const target = await t.app.db
      .selectFrom("post_targets")
      .select(["status", "error_code"])
      .where("post_id", "=", r.body.id)
      .executeTakeFirstOrThrow();
    expect([target.status, target.error_code]).toEqual(["needs_attention", "worker_lost"]);
    const w2 = await spawnWorker(t, env);
    await Bun.sleep(500);
    w2.kill("SIGTERM");
    await w2.exited;
    expect(inRoom()).toHaveLength(1);
    expect(slack.files.filter((f) => f.shared)).toHaveLength(1);
    expectClean(slack);
  }, 120_000);
});
