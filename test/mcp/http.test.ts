// The MCP server over HTTP (POST /v1/mcp), driven by the SDK's own client against a real listening svc: every tool
// listed with a closed input schema, a preview with violations, create_post twice with one idempotency key (one
// post, published on the sandbox), scopes, other orgs' IDs, bad arguments, unknown tools and cross-site pages.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { type Running, start } from "../../src/boot.ts";
import { type TestApp, testApp } from "../helpers/app.ts";
import { describeEachDialect, dropCreatedDatabases } from "../helpers/db.ts";
import { key, member, type Tenant, tenant, userToken } from "../helpers/factories.ts";
import { jpeg } from "../helpers/media.ts";

// biome-ignore lint/suspicious/noExplicitAny: tool results are JSON
type Json = any;

async function connect(url: string, credential: string): Promise<Client> {
  const client = new Client({ name: "svc-test-agent", version: "1.0.0" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${url}/v1/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${credential}` } },
    }),
  );
  return client;
}

const problemOf = (r: Json) => JSON.parse(r.content[0].text);

describeEachDialect("MCP over HTTP", (dialect) => {
  let t: TestApp;
  let running: Running;
  let a: Tenant;
  let b: Tenant;
  let agent: Client;
  beforeAll(async () => {
    // Media fetched by URL come from a server on this machine in the tests.
    t = await testApp(dialect, { env: { SVC_LISTEN: "127.0.0.1:0", SVC_ALLOW_PRIVATE_WEBHOOKS: "true" } });
    a = await tenant(t.app, "Agent Org");
    b = await tenant(t.app, "Other Org");
    running = await start(t.app, "all");
    agent = await connect(running.url!, a.testKey);
  });
  afterAll(async () => {
    await agent?.close();
    await running.stop();
    await dropCreatedDatabases();
  });

  test("initialize names the server; tools/list gives every tool a closed object schema and annotations", async () => {
    expect(agent.getServerVersion()?.name).toBe("svc");
    const { tools } = await agent.listTools();
    expect(tools.map((x) => x.name)).toEqual([
      "list_platforms",
      "list_brands",
      "list_channels",
      "list_templates",
      "get_template",
      "upload_media_from_url",
      "preview_post",
      "create_post",
      "update_post",
      "list_posts",
      "get_post",
      "cancel_post",
      "reschedule_post",
      "retry_target",
      "mark_target_published",
      "create_review_link",
      "list_review_links",
      "withdraw_review_link",
      "engagement_summary",
      "ads_summary",
      "analytics_summary",
      "brand_report",
      "list_notifications",
      "preview_newsletter",
      "draft_newsletter",
      "list_newsletters",
    ]);
    for (const tool of tools) {
      expect(tool.inputSchema.type).toBe("object");
      expect((tool.inputSchema as Json).additionalProperties).toBe(false);
      expect(tool.description!.length).toBeGreaterThan(80);
      expect(Object.keys(tool.annotations!).sort()).toEqual(
        ["destructiveHint", "idempotentHint", "openWorldHint", "readOnlyHint", "title"].sort(),
      );
    }
    const create = tools.find((x) => x.name === "create_post")!;
    expect(Object.keys((create.inputSchema as Json).properties)).toEqual(
      expect.arrayContaining([
        "brand",
        "body",
        "template",
        "data",
        "channels",
        "publish_at",
        "idempotency_key",
      ]),
    );
    expect((create.inputSchema as Json).required).toEqual(["brand"]);
  });

  test("list_brands and list_channels show the caller's org only", async () => {
    const brands = (await agent.callTool({ name: "list_brands", arguments: {} })) as Json;
    expect(brands.isError).toBeUndefined();
    expect(brands.structuredContent.data.map((x: Json) => x.id)).toEqual([a.brandId]);
    const channels = (await agent.callTool({
      name: "list_channels",
      arguments: { brand: a.brandSlug },
    })) as Json;
    expect(channels.structuredContent.data.map((x: Json) => x.provider)).toEqual(["sandbox"]);
    const other = (await agent.callTool({
      name: "list_channels",
      arguments: { brand: b.brandId },
    })) as Json;
    expect(other.isError).toBe(true);
    expect(problemOf(other).code).toBe("resource_missing");
  });

  test("preview_post lists every violation per channel and changes nothing", async () => {
    const r = (await agent.callTool({
      name: "preview_post",
      arguments: { brand: a.brandSlug, body: "x".repeat(400) },
    })) as Json;
    expect(r.isError).toBeUndefined();
    expect(r.structuredContent.valid).toBe(false);
    const v = r.structuredContent.renditions[0].violations;
    expect(v.map((x: Json) => [x.code, x.length, x.limit])).toEqual([["too_long", 400, 300]]);
    const posts = (await agent.callTool({ name: "list_posts", arguments: { brand: a.brandSlug } })) as Json;
    expect(posts.structuredContent.data).toEqual([]);
  });

  test("create_post with a text that does not fit is a tool error carrying every problem", async () => {
    const r = (await agent.callTool({
      name: "create_post",
      arguments: { brand: a.brandSlug, body: "y".repeat(301) },
    })) as Json;
    expect(r.isError).toBe(true);
    const p = problemOf(r);
    expect([p.status, p.code]).toEqual([422, "too_long"]);
    expect(p.errors.map((e: Json) => e.code)).toEqual(["too_long"]);
  });

  test("create_post twice with one idempotency key makes one post, which the sandbox publishes", async () => {
    const args = { brand: a.brandSlug, body: "Hello from an agent", idempotency_key: "agent-run-1" };
    const first = (await agent.callTool({ name: "create_post", arguments: args })) as Json;
    const again = (await agent.callTool({ name: "create_post", arguments: args })) as Json;
    expect(first.isError).toBeUndefined();
    expect(again.structuredContent.id).toBe(first.structuredContent.id);
    expect(first.content[1].text).toBe("Idempotency-Key: agent-run-1");
    const listed = (await agent.callTool({
      name: "list_posts",
      arguments: { q: "Hello from an agent" },
    })) as Json;
    expect(listed.structuredContent.data).toHaveLength(1);

    let post: Json;
    for (let i = 0; i < 100; i++) {
      post = (
        (await agent.callTool({
          name: "get_post",
          arguments: { post: first.structuredContent.id },
        })) as Json
      ).structuredContent;
      if (post.status === "published") break;
      await Bun.sleep(100);
    }
    expect(post.status).toBe("published");
    expect(post.targets[0].permalink).toContain("/sandbox/");
  });

  test("without an idempotency key one is generated and returned", async () => {
    const r = (await agent.callTool({
      name: "create_post",
      arguments: { brand: a.brandSlug, body: "Keyless", publish_at: "next_slot" },
    })) as Json;
    expect(r.content[1].text).toMatch(/^Idempotency-Key: mcp_[0-9a-f-]{36}$/);
    const cancel = (await agent.callTool({
      name: "cancel_post",
      arguments: { post: r.structuredContent.id },
    })) as Json;
    expect(cancel.structuredContent.status).toBe("canceled");
  });

  test("a key without the tool's scope gets a tool error with scope_missing", async () => {
    const reader = await key(t.app, a.orgId, { name: "reader", scopes: ["brands:read", "posts:read"] });
    const c = await connect(running.url!, reader);
    try {
      const r = (await c.callTool({
        name: "create_post",
        arguments: { brand: a.brandSlug, body: "no" },
      })) as Json;
      expect(r.isError).toBe(true);
      expect([problemOf(r).status, problemOf(r).code]).toEqual([403, "scope_missing"]);
    } finally {
      await c.close();
    }
  });

  test("another org's post and the other mode's post look missing", async () => {
    const theirs = await t.request("POST", "/v1/posts", {
      key: b.testKey,
      body: { brand: b.brandSlug, content: { body: "theirs" }, publish_at: "next_slot" },
    });
    const r = (await agent.callTool({ name: "get_post", arguments: { post: theirs.body.id } })) as Json;
    expect([r.isError, problemOf(r).code]).toEqual([true, "resource_missing"]);
    const live = await connect(running.url!, a.liveKey);
    try {
      const x = (await live.callTool({ name: "cancel_post", arguments: { post: theirs.body.id } })) as Json;
      expect(problemOf(x).code).toBe("resource_missing");
    } finally {
      await live.close();
    }
  });

  test("arguments of the wrong shape or with extra properties are tool errors; an unknown tool is a protocol error", async () => {
    const extra = (await agent.callTool({
      name: "get_post",
      arguments: { post: "post_x", sneaky: 1 },
    })) as Json;
    expect([extra.isError, problemOf(extra).code, problemOf(extra).param]).toEqual([
      true,
      "parameter_unknown",
      "sneaky",
    ]);
    const wrong = (await agent.callTool({ name: "list_posts", arguments: { limit: "ten" } })) as Json;
    expect([wrong.isError, problemOf(wrong).code]).toEqual([true, "parameter_invalid"]);
    const missing = (await agent.callTool({ name: "get_post", arguments: {} })) as Json;
    expect(problemOf(missing).code).toBe("parameter_missing");
    const path = (await agent.callTool({ name: "get_post", arguments: { post: "../brands" } })) as Json;
    expect(path.isError).toBe(true);
    await expect(agent.callTool({ name: "delete_everything", arguments: {} })).rejects.toThrow(
      /Unknown tool/,
    );
  });

  test("engagement_summary reads the API's summary; days out of range is a tool error", async () => {
    const r = (await agent.callTool({
      name: "engagement_summary",
      arguments: { brand: a.brandSlug, group_by: "channel", days: 7 },
    })) as Json;
    expect(r.isError).toBeUndefined();
    expect([r.structuredContent.object, r.structuredContent.group_by]).toEqual([
      "engagement_summary",
      "channel",
    ]);
    const bad = (await agent.callTool({ name: "engagement_summary", arguments: { days: 400 } })) as Json;
    expect([bad.isError, problemOf(bad).code]).toEqual([true, "window_invalid"]);
    const group = (await agent.callTool({
      name: "engagement_summary",
      arguments: { group_by: "mood" },
    })) as Json;
    expect(problemOf(group).code).toBe("group_by_invalid");
  });

  test("ads_summary and analytics_summary read the API's summaries; bad windows and groups are tool errors", async () => {
    const ads = (await agent.callTool({
      name: "ads_summary",
      arguments: { brand: a.brandSlug, group_by: "day", days: 7 },
    })) as Json;
    expect(ads.isError).toBeUndefined();
    expect([
      ads.structuredContent.object,
      ads.structuredContent.group_by,
      ads.structuredContent.data,
    ]).toEqual(["ads_summary", "day", []]);
    const since = Date.parse(ads.structuredContent.since);
    expect((Date.parse(ads.structuredContent.until) - since) / 86_400_000).toBe(6);
    const visits = (await agent.callTool({
      name: "analytics_summary",
      arguments: { group_by: "source" },
    })) as Json;
    expect([visits.structuredContent.object, visits.structuredContent.group_by]).toEqual([
      "analytics_summary",
      "source",
    ]);
    const far = (await agent.callTool({ name: "ads_summary", arguments: { days: 366 } })) as Json;
    expect([far.isError, problemOf(far).code]).toEqual([true, "window_invalid"]);
    const group = (await agent.callTool({
      name: "analytics_summary",
      arguments: { group_by: "browser" },
    })) as Json;
    expect(problemOf(group).code).toBe("group_by_invalid");
  });

  test("brand_report reads the API's report; a bad month is a tool error", async () => {
    const r = (await agent.callTool({
      name: "brand_report",
      arguments: { brand: a.brandSlug, month: "2026-01" },
    })) as Json;
    expect(r.isError).toBeUndefined();
    expect([r.structuredContent.object, r.structuredContent.month, r.structuredContent.brand.slug]).toEqual([
      "report",
      "2026-01",
      a.brandSlug,
    ]);
    expect(Object.keys(r.structuredContent.sections)).toEqual([
      "posts",
      "engagement",
      "top_posts",
      "ads",
      "analytics",
      "newsletters",
    ]);
    const bad = (await agent.callTool({
      name: "brand_report",
      arguments: { brand: a.brandSlug, month: "2026-13" },
    })) as Json;
    expect([bad.isError, problemOf(bad).code]).toEqual([true, "month_invalid"]);
  });

  test("preview_newsletter renders; draft_newsletter saves once per idempotency key; list_newsletters finds it", async () => {
    const input = {
      brand: a.brandSlug,
      subject: "Weekly",
      body: "# Hi\n\n<script>x</script>",
      preview_text: "p",
    };
    const p = (await agent.callTool({ name: "preview_newsletter", arguments: input })) as Json;
    expect(p.isError).toBeUndefined();
    expect(p.structuredContent.object).toBe("newsletter_preview");
    expect(p.structuredContent.html).toContain("&lt;script&gt;");
    const bad = (await agent.callTool({
      name: "preview_newsletter",
      arguments: { ...input, subject: "" },
    })) as Json;
    expect([bad.isError, problemOf(bad).code]).toEqual([true, "subject_invalid"]);
    const args = { ...input, idempotency_key: `nl-${crypto.randomUUID()}` };
    const d1 = (await agent.callTool({ name: "draft_newsletter", arguments: args })) as Json;
    const d2 = (await agent.callTool({ name: "draft_newsletter", arguments: args })) as Json;
    expect(d1.structuredContent.status).toBe("draft");
    expect(d2.structuredContent.id).toBe(d1.structuredContent.id);
    const list = (await agent.callTool({
      name: "list_newsletters",
      arguments: { brand: a.brandSlug, status: "draft" },
    })) as Json;
    const ids = list.structuredContent.data.map((n: { id: string }) => n.id);
    expect(ids.filter((id: string) => id === d1.structuredContent.id)).toHaveLength(1);
  });

  test("upload_media_from_url, then a post with that medium, published on the sandbox", async () => {
    const image = await jpeg(800, 600);
    const files = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response(image) });
    try {
      const up = (await agent.callTool({
        name: "upload_media_from_url",
        arguments: { brand: a.brandSlug, url: `http://127.0.0.1:${files.port}/cat.jpg`, alt: "A cat" },
      })) as Json;
      expect(up.isError).toBeUndefined();
      expect([up.structuredContent.type, up.structuredContent.width, up.structuredContent.alt]).toEqual([
        "image/jpeg",
        800,
        "A cat",
      ]);
      const made = (await agent.callTool({
        name: "create_post",
        arguments: { brand: a.brandSlug, body: "With a picture", media: [up.structuredContent.id] },
      })) as Json;
      expect(made.isError).toBeUndefined();
      let post: Json;
      for (let i = 0; i < 100; i++) {
        post = (
          (await agent.callTool({
            name: "get_post",
            arguments: { post: made.structuredContent.id },
          })) as Json
        ).structuredContent;
        if (post.status === "published") break;
        await Bun.sleep(100);
      }
      expect([post.status, post.media.map((m: Json) => m.id)]).toEqual([
        "published",
        [up.structuredContent.id],
      ]);
      const bad = (await agent.callTool({
        name: "upload_media_from_url",
        arguments: { brand: a.brandSlug, url: "not a url" },
      })) as Json;
      expect([bad.isError, problemOf(bad).code]).toEqual([true, "url_invalid"]);
    } finally {
      files.stop(true);
    }
  });

  test("get_template by key and version within a brand", async () => {
    const made = await t.request("POST", "/v1/templates", {
      key: a.testKey,
      body: {
        brand: a.brandSlug,
        key: "release",
        name: "Release",
        variables: { type: "object", properties: { v: { type: "string" } }, required: ["v"] },
        examples: [{ v: "1.0" }],
        body: "Version {{.v}} is out",
      },
    });
    expect(made.status).toBe(201);
    const r = (await agent.callTool({
      name: "get_template",
      arguments: { template: "release@1", brand: a.brandSlug },
    })) as Json;
    expect(r.structuredContent.id).toBe(made.body.id);
    const noBrand = (await agent.callTool({
      name: "get_template",
      arguments: { template: "release" },
    })) as Json;
    expect([problemOf(noBrand).code, problemOf(noBrand).param]).toEqual(["parameter_missing", "brand"]);
    // Made by svc like every problem: a real request ID and the install's doc_url, not a hand-written body.
    expect(problemOf(noBrand).request_id).toMatch(/^req_[0-9a-z]{26}$/);
    expect(problemOf(noBrand).doc_url).toBe(`${t.app.config.baseUrl}/docs/errors#parameter_missing`);
    const none = (await agent.callTool({
      name: "get_template",
      arguments: { template: "nope", brand: a.brandSlug },
    })) as Json;
    expect([problemOf(none).code, problemOf(none).status, problemOf(none).param]).toEqual([
      "template_missing",
      404,
      "template",
    ]);
    expect(problemOf(none).request_id).toMatch(/^req_[0-9a-z]{26}$/);
  });

  test("the HTTP surface: no credential is 401, a cross-site page is refused, GET is not allowed, notifications are 202", async () => {
    const init = {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: {
        protocolVersion: "2025-06-18",
        capabilities: {},
        clientInfo: { name: "curl", version: "1" },
      },
    };
    const post = (headers: Record<string, string>, body: unknown = init) =>
      fetch(`${running.url}/v1/mcp`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          ...headers,
        },
        body: JSON.stringify(body),
      });
    const anon = await post({});
    expect([anon.status, ((await anon.json()) as Json).code]).toEqual([401, "api_key_missing"]);
    const evil = await post({ authorization: `Bearer ${a.testKey}`, origin: "https://evil.example" });
    expect([evil.status, ((await evil.json()) as Json).code]).toEqual([403, "forbidden"]);
    const fetchSite = await post({ authorization: `Bearer ${a.testKey}`, "sec-fetch-site": "cross-site" });
    expect(fetchSite.status).toBe(403);
    const own = await post({ authorization: `Bearer ${a.testKey}`, origin: "http://localhost:8080" });
    expect(own.status).toBe(200);
    expect(((await own.json()) as Json).result.serverInfo.name).toBe("svc");
    const note = await post(
      { authorization: `Bearer ${a.testKey}` },
      { jsonrpc: "2.0", method: "notifications/initialized" },
    );
    expect(note.status).toBe(202);
    // The body is held to the API's rules: NUL, deep nesting and size are refused before the SDK parses it.
    const call = (args: unknown) => ({
      jsonrpc: "2.0",
      id: 2,
      method: "tools/call",
      params: { name: "list_posts", arguments: args },
    });
    const nul = await post({ authorization: `Bearer ${a.testKey}` }, call({ q: "a\u0000b" }));
    expect([nul.status, ((await nul.json()) as Json).code]).toEqual([400, "parameter_invalid"]);
    const nested = await fetch(`${running.url}/v1/mcp`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${a.testKey}`,
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
      },
      body: `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"list_posts","arguments":{"q":${"[".repeat(50_000)}${"]".repeat(50_000)}}}}`,
    });
    expect([nested.status, ((await nested.json()) as Json).code]).toEqual([400, "parameter_invalid"]);
    const huge = await post({ authorization: `Bearer ${a.testKey}` }, call({ q: "x".repeat(1_100_000) }));
    expect([huge.status, ((await huge.json()) as Json).code]).toEqual([400, "body_too_large"]);
    const get = await fetch(`${running.url}/v1/mcp`, { headers: { authorization: `Bearer ${a.testKey}` } });
    expect([get.status, get.headers.get("allow")]).toEqual([405, "POST"]);
  });

  test("list_notifications: a person's sign-in lists theirs; an API key is refused clearly", async () => {
    // A new member: the owner hears of it.
    await member(t.app, a.orgId, `mcp-joined-${dialect}@example.com`, "viewer");
    const person = await connect(running.url!, (await userToken(t.app, a.userId)).secret);
    try {
      const r = (await person.callTool({ name: "list_notifications", arguments: { unread: true } })) as Json;
      expect(r.isError).toBeUndefined();
      const list = JSON.parse(r.content[0].text);
      expect(list.data.map((n: Json) => n.type)).toContain("member.joined");
      expect(list.data.every((n: Json) => n.read_at === null && n.org === a.orgId)).toBe(true);
    } finally {
      await person.close();
    }
    const refused = (await agent.callTool({ name: "list_notifications", arguments: {} })) as Json;
    expect(refused.isError).toBe(true);
    expect(problemOf(refused)).toMatchObject({ status: 403, code: "forbidden" });
    expect(problemOf(refused).detail ?? problemOf(refused).title).toBeTruthy();
  });
  test("create_review_link shows the address once; list_review_links never; withdraw_review_link stops it", async () => {
    const made = (await agent.callTool({
      name: "create_review_link",
      arguments: { brand: a.brandId, name: "Client via MCP" },
    })) as Json;
    expect(made.isError).toBeUndefined();
    const link = JSON.parse(made.content[0].text);
    expect(link.url).toMatch(/\/review\/svc_review_[0-9A-Za-z]{32}$/);
    const listed = (await agent.callTool({
      name: "list_review_links",
      arguments: { brand: a.brandId },
    })) as Json;
    const list = JSON.parse(listed.content[0].text);
    expect(list.data.find((l: Json) => l.id === link.id)).toMatchObject({
      name: "Client via MCP",
      status: "active",
    });
    expect(listed.content[0].text).not.toContain("svc_review_");
    const w = (await agent.callTool({ name: "withdraw_review_link", arguments: { link: link.id } })) as Json;
    expect(JSON.parse(w.content[0].text).status).toBe("withdrawn");
    const narrow = await connect(running.url!, await key(t.app, a.orgId, { name: "mcp narrow" }));
    try {
      const refused = (await narrow.callTool({
        name: "create_review_link",
        arguments: { brand: a.brandId, name: "x" },
      })) as Json;
      expect(refused.isError).toBe(true);
      expect(problemOf(refused)).toMatchObject({ status: 403, code: "scope_missing" });
    } finally {
      await narrow.close();
    }
  });
});
