import { describe, expect, test } from "bun:test";
import { publicPlatform } from "../../src/platforms/present.ts";
import { getPlatform, isProvider, platforms, rulesFor } from "../../src/platforms/rules-registry.ts";

describe("registry", () => {
  test("lists every provider once, sandbox first", () => {
    expect(platforms.map((p) => p.provider)).toEqual([
      "sandbox",
      "bluesky",
      "mastodon",
      "gab",
      "x",
      "threads",
      "linkedin",
      "linkedin_pages",
      "facebook",
      "instagram",
      "pinterest",
      "youtube",
      "tiktok",
      "discord",
      "telegram",
      "slack",
    ]);
  });

  test("isProvider and getPlatform know only those", () => {
    expect(isProvider("mastodon")).toBe(true);
    expect(isProvider("myspace")).toBe(false);
    expect(isProvider("toString")).toBe(false);
    expect(getPlatform("x")?.max_length).toBe(280);
    expect(getPlatform("myspace")).toBeUndefined();
  });

  test("limits from reference §5", () => {
    const limit = (p: string) => getPlatform(p)?.max_length;
    expect([limit("bluesky"), limit("mastodon"), limit("gab"), limit("threads"), limit("linkedin")]).toEqual([
      300, 500, 3000, 500, 3000,
    ]);
    expect([
      limit("facebook"),
      limit("instagram"),
      limit("pinterest"),
      limit("youtube"),
      limit("tiktok"),
    ]).toEqual([63_206, 2200, 800, 5000, 2200]);
    expect([limit("discord"), limit("telegram"), limit("slack")]).toEqual([2000, 4096, 40_000]);
    expect(getPlatform("telegram")?.images.max_length_with_media).toBe(1024);
    expect(getPlatform("x")?.images.max_bytes).toEqual({
      "image/jpeg": 5_000_000,
      "image/png": 5_000_000,
      "image/webp": 5_000_000,
      "image/gif": 15_000_000,
    });
    expect(getPlatform("instagram")?.images.max_bytes).toEqual({ "image/jpeg": 8_000_000 });
    // Slack (beyond the reference): files by a bot token's external upload; a webhook channel refuses them itself.
    expect(getPlatform("slack")?.max_media).toBe(10);
  });

  test("only bluesky and mastodon promise idempotency; threads and instagram fetch media by link", () => {
    expect(platforms.filter((p) => p.idempotent).map((p) => p.provider)).toEqual(["bluesky", "mastodon"]);
    expect(platforms.filter((p) => p.media_by_link).map((p) => p.provider)).toEqual(["threads", "instagram"]);
    expect(platforms.filter((p) => p.video_only).map((p) => p.provider)).toEqual(["youtube", "tiktok"]);
    expect(platforms.filter((p) => p.test_only).map((p) => p.provider)).toEqual(["sandbox"]);
  });

  test("connect fields", () => {
    const fields = (p: string) =>
      getPlatform(p)?.connect_fields.map((f) => [f.name, f.secret, f.optional, f.default]);
    expect(fields("bluesky")).toEqual([
      ["identifier", false, false, null],
      ["app_password", true, false, null],
      ["service", false, true, "https://bsky.social"],
    ]);
    expect(fields("mastodon")).toEqual([
      ["instance", false, false, null],
      ["access_token", true, false, null],
    ]);
    expect(fields("telegram")).toEqual([
      ["bot_token", true, false, null],
      ["chat_id", false, false, null],
    ]);
    // Slack: an incoming webhook URL, or a bot token and a channel; the adapter refuses neither or both.
    expect(fields("slack")).toEqual([
      ["webhook_url", true, true, null],
      ["bot_token", true, true, null],
      ["channel", false, true, null],
    ]);
    expect(fields("linkedin_pages")).toEqual([]);
  });

  test("a sandbox channel is checked against what it emulates, bluesky by default, but stays a sandbox", () => {
    const plain = rulesFor("sandbox");
    expect(plain.provider).toBe("sandbox");
    expect(plain.max_length).toBe(300);
    expect(plain.counting).toBe("bluesky");
    expect(plain.idempotent).toBe(false);
    expect(plain.test_only).toBe(true);
    expect(plain.connect_fields.map((f) => f.name)).toEqual(["display_name", "handle"]);

    const asX = rulesFor("sandbox", "x");
    expect([asX.provider, asX.max_length, asX.counting, asX.max_media]).toEqual([
      "sandbox",
      280,
      "x_weighted",
      4,
    ]);

    const asInstagram = rulesFor("sandbox", "instagram");
    expect([asInstagram.media_required, asInstagram.media_by_link]).toEqual([true, false]);

    expect(rulesFor("sandbox", "sandbox").max_length).toBeNull();
    expect(rulesFor("mastodon", "x").counting).toBe("mastodon");
  });

  test("the public shape states image and video rules and leaves out what only the service uses", () => {
    expect(Object.keys(publicPlatform(rulesFor("telegram")))).toEqual([
      "provider",
      "name",
      "max_length",
      "counting",
      "threads",
      "max_thread_parts",
      "media_required",
      "max_media",
      "images",
      "video",
      "connect_fields",
    ]);
    // A copy: a caller changing the presented rules cannot change the rules the service checks against.
    const x = publicPlatform(rulesFor("x"));
    x.video!.codecs!.push("vp9");
    expect(rulesFor("x").video!.codecs).toEqual(["h264"]);
    expect(publicPlatform(rulesFor("pinterest")).video).toBeNull();
  });
});
