// `svc api` against a real server: paths, -X, -f/-F, --input, -H, --paginate over several pages, --jq, errors,
// and a reader that closes the pipe early.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { type Cli, cli } from "../helpers/cli.ts";
import { describeEachDialect } from "../helpers/db.ts";
import { type Tenant, tenant } from "../helpers/factories.ts";
import { type ListeningApp, listeningApp } from "../helpers/listening.ts";

describeEachDialect("svc api", (dialect) => {
  let t: ListeningApp;
  let acme: Tenant;
  let c: Cli;
  const made: string[] = [];
  beforeAll(async () => {
    t = await listeningApp(dialect);
    acme = await tenant(t.app, "Acme");
    c = cli();
    expect(
      (await c.run(["auth", "login", "--hostname", t.url, "--with-token"], { stdin: acme.testKey })).code,
    ).toBe(0);
    for (let i = 0; i < 40; i++) {
      const r = await t.request("POST", "/v1/posts", {
        key: acme.testKey,
        body: { brand: acme.brandId, content: { body: `Post number ${i}` }, publish_at: "next_slot" },
      });
      made.push(r.body.id);
    }
  });
  afterAll(async () => {
    c.cleanup();
    await t.close();
  });

  test("a GET prints the JSON; the path may leave out /v1", async () => {
    const r = await c.run(["api", "me"]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out)).toMatchObject({ object: "me", livemode: false, org: { id: acme.orgId } });
    expect((await c.run(["api", "/v1/me", "--jq", ".org.name"])).out).toBe("Acme\n");
  });

  test("--paginate follows has_more across pages and prints one list of every item", async () => {
    const r = await c.run(["api", "posts", "-f", "limit=10", "-f", `brand=${acme.brandId}`, "--paginate"]);
    expect(r.code).toBe(0);
    const body = JSON.parse(r.out);
    expect(body.object).toBe("list");
    expect(body.has_more).toBe(false);
    const ids = body.data.map((p: { id: string }) => p.id);
    // Four pages of 10; newest first; each post once.
    expect(ids).toEqual([...made].reverse());
    const n = await c.run(["api", "posts", "-f", "limit=10", "--paginate", "--jq", ".data | length"]);
    expect(n.out).toBe("40\n");
  });

  test("-f fields go in the body for POST; -F parses; --input sends a file; -H adds a header", async () => {
    const renamed = await c.run([
      "api",
      `brands/${acme.brandSlug}`,
      "-X",
      "POST",
      "-f",
      "name=Acme Store",
      "--jq",
      ".name",
    ]);
    expect(renamed).toEqual({ code: 0, out: "Acme Store\n", err: "" });
    const file = join(c.configDir, "post.json");
    writeFileSync(file, JSON.stringify({ brand: acme.brandId, content: { body: "From a file" } }));
    const made1 = await c.run([
      "api",
      "posts",
      "--input",
      file,
      "-H",
      "Idempotency-Key: file-1",
      "--jq",
      ".id",
    ]);
    const made2 = await c.run([
      "api",
      "posts",
      "--input",
      file,
      "-H",
      "Idempotency-Key: file-1",
      "--jq",
      ".id",
    ]);
    expect(made1.code).toBe(0);
    expect(made2.out).toBe(made1.out);
    const stdin = await c.run(["api", "posts/preview", "--input", "-", "--jq", ".valid"], {
      stdin: JSON.stringify({ brand: acme.brandId, content: { body: "ok" } }),
    });
    expect(stdin.out).toBe("true\n");
    const typed = await c.run([
      "api",
      "posts/preview",
      "-F",
      `brand="${acme.brandId}"`,
      "-F",
      'content={"body":"typed"}',
      "--jq",
      ".renditions[0].parts[0]",
    ]);
    expect(typed.out).toBe("typed\n");
  });

  test("in a terminal, --paginate shows its progress on stderr", async () => {
    const p = c.pty(["api", "posts", "--paginate", "-f", "limit=10", "--jq", ".data | length"]);
    expect(await p.exited).toBe(0);
    // The spinner redraws as pages arrive; its last message is the total.
    const [, pages, items] = [...p.screen.matchAll(/Fetched (\d+) pages, (\d+) items/g)].at(-1)!;
    expect(Number(pages)).toBe(Math.ceil(Number(items) / 10));
    expect(Number(items)).toBeGreaterThanOrEqual(40);
    expect(p.screen.trimEnd().split("\n").at(-1)).toBe(items);
  });

  test("an error prints the problem JSON and exits 1 with the message on stderr", async () => {
    const r = await c.run(["api", "posts", "-X", "GET", "-f", "limit=500"]);
    expect(r.code).toBe(1);
    expect(JSON.parse(r.out)).toMatchObject({ status: 400, param: "limit" });
    expect(r.err).toMatch(/^svc api: .+ \(parameter_invalid\)\n$/);
    const u = await c.run(["api", "posts", "-f", "nope"]);
    expect(u).toEqual({ code: 2, out: "", err: 'svc api: field "nope" must be key=value\n' });
    const p = await c.run(["api", "posts", "-X", "POST", "--paginate"]);
    expect(p).toEqual({ code: 2, out: "", err: "svc api: --paginate works with GET requests\n" });
  });

  test("several unknown fields: every one on stderr, with the did-you-mean, in one answer", async () => {
    const r = await c.run([
      "api",
      "brands",
      "-X",
      "POST",
      "-f",
      "name=Typo",
      "-f",
      "timezon=UTC",
      "-f",
      "colour=red",
    ]);
    expect(r.code).toBe(1);
    expect(JSON.parse(r.out)).toMatchObject({ status: 400, code: "parameter_unknown", param: "timezon" });
    expect(r.err).toBe(
      "svc api: Unknown parameters: timezon, colour. (parameter_unknown)\n" +
        "  - timezon: Unknown parameter timezon. Did you mean timezone? (parameter_unknown)\n" +
        "  - colour: Unknown parameter colour. (parameter_unknown)\n",
    );
  });

  test("a reader that closes the pipe early: exit 0, nothing on stderr, no stack trace", async () => {
    const p = Bun.spawn(
      ["bash", "-c", "set -o pipefail; bun src/main.ts api events --paginate | head -c 20 >/dev/null"],
      { env: c.env, stdout: "pipe", stderr: "pipe" },
    );
    const [err, code] = await Promise.all([new Response(p.stderr).text(), p.exited]);
    expect(err).toBe("");
    expect(code).toBe(0);
  });

  test("output larger than a pipe's buffer arrives whole", async () => {
    const p = Bun.spawn(["bash", "-c", "bun src/main.ts api events --paginate | (sleep 0.5; wc -c)"], {
      env: c.env,
      stdout: "pipe",
    });
    const bytes = Number((await new Response(p.stdout).text()).trim());
    const direct = await c.run(["api", "events", "--paginate"]);
    expect(direct.out.length).toBeGreaterThan(65536);
    expect(bytes).toBe(Buffer.byteLength(direct.out));
  });
});
