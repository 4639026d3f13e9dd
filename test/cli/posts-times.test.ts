// What `svc posts` says about time, names and fit, run as the real binary against a real server: a time typed
// without a zone is the brand's wall-clock time (and stderr says so), next_slot says which slot it took, --fit
// takes network=mode pairs, `posts get` lists media and names the brand and channels, and `posts list` shows
// when each post is due, never when it was made.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Cli, cli } from "../helpers/cli.ts";
import { describeEachDialect } from "../helpers/db.ts";
import { key, type Tenant, tenant } from "../helpers/factories.ts";
import { type ListeningApp, listeningApp } from "../helpers/listening.ts";
import { jpeg } from "../helpers/media.ts";

// Kolkata is UTC+05:30 all year, so a wall-clock time there has one UTC reading, whatever the date.
const ZONE = "Asia/Kolkata";
/**
 * A date 30 days ahead, as YYYY-MM-DD (within the year a post may be scheduled ahead). It falls on any day of the
 * week, so the times below keep off the default slots (09:00 and 13:00 on weekdays): a post at a slot's time holds
 * that slot, and a second one there is refused.
 */
const ahead = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);

describeEachDialect("svc posts: zones, slots, fit, names, media", (dialect) => {
  let t: ListeningApp;
  let acme: Tenant;
  let c: Cli;
  let channelId: string;
  let dir: string;
  beforeAll(async () => {
    t = await listeningApp(dialect);
    acme = await tenant(t.app, "Zoned");
    c = cli();
    dir = mkdtempSync(join(tmpdir(), "svc-cli-times-"));
    expect(
      (await c.run(["auth", "login", "--hostname", t.url, "--with-token"], { stdin: acme.testKey })).code,
    ).toBe(0);
    const b = await t.request("POST", `/v1/brands/${acme.brandId}`, {
      key: acme.testKey,
      body: { timezone: ZONE },
    });
    expect(b.body.timezone).toBe(ZONE);
    channelId = (await t.request("GET", "/v1/channels", { key: acme.testKey })).body.data[0].id;
  });
  afterAll(async () => {
    c.cleanup();
    rmSync(dir, { recursive: true, force: true });
    await t.close();
  });

  const post = async (id: string) => (await t.request("GET", `/v1/posts/${id}`, { key: acme.testKey })).body;

  test("a time without a zone is the brand's wall-clock time; at a terminal stderr says which zone and what UTC time", async () => {
    const args = ["posts", "create", "--brand", acme.brandSlug, "--body", "Zoned", "--at", `${ahead} 09:10`];
    const tty = c.pty([...args, "--by", `${ahead}T18:00`]);
    expect(await tty.exited).toBe(0);
    const said = tty.screen.trimEnd().split("\n");
    expect(said.slice(0, 2)).toEqual([
      `--at ${ahead} 09:10 is in ${acme.brandSlug}'s time zone, ${ZONE}: ${ahead}T03:40:00Z`,
      `--by ${ahead}T18:00 is in ${acme.brandSlug}'s time zone, ${ZONE}: ${ahead}T12:30:00Z`,
    ]);
    const viaTty = await post(said[2]!);
    expect(Date.parse(viaTty.publish_at)).toBe(Date.parse(`${ahead}T03:40:00Z`));
    // In a pipe the same time is read the same way, and only the ID is printed.
    const r = await c.run([
      ...args.slice(0, 4),
      "--body",
      "Zoned, piped",
      ...args.slice(6),
      "--by",
      `${ahead}T18:00`,
    ]);
    expect(r.code).toBe(0);
    expect(r.err).toBe("");
    const p = await post(r.out.trim());
    expect(Date.parse(p.publish_at)).toBe(Date.parse(`${ahead}T03:40:00Z`));
    expect(Date.parse(p.publish_by)).toBe(Date.parse(`${ahead}T12:30:00Z`));
    // A time with an offset is an instant: sent as given, nothing to say.
    const o = await c.run([
      "posts",
      "create",
      "--brand",
      acme.brandSlug,
      "--body",
      "Offset",
      "--at",
      `${ahead}T10:00:00+02:00`,
    ]);
    expect([o.code, o.err]).toEqual([0, ""]);
    expect(Date.parse((await post(o.out.trim())).publish_at)).toBe(Date.parse(`${ahead}T08:00:00Z`));
    // A date that does not exist is refused before anything is sent.
    const bad = await c.run([
      "posts",
      "create",
      "--brand",
      acme.brandSlug,
      "--body",
      "x",
      "--at",
      "2027-02-30 09:00",
    ]);
    expect(bad.code).toBe(2);
    expect(bad.err).toContain(`--at must be now, next_slot, "YYYY-MM-DD HH:MM" (in the brand's time zone)`);
  });

  test("next_slot says at a terminal which slot the post took, in the brand's zone; a pipe gets the ID alone", async () => {
    const tty = c.pty(["posts", "create", "--brand", acme.brandSlug, "--body", "Next slot please"]);
    expect(await tty.exited).toBe(0);
    const [line, id] = tty.screen.trimEnd().split("\n");
    const p = await post(id!);
    expect(p.slot).toBe(true);
    const m = /^Next slot: (\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}) Asia\/Kolkata \((.+)\)$/.exec(line!);
    expect(m).not.toBeNull();
    expect(m![3]).toBe(p.publish_at);
    const piped = await c.run(["posts", "create", "--brand", acme.brandSlug, "--body", "Next slot, piped"]);
    expect([piped.code, piped.err]).toEqual([0, ""]);
    expect((await post(piped.out.trim())).slot).toBe(true);
    // The default slots are 09:00 and 13:00 on weekdays, in the brand's zone.
    expect(["09:00", "13:00"]).toContain(m![2]!);
    const local = new Date(Date.parse(p.publish_at) + 5.5 * 3_600_000).toISOString();
    expect(`${m![1]} ${m![2]}`).toBe(`${local.slice(0, 10)} ${local.slice(11, 16)}`);
  });

  test("--fit NETWORK=MODE on preview and create; a malformed pair is a usage error", async () => {
    const long = Array.from({ length: 100 }, () => "word").join(" ");
    const no = await c.run(["posts", "preview", "--brand", acme.brandSlug, "--body", long]);
    expect(no.code).toBe(1);
    const yes = await c.run([
      "posts",
      "preview",
      "--brand",
      acme.brandSlug,
      "--body",
      long,
      "--fit",
      "bluesky=thread",
    ]);
    expect(yes.code).toBe(0);
    expect(yes.out).toContain("[part 1, 299/300]");
    expect(yes.out).toContain("[part 2, 199/300]");
    const made = await c.run([
      "posts",
      "create",
      "--brand",
      acme.brandSlug,
      "--body",
      long,
      "--fit",
      "x=truncate",
      "--fit",
      "bluesky=thread",
      "--at",
      "now",
    ]);
    expect(made.code).toBe(0);
    expect((await post(made.out.trim())).targets[0].parts).toHaveLength(2);
    const bad = await c.run([
      "posts",
      "preview",
      "--brand",
      acme.brandSlug,
      "--body",
      "x",
      "--fit",
      "bluesky",
    ]);
    expect(bad).toEqual({
      code: 2,
      out: "",
      err: 'svc posts preview: --fit takes NETWORK=MODE with MODE error, truncate or thread (for example bluesky=thread), not "bluesky"\n',
    });
    const unknown = await c.run([
      "posts",
      "preview",
      "--brand",
      acme.brandSlug,
      "--body",
      "x",
      "--fit",
      "nowhere=thread",
    ]);
    expect(unknown.code).toBe(1);
    expect(unknown.err).toContain("(provider_unknown)");
  });

  test("posts get lists the media and names the brand and each channel, with times in the brand's zone", async () => {
    const photo = join(dir, "photo.jpg");
    const bytes = await jpeg(400, 300);
    writeFileSync(photo, bytes);
    const made = await c.run([
      "posts",
      "create",
      "--brand",
      acme.brandSlug,
      "--body",
      "With a photo",
      "--media",
      photo,
      "--alt",
      "A red square",
      "--at",
      `${ahead} 13:10`,
    ]);
    expect(made.code).toBe(0);
    const id = made.out.trim();
    const p = await post(id);
    const g = await c.run(["posts", "get", id]);
    expect(g.code).toBe(0);
    expect(g.out).toContain(`Brand:  Zoned Brand (${acme.brandSlug})\n`);
    expect(g.out).toContain(`When:   ${ahead} 13:10 ${ZONE} (${p.publish_at})\n`);
    expect(g.out).toContain(
      `Media:\n  ${p.media[0].id}  image/jpeg  400×300  ${(bytes.length / 1024).toFixed(1)} KiB  photo.jpg  alt "A red square"\n`,
    );
    expect(g.out).toContain(`Targets:\n  Sandbox Bluesky (sandbox, ${channelId}): queued\n`);
    // --json keeps the API's shape.
    const j = JSON.parse((await c.run(["posts", "get", id, "--json", "brand,media"])).out);
    expect(j.brand).toBe(acme.brandId);
    expect(j.media[0].alt).toBe("A red square");
  });

  test("posts list: WHEN is when the post is due (piped: RFC 3339, empty while awaiting approval), channels by name", async () => {
    // A second brand whose posts all need approval: a next_slot post there holds no slot yet.
    const review = await t.request("POST", "/v1/brands", {
      key: acme.testKey,
      body: { name: "Reviewed", timezone: ZONE, approval_policy: "required_for_all" },
    });
    expect(review.status).toBe(201);
    const ch = await t.request("POST", "/v1/channels", {
      key: acme.testKey,
      body: { brand: review.body.slug, provider: "sandbox", fields: { display_name: "Review Desk" } },
    });
    expect(ch.status).toBe(201);
    const pending = c.pty(["posts", "create", "--brand", review.body.slug, "--body", "Needs a yes"]);
    expect(await pending.exited).toBe(0);
    const [said, pendingId] = pending.screen.trimEnd().split("\n");
    expect(said).toBe("Waits for approval; it takes the next free slot when approved.");
    const scheduled = await c.run([
      "posts",
      "create",
      "--brand",
      acme.brandSlug,
      "--body",
      "Due later",
      "--at",
      `${ahead} 09:30`,
    ]);
    const dueAt = (await post(scheduled.out.trim())).publish_at;

    const piped = (await c.run(["posts", "list", "--limit", "2"])).out.trimEnd().split("\n");
    expect(piped.map((l) => l.split("\t"))).toEqual([
      ["scheduled", dueAt, "Due later", "Sandbox Bluesky", scheduled.out.trim()],
      ["pending_approval", "", "Needs a yes", "Review Desk", pendingId!],
    ]);
    const tty = c.pty(["posts", "list", "--limit", "2"]);
    expect(await tty.exited).toBe(0);
    const rows = tty.screen.trimEnd().split("\n");
    expect(rows[0]).toMatch(/^STATUS {2,}WHEN {2,}TEXT {2,}CHANNELS {2,}ID$/);
    // The brand's wall-clock time and how far off it is, not the creation time ("just now").
    expect(rows[1]).toMatch(
      new RegExp(`^scheduled +${ahead} 09:30 \\(in (29|30) days\\) +Due later +Sandbox Bluesky +post_`),
    );
    expect(rows[2]).toMatch(
      /^pending_approval +after approval \(next slot\) +Needs a yes +Review Desk +post_/,
    );
  });

  test("a key that may not read brands or channels still gets its output, by ID; a time without a zone then needs an offset", async () => {
    const narrow = await key(t.app, acme.orgId, {
      name: "posts only",
      scopes: ["posts:read", "posts:write"],
    });
    const env = { SVC_TOKEN: narrow, SVC_HOST: t.url };
    const list = c.pty(["posts", "list", "--limit", "1"], env);
    expect(await list.exited).toBe(0);
    // No brand zone to read: the due time is shown in UTC as the API gives it.
    expect(list.screen.trimEnd().split("\n")[1]).toMatch(
      /^\S+ +\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z \(/,
    );
    const preview = await c.run(["posts", "preview", "--brand", acme.brandSlug, "--body", "Short"], { env });
    expect(preview.code).toBe(0);
    expect(preview.out).toContain(`sandbox (${channelId})\n  [5/300]`);
    const at = await c.run(
      ["posts", "create", "--brand", acme.brandSlug, "--body", "x", "--at", `${ahead} 09:00`],
      { env },
    );
    expect(at.code).toBe(2);
    expect(at.err).toContain(`has no zone and this credential cannot read the brand's; add an offset`);
    // Decided before any file is uploaded: at a terminal, where each upload shows a line, none is shown.
    const media = async () => (await t.request("GET", "/v1/media", { key: acme.testKey })).body.data.length;
    const before = await media();
    const photo = join(dir, "never.jpg");
    writeFileSync(photo, await jpeg(40, 30));
    const withFile = c.pty(
      [
        "posts",
        "create",
        "--brand",
        acme.brandSlug,
        "--body",
        "x",
        "--media",
        photo,
        "--at",
        `${ahead} 09:00`,
      ],
      env,
    );
    expect(await withFile.exited).toBe(2);
    expect(withFile.screen).toContain("has no zone and this credential cannot read the brand's");
    expect(withFile.screen).not.toContain("never.jpg");
    expect(await media()).toBe(before);
  });
});
