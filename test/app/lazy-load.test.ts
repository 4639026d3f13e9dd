// `svc all` loads at start only what serving and the worker need: the libraries and code a request or a task may
// never need (the MCP SDK, the S3 client, WebAuthn, mail, each network's client, image and video handling, the
// dashboard's pages, the command-line client) load on first use. A real `svc all` process runs here with a preload
// that lists its loaded modules on a signal; after requests that need some of them, those are loaded (so the list
// is not empty by accident).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type TestApp, testApp } from "../helpers/app.ts";
import { dialects, dropCreatedDatabases } from "../helpers/db.ts";
import { type Tenant, tenant } from "../helpers/factories.ts";
import { png } from "../helpers/media.ts";

const ROOT = join(import.meta.dir, "../..");

/** Packages no request has needed yet, by the name in node_modules. */
const DEFERRED_PACKAGES = [
  "@modelcontextprotocol/sdk",
  "zod",
  "ajv",
  "@valibot/to-json-schema",
  "@aws-sdk/client-s3",
  "@smithy/fetch-http-handler",
  "@simplewebauthn/server",
  "nodemailer",
  "@atproto/api",
  "sharp",
  "mp4box",
  "file-type",
  "busboy",
  "qrcode",
  "otpauth",
  "re2js",
  "bowser",
  "hono",
  "yaml",
  "jq-wasm",
  "eventsource-parser",
  "@clack/prompts",
  // The address library (a proxy's client address, a list of allowed private addresses, outbound requests) and
  // the near-miss finder for mistyped field names.
  "ipaddr.js",
  "fastest-levenshtein",
  // Only when an OTEL_* variable asks for an exporter.
  "@opentelemetry/sdk-node",
  "@opentelemetry/api",
];
/** Our own modules behind the same boundaries. */
const DEFERRED_MODULES = [
  "src/app/telemetry-sdk.ts",
  "src/mcp/server.ts",
  "src/http/web/index.tsx",
  "src/platforms/bluesky/adapter.ts",
  "src/platforms/mastodon/adapter.ts",
  "src/cli/client/index.ts",
  "src/cli/admin/index.ts",
  // The HTTP client of client commands (output.ts, which every command loads, needs only its errors).
  "src/cli/client/api.ts",
  // The dashboard's static files (each file import costs memory even as a path) and the MCP endpoint.
  "src/http/web/static.ts",
  "src/mcp/http.ts",
  // Use cases behind a route or a task that an idle process has not met.
  "src/domain/apps/create.ts",
  "src/domain/connect/renew.ts",
  "src/domain/engagement/collect.ts",
  "src/domain/identity/devices/service.ts",
  "src/domain/identity/users/service.ts",
  "src/domain/media/create.ts",
  "src/domain/media/publish.ts",
  "src/domain/operator/delete.ts",
  "src/domain/templates/service.ts",
  "src/domain/webhooks/service.ts",
  "src/domain/posts/update.ts",
  "src/domain/posts/delete-published.ts",
  "src/domain/notifications/raise.ts",
  "src/domain/notifications/preferences.ts",
  // The guarded outbound client and webhook sending, until the first delivery is claimed.
  "src/net/guarded.ts",
  "src/domain/webhooks/deliver.ts",
];

const packageOf = (path: string) => /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(path)?.[1] ?? null;

for (const dialect of dialects) {
  describe(`svc all loads on first use (${dialect})`, () => {
    let t: TestApp;
    let a: Tenant;
    let proc: Bun.Subprocess<"ignore", "ignore", "pipe">;
    let dir: string;
    let url: string;

    /** The modules the process has loaded, as paths relative to the repository (packages as node_modules/…). */
    async function loaded(): Promise<string[]> {
      const to = join(dir, "modules.json");
      rmSync(to, { force: true });
      proc.kill("SIGUSR2");
      for (let i = 0; i < 200 && !existsSync(to); i++) await Bun.sleep(25);
      return (JSON.parse(readFileSync(to, "utf8")) as string[]).map((p) =>
        p.startsWith(ROOT) ? p.slice(ROOT.length + 1) : p,
      );
    }
    const packages = (mods: string[]) => new Set(mods.map(packageOf).filter((p) => p !== null));

    beforeAll(async () => {
      t = await testApp(dialect);
      a = await tenant(t.app, "Lazy Org");
      dir = mkdtempSync(join(tmpdir(), "svc-lazy-"));
      proc = Bun.spawn(
        ["bun", "--preload", join(ROOT, "test/helpers/loaded-modules.ts"), join(ROOT, "src/main.ts"), "all"],
        {
          cwd: ROOT, // as install.sh runs it (the dashboard's JSX settings are in tsconfig.json)
          env: {
            PATH: process.env.PATH ?? "",
            HOME: process.env.HOME ?? dir,
            SVC_DATABASE_URL: t.dbUrl,
            SVC_MASTER_KEYS: t.masterKeys,
            SVC_DATA_DIR: dir,
            SVC_LISTEN: "127.0.0.1:0",
            SVC_LOG_LEVEL: "info",
            LOADED_MODULES_TO: join(dir, "modules.json"),
          },
          stdin: "ignore",
          stdout: "ignore",
          stderr: "pipe",
        },
      );
      // The log says where it listens, then that the worker has started.
      const lines = proc.stderr.pipeThrough(new TextDecoderStream()).getReader();
      let log = "";
      while (!log.includes('"worker started"')) {
        const { value, done } = await lines.read();
        if (done) throw new Error(`svc all exited before its worker started:\n${log}`);
        log += value;
      }
      lines.releaseLock();
      url = /"url":"(http:\/\/[^"]+)"/.exec(log)![1]!;
      expect((await fetch(`${url}/readyz`)).status).toBe(200);
    }, 30_000);
    afterAll(async () => {
      proc?.kill("SIGKILL");
      await proc?.exited;
      await t?.close();
      await dropCreatedDatabases();
    });

    test("idle after start: none of the deferred libraries or modules is loaded", async () => {
      const mods = await loaded();
      // The process did load the server, the worker and its database driver.
      expect(mods).toContain("src/http/server.ts");
      expect(mods).toContain("src/queue/registry.ts");
      const pkgs = packages(mods);
      expect(pkgs.has("elysia")).toBe(true);
      expect(pkgs.has("pg")).toBe(dialect === "postgres");
      expect(DEFERRED_PACKAGES.filter((p) => pkgs.has(p))).toEqual([]);
      expect(DEFERRED_MODULES.filter((m) => mods.includes(m))).toEqual([]);
    });

    test("the requests that need them load them: MCP, a dashboard page, an image upload", async () => {
      const mcp = await fetch(`${url}/v1/mcp`, {
        method: "POST",
        headers: {
          authorization: `Bearer ${a.testKey}`,
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
        },
        body: JSON.stringify({
          jsonrpc: "2.0",
          id: 1,
          method: "initialize",
          params: {
            protocolVersion: "2025-06-18",
            capabilities: {},
            clientInfo: { name: "t", version: "1" },
          },
        }),
      });
      expect(mcp.status).toBe(200);
      expect(
        ((await mcp.json()) as { result: { serverInfo: { name: string } } }).result.serverInfo.name,
      ).toBe("svc");

      const page = await fetch(`${url}/signin`);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain("<form");

      const form = new FormData();
      form.append("brand", a.brandId);
      form.append("alt", "A square");
      form.append("file", new Blob([(await png(8, 8)) as Uint8Array<ArrayBuffer>]), "square.png");
      const media = await fetch(`${url}/v1/media`, {
        method: "POST",
        headers: { authorization: `Bearer ${a.testKey}` },
        body: form,
      });
      expect(media.status).toBe(201);

      const mods = await loaded();
      const pkgs = packages(mods);
      for (const p of ["@modelcontextprotocol/sdk", "hono", "busboy", "file-type", "sharp"])
        expect([p, pkgs.has(p)]).toEqual([p, true]);
      expect(mods).toContain("src/mcp/server.ts");
      expect(mods).toContain("src/http/web/index.tsx");
      // Nothing asked for these yet.
      for (const p of [
        "@aws-sdk/client-s3",
        "@simplewebauthn/server",
        "nodemailer",
        "@atproto/api",
        "mp4box",
      ])
        expect([p, pkgs.has(p)]).toEqual([p, false]);
    });
  });
}
