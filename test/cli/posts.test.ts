// Client commands over posts, channels and templates, and the printer: TSV in a pipe, aligned columns with colour
// in a terminal (a real pseudo-terminal), NO_COLOR, --json [fields], --jq, exit codes, problems one per line.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { type Cli, cli } from "../helpers/cli.ts";
import { describeEachDialect } from "../helpers/db.ts";
import { type Tenant, tenant } from "../helpers/factories.ts";
import { type ListeningApp, listeningApp } from "../helpers/listening.ts";

const POST_ID = /^post_[0-7][0-9a-z]{25}$/;

describeEachDialect("svc posts, channels, templates", (dialect) => {
  let t: ListeningApp;
  let acme: Tenant;
  let c: Cli;
  let channelId: string;
  beforeAll(async () => {
    t = await listeningApp(dialect);
    acme = await tenant(t.app, "Acme");
    c = cli();
    const r = await c.run(["auth", "login", "--hostname", t.url, "--with-token"], { stdin: acme.testKey });
    expect(r.code).toBe(0);
    channelId = (await t.request("GET", "/v1/channels", { key: acme.testKey })).body.data[0].id;
    const tmpl = await t.request("POST", "/v1/templates", {
      key: acme.testKey,
      body: {
        brand: acme.brandSlug,
        key: "release",
        name: "Release",
        body: "Version {{.version}} is out",
        variables: { type: "object", properties: { version: { type: "string" } }, required: ["version"] },
        examples: [{ version: "1.0" }],
      },
    });
    expect(tmpl.body).toMatchObject({ object: "template" });
  });
  afterAll(async () => {
    c.cleanup();
    await t.close();
  });

  test("posts create prints only the post ID", async () => {
    const r = await c.run([
      "posts",
      "create",
      "--brand",
      acme.brandSlug,
      "--body",
      "Hello from the CLI",
      "--at",
      "now",
    ]);
    expect(r.err).toBe("");
    expect(r.code).toBe(0);
    expect(r.out.trimEnd()).toMatch(POST_ID);
    const p = await t.request("GET", `/v1/posts/${r.out.trim()}`, { key: acme.testKey });
    expect(p.body.content.body).toBe("Hello from the CLI");
    expect(p.body.targets.map((x: { channel: string }) => x.channel)).toEqual([channelId]);
  });

  test("a template with data, --body-file from stdin, and an idempotency key that replays", async () => {
    const a = await c.run([
      "posts",
      "create",
      "--brand",
      acme.brandSlug,
      "--template",
      "release",
      "--data",
      '{"version":"2.0"}',
      "--at",
      "next_slot",
    ]);
    expect(a.code).toBe(0);
    const post = (await t.request("GET", `/v1/posts/${a.out.trim()}`, { key: acme.testKey })).body;
    expect(post.template).toBe("release");
    expect(post.targets[0].parts).toEqual(["Version 2.0 is out"]);
    const args = [
      "posts",
      "create",
      "--brand",
      acme.brandSlug,
      "--body-file",
      "-",
      "--idempotency-key",
      "k-1",
    ];
    const one = await c.run(args, { stdin: "From stdin\n" });
    const two = await c.run(args, { stdin: "From stdin\n" });
    expect(one.code).toBe(0);
    expect(two.out).toBe(one.out);
  });

  test("piped: posts list is tab-separated with no header; --limit; --search", async () => {
    const r = await c.run(["posts", "list", "--limit", "2"]);
    expect(r.code).toBe(0);
    const lines = r.out.trimEnd().split("\n");
    expect(lines).toHaveLength(2);
    for (const l of lines) {
      const cols = l.split("\t");
      expect(cols).toHaveLength(5);
      expect(cols[4]).toMatch(POST_ID);
      expect(cols[3]).toBe("Sandbox Bluesky");
    }
    expect(r.out).not.toContain("\x1b[");
    const s = await c.run(["posts", "list", "--search", "CLI"]);
    expect(s.out.split("\t")[2]).toBe("Hello from the CLI");
  });

  test("in a terminal: a header, aligned columns and colour; NO_COLOR turns colour off", async () => {
    const p = c.pty(["posts", "list", "--limit", "2"]);
    expect(await p.exited).toBe(0);
    const lines = p.screen.trimEnd().split("\n");
    expect(lines[0]).toMatch(/^STATUS {2,}WHEN {2,}TEXT {2,}CHANNELS {2,}ID$/);
    // Every row starts its ID column where the header's ID starts.
    const at = lines[0]!.indexOf("ID");
    for (const l of lines.slice(1)) expect(l.slice(at)).toMatch(POST_ID);
    expect(p.raw).toContain("\x1b[1mSTATUS\x1b[22m");
    expect(p.raw).toContain("\x1b[33mscheduled\x1b[39m");
    const plain = c.pty(["posts", "list", "--limit", "2"], { NO_COLOR: "1" });
    expect(await plain.exited).toBe(0);
    expect(plain.raw).not.toContain("\x1b[1m");
    expect(plain.screen).toContain("STATUS");
  });

  test("--json with fields, --json alone lists the fields, --jq runs real jq", async () => {
    const j = await c.run(["posts", "list", "--limit", "1", "--json", "id,status"]);
    const parsed = JSON.parse(j.out);
    expect(Object.keys(parsed[0])).toEqual(["id", "status"]);
    const f = await c.run(["posts", "list", "--json"]);
    expect(f.code).toBe(0);
    expect(f.out).toStartWith("Specify one or more comma-separated fields for --json:\n  id\n  object\n");
    const q = await c.run([
      "channels",
      "list",
      "--json",
      "id,provider",
      "--jq",
      '.[] | "\\(.provider) \\(.id)"',
    ]);
    expect(q).toEqual({ code: 0, out: `sandbox ${channelId}\n`, err: "" });
    const bad = await c.run(["posts", "list", "--json", "id,nope"]);
    expect(bad.code).toBe(1);
    expect(bad.err).toContain('unknown JSON field "nope"');
    const badJq = await c.run(["posts", "list", "--jq", ".[[["]);
    expect(badJq.code).toBe(1);
    expect(badJq.err).toStartWith("svc posts list: --jq: jq: error: syntax error");
  });

  test("posts get and cancel", async () => {
    const id = (
      await c.run(["posts", "create", "--brand", acme.brandSlug, "--body", "To cancel"])
    ).out.trim();
    const g = await c.run(["posts", "get", id]);
    expect(g.out).toContain(`ID:     ${id}`);
    expect(g.out).toContain("Text:   To cancel");
    expect(g.out).toContain(`Brand:  Acme Brand (${acme.brandSlug})`);
    expect(g.out).toContain(`Targets:\n  Sandbox Bluesky (sandbox, ${channelId}): queued`);
    expect(g.out).not.toContain("Media:");
    expect(g.out).not.toContain("Template:");
    const x = await c.run(["posts", "cancel", id, "--json", "id,status"]);
    expect(JSON.parse(x.out)).toEqual({ id, status: "canceled" });
    const missing = await c.run(["posts", "get", "post_0000000000000000000000000a"]);
    expect(missing.code).toBe(1);
    expect(missing.err).toMatch(/^svc posts get: .+ \(resource_missing\)\n$/);
  });

  test("posts preview exits 1 on a violation and names each channel", async () => {
    const ok = await c.run(["posts", "preview", "--brand", acme.brandSlug, "--body", "Short"]);
    expect(ok.code).toBe(0);
    expect(ok.out).toContain(`Sandbox Bluesky (sandbox, ${channelId})\n  [5/300]\n  Short`);
    const long = await c.run(["posts", "preview", "--brand", acme.brandSlug, "--body", "x".repeat(400)]);
    expect(long.code).toBe(1);
    expect(long.out).toContain("[400/300]");
    expect(long.err).toBe(
      `svc posts preview: 1 problem\n  Sandbox Bluesky (sandbox, ${channelId}): The text measures 400; Sandbox takes at most 300 (counting bluesky). (too_long)\n`,
    );
  });

  test("an API error with several problems prints each on its own line", async () => {
    const r = await c.run([
      "posts",
      "create",
      "--brand",
      acme.brandSlug,
      "--body",
      "x".repeat(400),
      "--channels",
      `${channelId},chan_0000000000000000000000000a`,
    ]);
    expect(r.code).toBe(1);
    const lines = r.err.trimEnd().split("\n");
    expect(lines[0]).toStartWith("svc posts create: ");
    expect(lines.slice(1)).toEqual([
      "  - channels.1: No channel chan_0000000000000000000000000a in this org and mode. (channel_missing)",
      `  - channels.${channelId}: The text measures 400; Sandbox takes at most 300 (counting bluesky). (too_long)`,
    ]);
  });

  test("usage errors exit 2: an unknown flag, a missing flag without a terminal, bad --at", async () => {
    expect(await c.run(["posts", "list", "--frob"])).toEqual({
      code: 2,
      out: "",
      err: "svc posts list: unknown flag --frob\nRun 'svc posts list --help' for usage.\n",
    });
    expect(await c.run(["posts", "create", "--body", "no brand"])).toEqual({
      code: 2,
      out: "",
      err: "svc posts create: --brand is required (no terminal to ask on)\n",
    });
    const at = await c.run(["posts", "create", "--brand", acme.brandSlug, "--body", "x", "--at", "soon"]);
    expect(at.code).toBe(2);
    expect(at.err).toContain("--at must be now, next_slot");
    expect((await c.run(["posts", "frob"])).code).toBe(2);
    expect((await c.run(["posts", "get"])).err).toStartWith("svc posts get: missing <id>");
  });

  test("--help on every client command exits 0", async () => {
    for (const args of [
      ["posts", "create"],
      ["auth", "login"],
      ["api"],
      ["listen"],
      ["members", "invite"],
      ["org", "update"],
    ]) {
      const r = await c.run([...args, "--help"]);
      expect(r.code).toBe(0);
      expect(r.out).toContain(`Usage: svc ${args.join(" ")}`);
      expect(r.out).toContain("Global flags:");
    }
  });

  test("channels list and templates get", async () => {
    const ch = await c.run(["channels", "list"]);
    // The brand by its slug, which --brand takes; --json keeps the ID.
    expect(ch.out).toBe(`${channelId}\tsandbox (bluesky)\tSandbox Bluesky\t${acme.brandSlug}\tactive\n`);
    expect(JSON.parse((await c.run(["channels", "list", "--json", "brand"])).out)).toEqual([
      { brand: acme.brandId },
    ]);
    const tg = await c.run(["templates", "get", "release", "--brand", acme.brandSlug]);
    expect(tg.code).toBe(0);
    expect(tg.out).toContain("Key:       release");
    expect(tg.out).toEndWith("\n\nVersion {{.version}} is out\n");
    const tl = await c.run(["templates", "list", "--brand", acme.brandSlug, "--jq", ".[].key"]);
    expect(tl.out).toBe("release\n");
    const none = await c.run(["templates", "get", "nope", "--brand", acme.brandSlug]);
    expect(none).toEqual({
      code: 1,
      out: "",
      err: `svc templates get: no template with key "nope" in brand ${acme.brandSlug}\n`,
    });
  });

  test("global flags may come before the command", async () => {
    const r = await c.run(["--json", "id", "channels", "list"]);
    expect(JSON.parse(r.out)).toEqual([{ id: channelId }]);
  });
});
