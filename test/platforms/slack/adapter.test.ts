// Slack against a local stand-in (Web API checked against Slack's API description; incoming webhooks have none):
// connecting with a webhook URL (shape only) or a bot token and channel (auth.test + conversations.info), live
// posts through the real publish worker both ways, text escaped so it shows as written and pings nobody, parts
// as consecutive messages, and each documented failure classified.
import { afterAll, afterEach, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { adapterFor } from "../../../src/platforms/adapter-registry.ts";
import type { TestApp } from "../../helpers/app.ts";
import { describeEachDialect } from "../../helpers/db.ts";
import { type Tenant, tenant } from "../../helpers/factories.ts";
import { connectLive, networkApp, publishDirect, publishLive } from "../../helpers/networks.ts";
import { expectClean } from "../../stand-ins/server.ts";
import {
  displayedText,
  pings,
  type SlackBot,
  type SlackChannel,
  type SlackHook,
  type SlackStandIn,
  startSlack,
} from "../../stand-ins/slack.ts";
import { validationNote } from "../../stand-ins/spec.ts";

validationNote();
// A stand-in compiles its description's validators on first use: seconds on a busy machine.
setDefaultTimeout(30_000);

const TRICKY =
  "<!channel> <!here|here> <@U0SVC99999> @channel *not bold* _no_ ~no~ `no` a < b > c & d https://example.com/?a=1&b=2";

describeEachDialect("slack adapter", (dialect) => {
  let t: TestApp;
  let a: Tenant;
  let s: SlackStandIn;
  let general: SlackChannel;
  let bot: SlackBot;
  let hook: SlackHook;
  const adapter = adapterFor("slack")!;
  const inGeneral = () => s.messages.filter((m) => m.channel === general.id);

  beforeAll(async () => {
    s = await startSlack();
    general = s.addChannel("general");
    bot = s.addBot([general]);
    hook = s.addHook(general);
    t = await networkApp(dialect, { slack: s.url, "slack.hooks": s.url });
    a = await tenant(t.app);
  });
  afterEach(() => expectClean(s));
  afterAll(async () => {
    await t.close();
    s.stop();
  });

  const connect = (settings: Record<string, string>, secrets: Record<string, string>) =>
    adapter.connect!(t.app, { livemode: true, settings, secrets, signal: new AbortController().signal });

  test("connect: a bot token is checked with the channel; a webhook URL only by its shape", async () => {
    expect(await connect({ channel: general.id }, { bot_token: bot.token })).toEqual({
      kind: "connected",
      account: {
        display_name: "#general (Svc Workspace)",
        handle: "#general",
        profile_url: `${s.url}/archives/${general.id}`,
      },
    });
    expect(await connect({ channel: "C0NOPE" }, { bot_token: bot.token })).toEqual({
      kind: "rejected",
      message: "Slack: the bot cannot see channel C0NOPE: channel_not_found",
    });
    const gone = s.addBot([]);
    s.revoke(gone);
    expect(await connect({ channel: general.id }, { bot_token: gone.token })).toEqual({
      kind: "rejected",
      message: "Slack refused the bot token: invalid_auth",
    });
    expect(await connect({}, { webhook_url: hook.url })).toEqual({
      kind: "connected",
      account: { display_name: "Slack incoming webhook", handle: null, profile_url: null },
    });
    // Nothing is sent to a webhook to check it: anything sent would be posted.
    expect(s.requests.filter((r) => r.rawPath.startsWith("/services/"))).toHaveLength(0);
    for (const [settings, secrets] of [
      [{}, {}],
      [{}, { webhook_url: "https://example.com/services/T1/B1/abc" }],
      [{}, { bot_token: bot.token }],
      [{ channel: general.id }, { bot_token: bot.token, webhook_url: hook.url }],
    ] as const)
      expect((await connect(settings, secrets)).kind).toBe("rejected");
  });

  test("live posts go out through the publish worker, by webhook and by bot, as written and pinging nobody", async () => {
    const viaHook = await connectLive(t, a, "slack", { webhook_url: hook.url });
    const one = await publishLive(t, a, viaHook.id, { body: TRICKY });
    expect(one.targets[0].status).toBe("published");
    let m = inGeneral().at(-1)!;
    expect([m.via, displayedText(m.text), pings(m.text), m.mrkdwn]).toEqual(["webhook", TRICKY, [], false]);

    const viaBot = await connectLive(t, a, "slack", { bot_token: bot.token, channel: general.id });
    const two = await publishLive(t, a, viaBot.id, { body: TRICKY });
    expect(two.targets[0].status).toBe("published");
    m = inGeneral().at(-1)!;
    expect([m.via, displayedText(m.text), pings(m.text), m.mrkdwn]).toEqual(["api", TRICKY, [], false]);
    expect(two.targets[0].permalink).toBe(`${s.url}/archives/${general.id}/p${m.ts.replace(".", "")}`);
  });

  test("parts go as consecutive messages", async () => {
    const before = inGeneral().length;
    const r = await publishDirect(t, "slack", {
      settings: { channel: general.id },
      secrets: { bot_token: bot.token },
      parts: ["One", "Two"],
    });
    expect(r.outcome.kind).toBe("published");
    expect(
      inGeneral()
        .slice(before)
        .map((m) => m.text),
    ).toEqual(["One", "Two"]);
  });

  for (const way of ["webhook", "bot"] as const) {
    test(`documented failures are classified (${way})`, async () => {
      const opts: { settings?: Record<string, string>; secrets: Record<string, string>; parts: string[] } =
        way === "webhook"
          ? { secrets: { webhook_url: hook.url }, parts: ["x"] }
          : { settings: { channel: general.id }, secrets: { bot_token: bot.token }, parts: ["x"] };
      s.fail("rate_limited");
      expect((await publishDirect(t, "slack", opts)).outcome).toMatchObject({
        kind: "rate_limited",
        retryAfterMs: 30_000,
      });
      s.fail("revoked");
      expect((await publishDirect(t, "slack", opts)).outcome.kind).toBe("auth_revoked");
      s.fail("server_error");
      expect((await publishDirect(t, "slack", opts)).outcome.kind).toBe("transient");
      const before = inGeneral().length;
      s.fail("reset_after_read");
      expect((await publishDirect(t, "slack", opts)).outcome.kind).toBe("uncertain");
      expect(inGeneral().length).toBe(before + 1);
      general.archived = true;
      const archived = await publishDirect(t, "slack", opts);
      general.archived = false;
      expect(archived.outcome).toMatchObject({ kind: "rejected", code: "rejected" });
      expect(archived.outcome.kind === "rejected" && archived.outcome.message).toMatch(/archived/);
    });
  }

  test("a removed webhook and a revoked token make the channel need reauth", async () => {
    const h = s.addHook(general);
    const b = s.addBot([general]);
    const byHook = await connectLive(t, a, "slack", { webhook_url: h.url });
    const byBot = await connectLive(t, a, "slack", { bot_token: b.token, channel: general.id });
    h.removed = true;
    s.revoke(b);
    for (const ch of [byHook, byBot]) {
      const p = await publishLive(t, a, ch.id, { body: "Will not go" });
      expect(p.targets[0].status).toBe("queued");
      expect((await t.request("GET", `/v1/channels/${ch.id}`, { key: a.liveKey })).body.status).toBe(
        "needs_reauth",
      );
    }
  });
});
