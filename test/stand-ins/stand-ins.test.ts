// The stand-ins themselves: each refuses a request its network's description does not allow (and records it,
// which fails the test that sent it), and the answer checker catches an answer the description does not allow.
// Skipped checks are impossible here: with ../shared/api-specs absent these tests say so and fail.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { type DiscordStandIn, startDiscord } from "./discord.ts";
import { type MastodonStandIn, startMastodon } from "./mastodon.ts";
import { type SlackStandIn, startSlack } from "./slack.ts";
import { loadSpec, specsDir, validationNote } from "./spec.ts";
import { startTelegram, type TelegramStandIn } from "./telegram.ts";

validationNote();
// A stand-in compiles its description's validators on first use: seconds on a busy machine.
setDefaultTimeout(30_000);

describe("stand-ins validate against the published descriptions", () => {
  let mastodon: MastodonStandIn;
  let discord: DiscordStandIn;
  let telegram: TelegramStandIn;
  let slack: SlackStandIn;
  beforeAll(async () => {
    [mastodon, discord, telegram, slack] = await Promise.all([
      startMastodon(),
      startDiscord(),
      startTelegram(),
      startSlack(),
    ]);
  });
  afterAll(() => {
    for (const s of [mastodon, discord, telegram, slack]) s.stop();
  });

  test("the descriptions are present", () => {
    expect(specsDir()).not.toBeNull();
  });

  test("Mastodon: a visibility Mastodon does not have is refused (422) and recorded", async () => {
    const me = mastodon.addAccount("v");
    const r = await fetch(`${mastodon.url}/api/v1/statuses`, {
      method: "POST",
      headers: { authorization: `Bearer ${me.token}`, "content-type": "application/json" },
      body: JSON.stringify({ status: "x", visibility: "everyone" }),
    });
    expect(r.status).toBe(422);
    const problems = mastodon.problems.splice(0);
    expect(
      problems.some((p) => p.includes("/requestBody/visibility must be equal to one of the allowed values")),
    ).toBe(true);
    expect(mastodon.statuses).toHaveLength(0);
  });

  test("Discord: allowed_mentions.parse with an unknown type is refused (400, 50035)", async () => {
    const w = discord.addWebhook("v");
    const r = await fetch(`${discord.url}/api/v10/webhooks/${w.id}/${w.token}?wait=true`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ content: "x", allowed_mentions: { parse: ["nobody"] } }),
    });
    expect([r.status, ((await r.json()) as { code: number }).code]).toEqual([400, 50035]);
    expect(discord.problems.splice(0).length).toBeGreaterThan(0);
    expect(discord.messages).toHaveLength(0);
  });

  test("Telegram: sendMessage without chat_id is refused (400) and recorded", async () => {
    const bot = telegram.addBot("v_bot");
    const r = await fetch(`${telegram.url}/bot${bot.token}/sendMessage`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ text: "x" }),
    });
    expect(r.status).toBe(400);
    expect(telegram.problems.splice(0).some((p) => p.includes("chat_id"))).toBe(true);
  });

  test("Slack: chat.postMessage without a channel is refused and recorded", async () => {
    const bot = slack.addBot([]);
    const r = await fetch(`${slack.url}/api/chat.postMessage`, {
      method: "POST",
      headers: { authorization: `Bearer ${bot.token}`, "content-type": "application/x-www-form-urlencoded" },
      body: "text=x",
    });
    expect(((await r.json()) as { ok: boolean }).ok).toBe(false);
    expect(slack.problems.splice(0).some((p) => p.includes("channel"))).toBe(true);
  });

  test("answers are checked too: a status without its required fields is caught", async () => {
    const spec = await loadSpec({ file: "mastodon/schema.json" });
    expect(spec!.checkResponse("getStatus", 200, { id: "1" }).length).toBeGreaterThan(0);
    expect(spec!.checkResponse("getStatus", 299, {})).toEqual([
      "getStatus declares no 299 answer in mastodon/schema.json",
    ]);
  });
});
