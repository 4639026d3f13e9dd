// The post actions of the CLI beyond create and cancel: --draft, edit (and --schedule), reschedule, approve, reject,
// retry (a post's failed targets only, or one target), mark-published; each run against a listening server.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { type Cli, cli } from "../helpers/cli.ts";
import { describeEachDialect } from "../helpers/db.ts";
import { key, type Tenant, tenant } from "../helpers/factories.ts";
import { type ListeningApp, listeningApp } from "../helpers/listening.ts";

describeEachDialect("svc posts: drafts, edit and the post actions", (dialect) => {
  let t: ListeningApp;
  let acme: Tenant;
  let c: Cli;
  const inHours = (h: number) => new Date(Date.now() + h * 3600_000).toISOString();
  beforeAll(async () => {
    t = await listeningApp(dialect);
    acme = await tenant(t.app, "Acme");
    c = cli();
    const r = await c.run(["auth", "login", "--hostname", t.url, "--with-token"], { stdin: acme.testKey });
    expect(r.code).toBe(0);
  });
  afterAll(async () => {
    c.cleanup();
    await t.close();
  });
  const get = async (id: string) => (await t.request("GET", `/v1/posts/${id}`, { key: acme.testKey })).body;

  test("create --draft saves a draft with its problems; edit changes it; edit --schedule schedules it", async () => {
    const d = await c.run([
      "posts",
      "create",
      "--brand",
      acme.brandSlug,
      "--body",
      "x".repeat(400),
      "--draft",
    ]);
    expect([d.code, d.err]).toEqual([0, ""]);
    const id = d.out.trim();
    const draft = await get(id);
    expect([draft.status, draft.publish_at, draft.problems[0].code]).toEqual(["draft", null, "too_long"]);

    const refused = await c.run(["posts", "edit", id, "--schedule", "--at", inHours(2)]);
    expect(refused.code).toBe(1);
    expect(refused.err).toContain("(too_long)");
    expect((await get(id)).status).toBe("draft");

    const e = await c.run(["posts", "edit", id, "--body", "Short now"]);
    expect(e.code).toBe(0);
    expect(e.out).toContain("Status:");
    expect(e.out).toContain("draft");
    const s = await c.run(["posts", "edit", id, "--schedule", "--at", inHours(2), "--json", "id,status"]);
    expect(s.code).toBe(0);
    expect(JSON.parse(s.out)).toEqual({ id, status: "scheduled" });
    expect((await get(id)).targets[0].parts).toEqual(["Short now"]);

    const nothing = await c.run(["posts", "edit", id]);
    expect(nothing.code).toBe(2);
  });

  test("reschedule moves a post and schedules a draft; a post with an attempt is not editable", async () => {
    const d = await c.run(["posts", "create", "--brand", acme.brandSlug, "--body", "Draft", "--draft"]);
    const id = d.out.trim();
    const at = inHours(5);
    const r = await c.run(["posts", "reschedule", id, "--at", at, "--json", "status,publish_at"]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out)).toEqual({ status: "scheduled", publish_at: new Date(at).toISOString() });
    await t.app.db.updateTable("post_targets").set({ attempts: 1 }).where("post_id", "=", id).execute();
    const e = await c.run(["posts", "edit", id, "--body", "Late"]);
    expect(e.code).toBe(1);
    expect(e.err).toContain("(post_not_editable)");
  });

  test("approve and reject a pending post, with a note", async () => {
    await t.request("POST", `/v1/brands/${acme.brandId}`, {
      key: acme.testKey,
      body: { approval_policy: "required_for_all" },
    });
    const writer = await key(t.app, acme.orgId, { name: "writer", scopes: ["posts:read", "posts:write"] });
    const mk = async () =>
      (
        await t.request("POST", "/v1/posts", {
          key: writer,
          body: { brand: acme.brandId, content: { body: "Check me" }, publish_at: inHours(3) },
        })
      ).body.id as string;
    const a = await mk();
    const ok = await c.run(["posts", "approve", a, "--note", "Fine", "--json", "status,approval"]);
    expect(ok.code).toBe(0);
    expect(JSON.parse(ok.out)).toMatchObject({ status: "scheduled", approval: { note: "Fine" } });
    const b = await mk();
    const no = await c.run(["posts", "reject", b, "--note", "Wrong price"]);
    expect(no.code).toBe(0);
    expect(no.out).toContain("rejected");
    const again = await c.run(["posts", "approve", b]);
    expect(again.code).toBe(1);
    expect(again.err).toContain("(post_not_pending)");
    await t.request("POST", `/v1/brands/${acme.brandId}`, {
      key: acme.testKey,
      body: { approval_policy: "none" },
    });
  });

  test("retry queues only a post's failed targets; mark-published records one", async () => {
    const ch2 = await t.request("POST", "/v1/channels", {
      key: acme.testKey,
      body: { brand: acme.brandId, provider: "sandbox", emulates: "mastodon" },
    });
    const p = (
      await t.request("POST", "/v1/posts", {
        key: acme.testKey,
        body: { brand: acme.brandId, content: { body: "Partly" }, publish_at: inHours(1) },
      })
    ).body;
    expect(p.targets).toHaveLength(2);
    const [first, second] = p.targets as { id: string }[];
    const set = (id: string, v: Record<string, unknown>) =>
      t.app.db.updateTable("post_targets").set(v).where("id", "=", id).execute();
    await set(first!.id, { status: "failed", attempts: 1, error_code: "rejected", error_message: "no" });
    await set(second!.id, { status: "published", attempts: 1, published_at: Date.now() });
    const r = await c.run(["posts", "retry", p.id]);
    expect(r.code).toBe(0);
    expect(r.out.trim().split("\t").slice(0, 2)).toEqual([first!.id, "queued"]);
    const after = await get(p.id);
    expect(after.targets.map((x: { status: string }) => x.status).sort()).toEqual(["published", "queued"]);
    const none = await c.run(["posts", "retry", p.id]);
    expect(none.code).toBe(2);

    await set(first!.id, { status: "needs_attention" });
    const m = await c.run([
      "posts",
      "mark-published",
      first!.id,
      "--permalink",
      "https://example.com/p/1",
      "--json",
      "status,permalink",
    ]);
    expect(m.code).toBe(0);
    expect(JSON.parse(m.out)).toEqual({ status: "published", permalink: "https://example.com/p/1" });
    await t.request("POST", `/v1/channels/${ch2.body.id}/disable`, { key: acme.testKey });
  });
});
