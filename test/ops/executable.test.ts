// The one executable, as an operator gets it: `bun run build` writes dist/, dist/ is copied alone to an empty
// directory outside the project (so nothing resolves from the project's node_modules), and from there `svc` makes a
// master key, bootstraps an admin with a sandbox channel, starts `svc all` on SQLite, answers /readyz, serves the
// dashboard's assets from inside itself, signs the admin in (headless Chromium) and publishes a post whose image
// the sandbox's network rules make it resize at publish — sharp loading from dist/node_modules beside the binary.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { cpSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser } from "playwright-core";
import { launchChromium } from "../e2e/browser.ts";
import { noisyJpeg } from "../helpers/media.ts";

const root = join(import.meta.dir, "../..");
let dir: string;
let svc: string;
let server: ReturnType<typeof Bun.spawn> | null = null;
let base: string;
let browser: Browser;
let password: string;
let key: string;

async function run(args: string[], stdin?: string): Promise<string> {
  const p = Bun.spawn([svc, ...args], {
    cwd: join(dir, "run"),
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: dir },
    stdin: stdin === undefined ? "ignore" : new TextEncoder().encode(stdin),
    stdout: "pipe",
    stderr: "pipe",
  });
  const [out, err, code] = await Promise.all([
    new Response(p.stdout).text(),
    new Response(p.stderr).text(),
    p.exited,
  ]);
  if (code !== 0) throw new Error(`svc ${args.join(" ")} exited ${code}: ${err}`);
  return out;
}

beforeAll(async () => {
  const build = Bun.spawn(["bun", "scripts/build.ts", "--host-only"], {
    cwd: root,
    stdout: "pipe",
    stderr: "pipe",
  });
  const [out, code] = await Promise.all([new Response(build.stderr).text(), build.exited]);
  if (code !== 0) throw new Error(`build failed: ${out}`);
  dir = mkdtempSync(join(tmpdir(), "svc-exe-"));
  cpSync(join(root, "dist"), join(dir, "app"), { recursive: true });
  svc = join(dir, "app", "svc");
  const data = join(dir, "run", "data");
  await Bun.$`mkdir -p ${data} && chmod 700 ${data}`.quiet();
  writeFileSync(join(data, "master.key"), await run(["admin", "keys", "generate", "--id", "exe-test"]), {
    mode: 0o600,
  });
  const boot = await run([
    "admin",
    "bootstrap",
    "--email",
    "ops@example.com",
    "--org",
    "Ops",
    "--brand",
    "Ops",
  ]);
  password = /Password:\s+(\S+)/.exec(boot)![1]!;
  key = (
    await run([
      "admin",
      "apikeys",
      "create",
      "--org",
      "Ops",
      "--name",
      "exe",
      "--scopes",
      "posts:write,posts:read,channels:read",
    ])
  ).trim();
  const port = 20000 + Math.floor(Math.random() * 20000);
  base = `http://localhost:${port}`;
  server = Bun.spawn([svc, "all"], {
    cwd: join(dir, "run"),
    env: {
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      HOME: dir,
      SVC_LISTEN: `127.0.0.1:${port}`,
      SVC_BASE_URL: base,
      SVC_INSECURE_COOKIES: "true",
    },
    stdout: "pipe",
    stderr: "pipe",
  });
  for (let i = 0; i < 100; i++) {
    const r = await fetch(`${base}/readyz`).catch(() => null);
    if (r?.ok) break;
    await Bun.sleep(100);
  }
  browser = await launchChromium();
}, 180_000);

afterAll(async () => {
  server?.kill();
  await server?.exited;
  await browser?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

test("answers /readyz and serves the dashboard's assets from inside the executable", async () => {
  expect((await fetch(`${base}/readyz`)).status).toBe(200);
  for (const [file, type] of [
    ["app.css", "text/css"],
    ["htmx.min.js", "text/javascript"],
    ["webauthn.js", "text/javascript"],
  ] as const) {
    const r = await fetch(`${base}/static/${file}`);
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toContain(type);
    expect((await r.arrayBuffer()).byteLength).toBeGreaterThan(1000);
  }
});

test("the bootstrapped admin signs in to the dashboard", async () => {
  const page = await browser.newPage({ baseURL: base });
  await page.goto("/");
  await page.getByLabel("Email").fill("ops@example.com");
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await page.waitForLoadState();
  // The home page, which asks the admin to replace the password the server printed.
  expect(await page.locator("#printed-password").textContent()).toContain("Choose your own password.");
  await page.close();
}, 60_000);

test("resizes an image at publish with sharp loaded from beside the executable", async () => {
  const auth = { Authorization: `Bearer ${key}` };
  const big = await noisyJpeg(1400, 1400); // over the sandbox's (Bluesky's) 1,000,000 bytes
  expect(big.byteLength).toBeGreaterThan(1_000_000);
  const channels = (await (await fetch(`${base}/v1/channels`, { headers: auth })).json()) as {
    data: { id: string; brand: string }[];
  };
  const channel = channels.data[0]!;
  const form = new FormData();
  form.append("brand", channel.brand);
  form.append("file", new Blob([big], { type: "image/jpeg" }), "big.jpg");
  const up = await fetch(`${base}/v1/media`, { method: "POST", headers: auth, body: form });
  expect(up.status).toBe(201);
  const media = (await up.json()) as { id: string };
  const created = await fetch(`${base}/v1/posts`, {
    method: "POST",
    headers: { ...auth, "Content-Type": "application/json" },
    body: JSON.stringify({
      brand: channel.brand,
      channels: [channel.id],
      content: { body: "From the executable" },
      media: [media.id],
    }),
  });
  expect(created.status).toBe(201);
  const post = (await created.json()) as { id: string };
  let got: { status: string; targets: { id: string; status: string }[] } | null = null;
  for (let i = 0; i < 200; i++) {
    got = (await (await fetch(`${base}/v1/posts/${post.id}`, { headers: auth })).json()) as typeof got;
    if (got!.status === "published" || got!.status === "failed") break;
    await Bun.sleep(100);
  }
  expect(got!.status).toBe("published");
  const page = await (await fetch(`${base}/sandbox/${got!.targets[0]!.id}`)).text();
  const src = /<img src="data:image\/jpeg;base64,([^"]+)"/.exec(page);
  expect(src).not.toBeNull();
  const sent = Buffer.from(src![1]!, "base64");
  expect(sent.byteLength).toBeLessThanOrEqual(1_000_000);
  expect(sent.byteLength).toBeGreaterThan(100_000);
}, 60_000);
