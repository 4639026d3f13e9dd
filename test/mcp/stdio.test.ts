// `svc mcp` over stdio, driven by the SDK's own client: the real `svc` process, calling a real listening install
// over HTTP with SVC_URL + SVC_API_KEY. It needs none of the server's settings and never opens the database.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { type Running, start } from "../../src/boot.ts";
import { type TestApp, testApp } from "../helpers/app.ts";
import { describeEachDialect, dropCreatedDatabases } from "../helpers/db.ts";
import { type Tenant, tenant } from "../helpers/factories.ts";

// biome-ignore lint/suspicious/noExplicitAny: tool results are JSON
type Json = any;
const MAIN = join(import.meta.dir, "../../src/main.ts");

/** Only what a laptop running an agent would have: no database, no master key. */
function agentEnv(extra: Record<string, string>): Record<string, string> {
  return { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "/tmp", ...extra };
}

describeEachDialect("svc mcp over stdio", (dialect) => {
  let t: TestApp;
  let running: Running;
  let a: Tenant;
  beforeAll(async () => {
    t = await testApp(dialect, { env: { SVC_LISTEN: "127.0.0.1:0" } });
    a = await tenant(t.app, "Stdio Org");
    running = await start(t.app, "all");
  });
  afterAll(async () => {
    await running.stop();
    await dropCreatedDatabases();
  });

  test("lists tools, previews and creates a post once per idempotency key, as the key", async () => {
    const client = new Client({ name: "stdio-agent", version: "1.0.0" });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [MAIN, "mcp"],
        env: agentEnv({ SVC_URL: running.url!, SVC_API_KEY: a.testKey }),
        stderr: "pipe",
      }),
    );
    try {
      const { tools } = await client.listTools();
      expect(tools.map((x) => x.name)).toContain("engagement_summary");
      const preview = (await client.callTool({
        name: "preview_post",
        arguments: { brand: a.brandSlug, body: "z".repeat(350) },
      })) as Json;
      expect(preview.structuredContent.renditions[0].violations[0].code).toBe("too_long");
      const args = { brand: a.brandSlug, body: "From stdio", idempotency_key: "stdio-1" };
      const one = (await client.callTool({ name: "create_post", arguments: args })) as Json;
      const two = (await client.callTool({ name: "create_post", arguments: args })) as Json;
      expect(two.structuredContent.id).toBe(one.structuredContent.id);
      const posts = await t.request("GET", "/v1/posts?q=From%20stdio", { key: a.testKey });
      expect(posts.body.data).toHaveLength(1);
    } finally {
      await client.close();
    }
  });
});

describeEachDialect("svc mcp with the CLI's stored sign-in", (dialect) => {
  test("without SVC_URL and SVC_API_KEY it uses the credential svc auth login stored", async () => {
    const t = await testApp(dialect, { env: { SVC_LISTEN: "127.0.0.1:0" } });
    const a = await tenant(t.app, "Stored Org");
    const running = await start(t.app, "server");
    const config = mkdtempSync(join(tmpdir(), "svc-mcp-config-"));
    try {
      const env = agentEnv({ SVC_CONFIG_DIR: config });
      const login = Bun.spawn(
        [
          process.execPath,
          MAIN,
          "auth",
          "login",
          "--hostname",
          running.url!,
          "--with-token",
          "--insecure-storage",
        ],
        { env, stdin: new TextEncoder().encode(`${a.testKey}\n`), stdout: "pipe", stderr: "pipe" },
      );
      expect(await login.exited).toBe(0);
      const client = new Client({ name: "stored-agent", version: "1.0.0" });
      await client.connect(new StdioClientTransport({ command: process.execPath, args: [MAIN, "mcp"], env }));
      try {
        const brands = (await client.callTool({ name: "list_brands", arguments: {} })) as Json;
        expect(brands.structuredContent.data.map((b: Json) => b.id)).toEqual([a.brandId]);
      } finally {
        await client.close();
      }
      // No live credential is stored: --live names what to do.
      const live = Bun.spawn([process.execPath, MAIN, "mcp", "--live"], {
        env,
        stdout: "pipe",
        stderr: "pipe",
      });
      expect(await live.exited).toBe(2);
      expect(await new Response(live.stderr).text()).toContain("no live credential");
    } finally {
      await running.stop();
      rmSync(config, { recursive: true, force: true });
      await dropCreatedDatabases();
    }
  });
});

describe("svc mcp without a target", () => {
  test("names what to set and exits 2", async () => {
    const p = Bun.spawn([process.execPath, MAIN, "mcp"], {
      env: agentEnv({}),
      stdout: "pipe",
      stderr: "pipe",
    });
    expect(await p.exited).toBe(2);
    expect(await new Response(p.stderr).text()).toContain("set SVC_URL and SVC_API_KEY");
  });

  test("an unreachable install is a tool error, not a crash", async () => {
    const client = new Client({ name: "stdio-agent", version: "1.0.0" });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [MAIN, "mcp"],
        env: agentEnv({ SVC_URL: "http://127.0.0.1:9", SVC_API_KEY: "svc_test_x" }),
      }),
    );
    try {
      const r = (await client.callTool({ name: "list_brands", arguments: {} })) as Json;
      expect(r.isError).toBe(true);
      const problem = JSON.parse(r.content[0].text);
      expect([problem.code, problem.status]).toEqual(["service_unavailable", 503]);
      expect(problem.request_id).toMatch(/^req_[0-9a-z]{26}$/);
      expect(problem.doc_url).toBe("http://127.0.0.1:9/docs/errors#service_unavailable");
    } finally {
      await client.close();
    }
  });
});
