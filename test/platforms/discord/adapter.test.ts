// Discord against a local stand-in of its webhook API, every request and answer checked against Discord's API
// description: connecting reads the webhook, a live post goes out through the real publish worker, markdown is
// escaped so the text shows as written (links untouched), nobody is pinged, images and a video (streamed from the
// bucket) go with their message, parts go as consecutive messages, and each documented failure is classified.
import { afterAll, afterEach, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { adapterFor } from "../../../src/platforms/adapter-registry.ts";
import { escapeDiscord } from "../../../src/platforms/discord/escape.ts";
import type { TestApp } from "../../helpers/app.ts";
import { describeEachDialect } from "../../helpers/db.ts";
import { type Tenant, tenant } from "../../helpers/factories.ts";
import { jpeg, upload } from "../../helpers/media.ts";
import { connectLive, liveVideo, networkApp, publishDirect, publishLive } from "../../helpers/networks.ts";
import { type LocalS3, localS3 } from "../../helpers/s3.ts";
import { sha256 } from "../../helpers/video.ts";
import {
  type DiscordStandIn,
  type DiscordWebhook,
  displayedText,
  startDiscord,
} from "../../stand-ins/discord.ts";
import { expectClean } from "../../stand-ins/server.ts";
import { validationNote } from "../../stand-ins/spec.ts";

validationNote();
// A stand-in compiles its description's validators on first use: seconds on a busy machine.
setDefaultTimeout(30_000);

const TRICKY =
  "**Not bold** _not italic_ ~~no strike~~ `no code` ||no spoiler|| [masked](https://evil.example) " +
  "@everyone @here <@123456789012345678> see https://example.com/a_b_c*d?q=1&r=2\n> not a quote\n# not a heading\n- not a list\n12. not numbered";

test("escapeDiscord: every formatting character escaped, links kept as written", () => {
  const escaped = escapeDiscord(TRICKY);
  expect(displayedText(escaped)).toBe(TRICKY);
  expect(escaped).toContain("https://example.com/a_b_c*d?q=1&r=2");
  expect(escaped).toContain("\\*\\*Not bold\\*\\*");
  expect(escaped).toContain("\n\\> not a quote\n\\# not a heading\n\\- not a list");
  expect(escaped).toContain("\\<@123456789012345678\\>");
});

describeEachDialect("discord adapter", (dialect) => {
  let t: TestApp;
  let a: Tenant;
  let d: DiscordStandIn;
  let hook: DiscordWebhook;
  let s3: LocalS3;
  const adapter = adapterFor("discord")!;
  const mine = () => d.messages.filter((m) => m.webhook_id === hook.id);

  beforeAll(async () => {
    d = await startDiscord();
    hook = d.addWebhook("Release bot");
    // Video lives in a bucket.
    s3 = await localS3();
    t = await networkApp(dialect, { discord: d.url }, s3.env);
    a = await tenant(t.app);
  });
  afterEach(() => expectClean(d));
  afterAll(async () => {
    await t.close();
    d.stop();
    await s3.close();
  });

  const connect = (webhook_url: string) =>
    adapter.connect!(t.app, {
      livemode: true,
      settings: {},
      secrets: { webhook_url },
      signal: new AbortController().signal,
    });

  test("connect reads the webhook; a deleted one or a URL that is not Discord's is refused", async () => {
    expect(await connect(hook.url)).toEqual({
      kind: "connected",
      account: {
        display_name: "Release bot",
        handle: null,
        profile_url: `https://discord.com/channels/${hook.guild_id}/${hook.channel_id}`,
      },
      settings: { guild_id: hook.guild_id },
    });
    const gone = d.addWebhook("Gone");
    gone.deleted = true;
    expect(await connect(gone.url)).toEqual({
      kind: "rejected",
      message: "Discord does not know this webhook: Unknown Webhook (code 10015)",
    });
    // The pasted URL's host is never contacted: only discord.com's webhook URLs are taken.
    const elsewhere = await connect(`http://127.0.0.1:${d.port}/api/webhooks/${hook.id}/${hook.token}`);
    expect(elsewhere.kind).toBe("rejected");
    expect(d.requests.filter((r) => r.rawPath.startsWith("/api/webhooks"))).toHaveLength(0);
  });

  test("a live post goes out through the publish worker, escaped and pinging nobody", async () => {
    const ch = await connectLive(t, a, "discord", { webhook_url: hook.url });
    const p = await publishLive(t, a, ch.id, { body: TRICKY });
    expect(p.targets[0].status).toBe("published");
    const m = mine().at(-1)!;
    expect(displayedText(m.content)).toBe(TRICKY);
    expect([m.mention_everyone, m.mentions]).toEqual([false, []]);
    // The permalink needs the guild, which connecting stores (guild_id): with it, it is the message's link.
    const direct = await publishDirect(t, "discord", {
      settings: { guild_id: hook.guild_id },
      secrets: { webhook_url: hook.url },
      parts: ["Linked"],
    });
    expect(direct.outcome).toEqual({
      kind: "published",
      permalink: `https://discord.com/channels/${hook.guild_id}/${hook.channel_id}/${mine().at(-1)!.id}`,
    });
  });

  test("a live post with images: one multipart message, each file described by its alt text", async () => {
    const ch = await connectLive(t, a, "discord", { webhook_url: hook.url });
    const chart = await upload(t, a.liveKey, {
      brand: a.brandId,
      alt: "Orange bar chart of Q3",
      file: { bytes: await jpeg(320, 200), name: "chart.jpg", type: "image/jpeg" },
    });
    const plain = await upload(t, a.liveKey, {
      brand: a.brandId,
      file: { bytes: await jpeg(100, 100), name: "plain.jpg", type: "image/jpeg" },
    });
    expect([chart.status, plain.status]).toEqual([201, 201]);
    const target = (
      await publishLive(t, a, ch.id, { body: "Quarterly numbers" }, [chart.body.id, plain.body.id])
    ).targets[0];
    expect(target.status).toBe("published");
    const m = mine().at(-1)!;
    expect(m.content).toBe("Quarterly numbers");
    expect(m.attachments.map((x) => [x.filename, x.description, x.file.type])).toEqual([
      ["1.jpeg", "Orange bar chart of Q3", "image/jpeg"],
      ["2.jpeg", null, "image/jpeg"],
    ]);
    const { default: sharp } = await import("sharp");
    const widths = await Promise.all(
      m.attachments.map(async (x) => (await sharp(x.file.bytes).metadata()).width),
    );
    expect(widths).toEqual([320, 100]);
  });

  test("a live post with a video: streamed from the bucket into the message, it arrives whole", async () => {
    const ch = await connectLive(t, a, "discord", { webhook_url: hook.url });
    const { id: clip, bytes } = await liveVideo(t, a, "Launch clip");
    const target = (await publishLive(t, a, ch.id, { body: "We launched" }, [clip])).targets[0];
    expect(target.status).toBe("published");
    const m = mine().at(-1)!;
    expect(m.content).toBe("We launched");
    expect(m.attachments.map((x) => [x.filename, x.description, x.file.type, x.file.bytes.length])).toEqual([
      ["1.mp4", "Launch clip", "video/mp4", bytes.length],
    ]);
    expect(sha256(m.attachments[0]!.file.bytes)).toBe(sha256(bytes));
    // Sent with its length announced, not chunked.
    const sent = d.requests.filter((x) => x.method === "POST").at(-1)!;
    expect(sent.headers["transfer-encoding"]).toBeUndefined();
    expect(Number(sent.headers["content-length"])).toBeGreaterThan(bytes.length);
  });

  test("parts go as consecutive messages and a retry resumes after the parts already sent", async () => {
    const before = mine().length;
    const secrets = { webhook_url: hook.url };
    // A 5xx on the first message: nothing was posted, a transient failure.
    d.fail("server_error");
    const first = await publishDirect(t, "discord", { secrets, parts: ["One"] });
    expect(first.outcome.kind).toBe("transient");
    const r = await publishDirect(t, "discord", { secrets, parts: ["One", "Two", "Three"] });
    expect(r.outcome.kind).toBe("published");
    const resumed = await publishDirect(t, "discord", {
      secrets,
      parts: ["One", "Two", "Three"],
      done: r.parts.slice(0, 2),
    });
    expect(resumed.parts.map((x) => x.index)).toEqual([2]);
    expect(
      mine()
        .slice(before)
        .map((m) => displayedText(m.content)),
    ).toEqual(["One", "Two", "Three", "Three"]);
  });

  test("documented failures are classified", async () => {
    const secrets = { webhook_url: hook.url };
    d.fail("rate_limited");
    expect((await publishDirect(t, "discord", { secrets, parts: ["x"] })).outcome).toEqual({
      kind: "rate_limited",
      retryAfterMs: 12_500,
      message: "Discord answered 429 to part 1: You are being rate limited. (code 0)",
    });
    d.fail("revoked");
    expect((await publishDirect(t, "discord", { secrets, parts: ["x"] })).outcome).toEqual({
      kind: "auth_revoked",
      message: "Discord answered 404 to part 1: Unknown Webhook (code 10015)",
    });
    d.fail("server_error");
    expect((await publishDirect(t, "discord", { secrets, parts: ["x"] })).outcome.kind).toBe("transient");
    const before = mine().length;
    d.fail("reset_after_read");
    expect((await publishDirect(t, "discord", { secrets, parts: ["Cut"] })).outcome.kind).toBe("uncertain");
    expect(mine().length).toBe(before + 1);
    // A permanent refusal: Discord's message and code are kept.
    expect((await publishDirect(t, "discord", { secrets, parts: ["   "] })).outcome).toEqual({
      kind: "rejected",
      code: "rejected",
      message: "Discord answered 400 to part 1: Cannot send an empty message (code 50006)",
    });
    // Longer than Discord takes once escaped: refused before sending, saying why.
    const seen = d.requests.length;
    const long = await publishDirect(t, "discord", { secrets, parts: ["*".repeat(1001)] });
    expect(long.outcome).toMatchObject({ kind: "rejected", code: "rejected" });
    expect(long.outcome.kind === "rejected" && long.outcome.message).toContain("2002 characters once");
    expect(d.requests.length).toBe(seen);
  });

  test("a deleted webhook makes the channel need reauth", async () => {
    const w = d.addWebhook("Soon deleted");
    const ch = await connectLive(t, a, "discord", { webhook_url: w.url });
    w.deleted = true;
    const p = await publishLive(t, a, ch.id, { body: "Will not go" });
    expect(p.targets[0].status).toBe("queued");
    expect((await t.request("GET", `/v1/channels/${ch.id}`, { key: a.liveKey })).body.status).toBe(
      "needs_reauth",
    );
  });
});
