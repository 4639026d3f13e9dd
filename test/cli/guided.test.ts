// Guided sessions in a real pseudo-terminal: `svc posts create` (brand, channels, text, files to attach, preview
// with a violation, edit, when) and `svc admin bootstrap` (email, org, brand). Without a terminal the same
// commands name the missing flag instead (covered in posts.test.ts and admin.test.ts).
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Cli, cli } from "../helpers/cli.ts";
import { describeEachDialect } from "../helpers/db.ts";
import { type Tenant, tenant } from "../helpers/factories.ts";
import { type ListeningApp, listeningApp } from "../helpers/listening.ts";
import { jpeg } from "../helpers/media.ts";
import { KEY, spawnPty } from "../helpers/pty.ts";

describeEachDialect("guided prompts", (dialect) => {
  let t: ListeningApp;
  let acme: Tenant;
  let c: Cli;
  let bluesky: string;
  let mastodon: string;
  beforeAll(async () => {
    t = await listeningApp(dialect);
    acme = await tenant(t.app, "Acme");
    c = cli();
    expect(
      (await c.run(["auth", "login", "--hostname", t.url, "--with-token"], { stdin: acme.testKey })).code,
    ).toBe(0);
    bluesky = (await t.request("GET", "/v1/channels", { key: acme.testKey })).body.data[0].id;
    const m = await t.request("POST", "/v1/channels", {
      key: acme.testKey,
      body: {
        brand: acme.brandSlug,
        provider: "sandbox",
        emulates: "mastodon",
        fields: { display_name: "Toots" },
      },
    });
    expect(m.status).toBe(201);
    mastodon = m.body.id;
  });
  afterAll(async () => {
    c.cleanup();
    await t.close();
  });

  test("posts create asks for channels and text, shows the violation, lets the person edit, then asks when", async () => {
    const p = c.pty(["posts", "create", "--brand", acme.brandSlug]);
    let mark = 0;
    const step = async (re: RegExp) => {
      await p.waitFor(re, 15_000, mark);
      mark = p.raw.length;
    };
    await step(/Which channels\?/);
    expect(p.screen).toContain("Toots");
    p.write(KEY.enter); // both, as offered
    await step(/Text or template\?/);
    p.write(KEY.enter); // write the text
    await step(/Text/);
    p.write(`${"y".repeat(320)}${KEY.tab}${KEY.enter}`);
    await step(/Attach files\?/);
    p.write(KEY.enter); // none
    await step(/It does not fit every channel\./);
    // The violation names the Bluesky-like channel only; Mastodon takes 500.
    expect(p.screen).toContain(
      `Sandbox Bluesky (sandbox, ${bluesky}): The text measures 320; Sandbox takes at most 300`,
    );
    expect(p.screen).not.toContain(`Toots (sandbox, ${mastodon}):`);
    p.write(KEY.enter); // edit the text
    await step(/Text/);
    p.write(`${"\x7f".repeat(30)}${KEY.tab}${KEY.enter}`);
    await step(/Looks right\?/);
    expect(p.screen).toContain("[290/300]");
    p.write(KEY.enter); // continue
    await step(/When\?/);
    p.write(`${KEY.down}${KEY.enter}`); // now
    expect(await p.exited).toBe(0);
    const id = /Created (post_[0-9a-z]{26})/.exec(p.screen)![1]!;
    const post = (await t.request("GET", `/v1/posts/${id}`, { key: acme.testKey })).body;
    expect(post.content.body).toBe("y".repeat(290));
    expect(post.targets.map((x: { channel: string }) => x.channel).sort()).toEqual(
      [bluesky, mastodon].sort(),
    );
    // printed alone on the last line, as in a pipe
    expect(p.screen.trimEnd().split("\n").at(-1)).toBe(id);
  }, 40_000);

  test("posts create attaches files: a wrong path is named and asked again, then each file's alt text", async () => {
    const dir = mkdtempSync(join(tmpdir(), "svc-guided-media-"));
    try {
      const photo = join(dir, "photo.jpg");
      const bytes = await jpeg(400, 300);
      writeFileSync(photo, bytes);
      const p = c.pty(["posts", "create", "--brand", acme.brandSlug, "--channels", mastodon]);
      let mark = 0;
      const step = async (re: RegExp) => {
        await p.waitFor(re, 15_000, mark);
        mark = p.raw.length;
      };
      await step(/Text or template\?/);
      p.write(KEY.enter);
      await step(/Text/);
      p.write(`With a photo${KEY.tab}${KEY.enter}`);
      await step(/Attach files\?/);
      p.write(`${join(dir, "nope.jpg")}${KEY.enter}`);
      await step(/no such file, and not a media ID[\s\S]*Attach files\?/);
      p.write(`${photo}${KEY.enter}`);
      await step(/Alt text for photo\.jpg/);
      p.write(`A red square${KEY.enter}`);
      await step(/Looks right\?/);
      expect(p.screen).toMatch(/Uploaded photo\.jpg \(\d+(\.\d)? KiB\) media_/);
      p.write(KEY.enter);
      await step(/When\?/);
      p.write(KEY.enter); // next slot
      expect(await p.exited).toBe(0);
      const id = p.screen.trimEnd().split("\n").at(-1)!;
      const post = (await t.request("GET", `/v1/posts/${id}`, { key: acme.testKey })).body;
      expect(post.media).toHaveLength(1);
      const medium = (await t.request("GET", `/v1/media/${post.media[0].id}`, { key: acme.testKey })).body;
      expect(medium).toMatchObject({ size: bytes.length, type: "image/jpeg", alt: "A red square" });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 40_000);

  test("the text takes several lines: Enter starts a line, a blank line stays, Tab then Enter finishes; a typed time is the brand's", async () => {
    await t.request("POST", `/v1/brands/${acme.brandId}`, {
      key: acme.testKey,
      body: { timezone: "Asia/Kolkata" },
    });
    const day = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
    const p = c.pty(["posts", "create", "--brand", acme.brandSlug, "--channels", mastodon]);
    let mark = 0;
    const step = async (re: RegExp) => {
      await p.waitFor(re, 15_000, mark);
      mark = p.raw.length;
    };
    await step(/Text or template\?/);
    p.write(KEY.enter);
    await step(/Text \(Enter: new line; Tab, then Enter: done\)/);
    p.write(`First line${KEY.enter}second line${KEY.enter}${KEY.enter}A new paragraph${KEY.enter}`);
    p.write(`${KEY.tab}${KEY.enter}`);
    await step(/Attach files\?/);
    p.write(KEY.enter);
    await step(/Looks right\?/);
    p.write(KEY.enter);
    await step(/When\?/);
    p.write(`${KEY.down}${KEY.down}${KEY.enter}`); // at a time
    await step(/YYYY-MM-DD HH:MM in Asia\/Kolkata, .+'s time zone/);
    p.write(`${day} 09:00${KEY.enter}`);
    expect(await p.exited).toBe(0);
    expect(p.screen).toContain(`${day} 09:00 Asia/Kolkata is ${day}T03:30:00Z`);
    const id = p.screen.trimEnd().split("\n").at(-1)!;
    const post = (await t.request("GET", `/v1/posts/${id}`, { key: acme.testKey })).body;
    expect(post.content.body).toBe("First line\nsecond line\n\nA new paragraph");
    expect(Date.parse(post.publish_at)).toBe(Date.parse(`${day}T03:30:00Z`));
    // posts get keeps the lines under the value column.
    const g = await c.run(["posts", "get", id]);
    expect(g.out).toContain("Text:   First line\n        second line\n\n        A new paragraph\n");
  }, 40_000);

  test("too long: the preview offers --fit's thread for the network it is too long for, and the post is made as a thread", async () => {
    const p = c.pty(["posts", "create", "--brand", acme.brandSlug, "--channels", bluesky]);
    let mark = 0;
    const step = async (re: RegExp) => {
      await p.waitFor(re, 15_000, mark);
      mark = p.raw.length;
    };
    await step(/Text or template\?/);
    p.write(KEY.enter);
    await step(/Text \(/);
    p.write(`${Array.from({ length: 100 }, () => "word").join(" ")}${KEY.tab}${KEY.enter}`);
    await step(/Attach files\?/);
    p.write(KEY.enter);
    await step(
      /It does not fit every channel\.[\s\S]*Make it a thread on sandbox[\s\S]*Cut it short on sandbox/,
    );
    p.write(`${KEY.down}${KEY.enter}`); // make it a thread
    await step(/Looks right\?/);
    expect(p.screen).toContain("[part 2, 199/300]");
    p.write(KEY.enter);
    await step(/When\?/);
    p.write(`${KEY.down}${KEY.enter}`); // now
    expect(await p.exited).toBe(0);
    const id = p.screen.trimEnd().split("\n").at(-1)!;
    const post = (await t.request("GET", `/v1/posts/${id}`, { key: acme.testKey })).body;
    expect(post.targets[0].parts).toHaveLength(2);
  }, 40_000);

  test("Ctrl-C at a prompt cancels and creates nothing", async () => {
    const before = (await t.request("GET", "/v1/posts", { key: acme.testKey })).body.data.length;
    const p = c.pty(["posts", "create"]);
    await p.waitFor(/Which channels\?/);
    p.write(KEY.ctrlC);
    expect(await p.exited).toBe(130);
    expect((await t.request("GET", "/v1/posts", { key: acme.testKey })).body.data.length).toBe(before);
  }, 20_000);

  test("admin bootstrap asks for the email, the org and the brand", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "svc-boot-"));
    const fresh = await listeningApp(dialect);
    try {
      const p = spawnPty(["bun", "src/main.ts", "admin", "bootstrap"], {
        PATH: process.env.PATH ?? "",
        HOME: dataDir,
        SVC_DATABASE_URL: fresh.dbUrl,
        SVC_MASTER_KEYS: fresh.masterKeys,
        SVC_DATA_DIR: dataDir,
      });
      await p.waitFor(/Your email/);
      p.write(`first@example.com${KEY.enter}`);
      await p.waitFor(/Organization name/);
      p.write(`Globex${KEY.enter}`);
      await p.waitFor(/First brand/);
      p.write(`Globex Shop${KEY.enter}`);
      expect(await p.exited).toBe(0);
      expect(p.screen).toMatch(/Org: {6}Globex \(org_/);
      expect(p.screen).toMatch(/Brand: {4}Globex Shop \(globex-shop, brand_/);
      expect(p.screen).toContain("Admin:    first@example.com");
    } finally {
      await fresh.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 40_000);
});
