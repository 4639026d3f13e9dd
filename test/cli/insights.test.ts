// `svc ads …` and `svc analytics …` against a real server with a person's test-mode token: connect the sandboxes
// (a secret field read from stdin), list, read after the collection tasks ran, the summaries as TSV and JSON,
// errors on stderr with a non-zero exit, and remove.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { collectDueAdAccounts } from "../../src/domain/ads/collect.ts";
import { collectDueAnalyticsSources } from "../../src/domain/analytics/collect.ts";
import { type Cli, cli } from "../helpers/cli.ts";
import { describeEachDialect } from "../helpers/db.ts";
import { type Tenant, tenant, userToken } from "../helpers/factories.ts";
import { type ListeningApp, listeningApp } from "../helpers/listening.ts";

describeEachDialect("svc ads and svc analytics", (dialect) => {
  let t: ListeningApp;
  let acme: Tenant;
  let c: Cli;
  beforeAll(async () => {
    t = await listeningApp(dialect);
    acme = await tenant(t.app, "Acme");
    c = cli();
    const tok = await userToken(t.app, acme.userId);
    expect(
      (await c.run(["auth", "login", "--hostname", t.url, "--with-token"], { stdin: tok.secret })).code,
    ).toBe(0);
  });
  afterAll(async () => {
    c.cleanup();
    await t.close();
  });

  const tsv = (out: string) =>
    out
      .trimEnd()
      .split("\n")
      .map((l) => l.split("\t"));

  test("ads: networks, connect, list, summary, get, remove; a refusal exits non-zero", async () => {
    const nets = await c.run(["ads", "networks"]);
    expect(tsv(nets.out).map((r) => [r[0], r[2]])).toEqual([
      ["sandbox", "test"],
      ["meta", "live"],
    ]);
    const made = await c.run(
      [
        "ads",
        "connect",
        "--brand",
        acme.brandSlug,
        "--network",
        "sandbox",
        "--field",
        "account_name=Acme CLI",
        "--secret-stdin",
        "currency",
        "--json",
        "id,currency",
      ],
      { stdin: "EUR\n" },
    );
    expect(made.code).toBe(0);
    const acct = JSON.parse(made.out);
    expect(acct.currency).toBe("EUR");
    const dup = await c.run([
      "ads",
      "connect",
      "--brand",
      acme.brandSlug,
      "--network",
      "sandbox",
      "--field",
      "account_name=Acme CLI",
    ]);
    expect([dup.code, dup.err]).toEqual([1, expect.stringContaining("ad_account_connected")]);
    expect(tsv((await c.run(["ads", "list"])).out).map((r) => [r[0], r[4]])).toEqual([[acct.id, "active"]]);

    await collectDueAdAccounts(t.app);
    const sum = await c.run(["ads", "summary", "--group-by", "campaign"]);
    expect(sum.code).toBe(0);
    const rows = tsv(sum.out);
    expect(rows).toHaveLength(3);
    expect(rows.every((r) => r[1]!.startsWith("€"))).toBe(true);
    const json = JSON.parse(
      (await c.run(["ads", "summary", "--group-by", "day", "--json", "object,data"])).out,
    );
    expect([json.object, json.data.length]).toEqual(["ads_summary", 30]);
    const bad = await c.run(["ads", "summary", "--since", "2020-01-01", "--until", "2026-01-01"]);
    expect([bad.code, bad.err]).toEqual([1, expect.stringContaining("window_invalid")]);
    expect((await c.run(["ads", "get", acct.id])).out).toContain("Acme CLI");
    expect((await c.run(["ads", "remove", acct.id])).code).toBe(0);
    expect((await c.run(["ads", "list"])).out.trim()).toBe("");
  });

  test("analytics: providers, connect with goals, summary by post, remove", async () => {
    expect(tsv((await c.run(["analytics", "providers"])).out).map((r) => r[0])).toEqual([
      "sandbox",
      "plausible",
      "ga4",
    ]);
    const made = await c.run([
      "analytics",
      "connect",
      "--brand",
      acme.brandSlug,
      "--provider",
      "sandbox",
      "--goal",
      "Signup",
      "--goal",
      "Trial",
      "--json",
      "id,goals",
    ]);
    expect(made.code).toBe(0);
    const src = JSON.parse(made.out);
    expect(src.goals).toEqual(["Signup", "Trial"]);
    const tooLong = await c.run([
      "analytics",
      "connect",
      "--brand",
      acme.brandSlug,
      "--provider",
      "sandbox",
      "--goal",
      "x".repeat(121),
      "--field",
      "site=b.example",
    ]);
    expect([tooLong.code, tooLong.err]).toEqual([1, expect.stringContaining("goal_invalid")]);
    await collectDueAnalyticsSources(t.app);
    const byPost = tsv((await c.run(["analytics", "summary"])).out);
    expect(byPost.map((r) => r[0])).toEqual(["untagged"]);
    expect(Number(byPost[0]![1])).toBeGreaterThan(0);
    expect((await c.run(["analytics", "remove", src.id])).code).toBe(0);
  });
});
