// `svc reports view` against a real server: piped, one tab-separated line per figure (the month's numbers as the
// API reports them); on a terminal (a pseudo-terminal), the brand and month, each figure with its change and the
// top posts; --json with --jq; a missing --brand is a usage error (2), a bad month the API's error (1).
import { afterAll, beforeAll, expect, test } from "bun:test";
import { FakeClock } from "../../src/lib/clock.ts";
import { type Cli, cli } from "../helpers/cli.ts";
import { describeEachDialect } from "../helpers/db.ts";
import { type Tenant, tenant } from "../helpers/factories.ts";
import { type ListeningApp, listeningApp } from "../helpers/listening.ts";
import { seedPublished } from "../helpers/published.ts";

describeEachDialect("svc reports view", (dialect) => {
  let t: ListeningApp;
  let acme: Tenant;
  let c: Cli;
  beforeAll(async () => {
    t = await listeningApp(dialect, { clock: new FakeClock(Date.parse("2026-04-10T12:00:00Z")) });
    acme = await tenant(t.app, "Acme");
    const post = (at: string, provider: string, text: string, likes: number) => ({
      publishedAt: Date.parse(at),
      provider,
      text,
      likes,
      reposts: 2,
      replies: 1,
      quotes: 0,
      views: null,
    });
    await seedPublished(t.app, { orgId: acme.orgId, brandId: acme.brandId, livemode: false }, [
      post("2026-02-20T10:00:00Z", "bluesky", "February post", 4),
      post("2026-03-03T10:00:00Z", "bluesky", "Spring is here", 30),
      post("2026-03-18T10:00:00Z", "mastodon", "Our new shop opens", 10),
    ]);
    c = cli();
    expect(
      (await c.run(["auth", "login", "--hostname", t.url, "--with-token"], { stdin: acme.testKey })).code,
    ).toBe(0);
  });
  afterAll(async () => {
    c.cleanup();
    await t.close();
  });

  test("piped: one tab-separated line per figure, the previous period's beside it", async () => {
    const r = await c.run(["reports", "view", "--brand", acme.brandSlug]);
    expect([r.code, r.err]).toEqual([0, ""]);
    const rows = r.out
      .trimEnd()
      .split("\n")
      .map((l) => l.split("\t"));
    expect(rows).toContainEqual(["posts", "posts", "2", "1"]);
    expect(rows).toContainEqual(["posts", "by_network.bluesky.published", "1", "1"]);
    expect(rows).toContainEqual(["posts", "by_network.mastodon.published", "1", "0"]);
    // 30 + 2 + 1 and 10 + 2 + 1 this month; 4 + 2 + 1 in the period before.
    expect(rows).toContainEqual(["engagement", "total", "46", "7"]);
    expect(rows).toContainEqual(["engagement", "likes", "40", "4"]);
    for (const row of rows) expect(row).toHaveLength(4);
  });

  test("on a terminal: the brand, the month, the changes and the top posts", async () => {
    const p = c.pty(["reports", "view", "--brand", acme.brandSlug, "--month", "2026-03"]);
    expect(await p.exited).toBe(0);
    // Colour codes out: ESC, then [ … m.
    const screen = p.screen.replaceAll(String.fromCharCode(27), "").replace(/\[[0-9;]*m/g, "");
    expect(screen).toContain(`(${acme.brandSlug}) · 2026-03`);
    expect(screen).toMatch(/total\s+46\s+\+557% \(7 before\)/);
    expect(screen).toContain("TOP POSTS");
    expect(screen).toContain("1. Spring is here");
  });

  test("--json with --jq; a missing brand is a usage error, a bad month the API's", async () => {
    const j = await c.run([
      "reports",
      "view",
      "--brand",
      acme.brandSlug,
      "--json",
      "sections",
      "--jq",
      ".sections.engagement.total.value",
    ]);
    expect(j.out).toBe("46\n");
    const none = await c.run(["reports", "view"]);
    expect(none.code).toBe(2);
    expect(none.err).toContain("--brand is required");
    const bad = await c.run(["reports", "view", "--brand", acme.brandSlug, "--month", "2026-13"]);
    expect(bad.code).toBe(1);
    expect(bad.err).toContain("month_invalid");
  });
});
