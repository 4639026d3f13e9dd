// `svc listen --forward-to`: events from the real SSE stream forwarded to a local receiver, signed as webhooks are
// (checked here with node:crypto, not the service's code), and resumed after the connection drops.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { createHmac, timingSafeEqual } from "node:crypto";
import { join } from "node:path";
import { parse } from "yaml";
import { type Cli, cli } from "../helpers/cli.ts";
import { describeEachDialect } from "../helpers/db.ts";
import { type Tenant, tenant } from "../helpers/factories.ts";
import { type ListeningApp, listeningApp } from "../helpers/listening.ts";
import { type Receiver, startReceiver } from "../helpers/receiver.ts";

function verify(header: string, body: string, secret: string): boolean {
  const parts = Object.fromEntries(header.split(",").map((p) => p.split("=") as [string, string]));
  const t = Number(parts.t);
  if (Math.abs(Date.now() / 1000 - t) > 300) return false;
  const want = createHmac("sha256", secret).update(`${t}.${body}`).digest();
  return timingSafeEqual(Buffer.from(parts.v1!, "hex"), want);
}

async function until<T>(f: () => T | undefined, ms = 15_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = f();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error("timed out");
    await Bun.sleep(50);
  }
}

describeEachDialect("svc listen", (dialect) => {
  let t: ListeningApp;
  let acme: Tenant;
  let c: Cli;
  let rx: Receiver;
  beforeAll(async () => {
    t = await listeningApp(dialect);
    acme = await tenant(t.app, "Acme");
    c = cli();
    rx = startReceiver();
    expect(
      (await c.run(["auth", "login", "--hostname", t.url, "--with-token"], { stdin: acme.testKey })).code,
    ).toBe(0);
  });
  afterAll(async () => {
    rx.stop();
    c.cleanup();
    await t.close();
  });

  const createPost = async (body: string) =>
    (
      await t.request("POST", "/v1/posts", {
        key: acme.testKey,
        body: { brand: acme.brandId, content: { body }, publish_at: "next_slot" },
      })
    ).body.id as string;

  test("forwards each event signed with the host's local secret, and resumes after a dropped stream", async () => {
    const p = Bun.spawn(
      ["bun", "src/main.ts", "listen", "--forward-to", `${rx.url}/ok`, "--events", "post.created"],
      {
        env: c.env,
        stdout: "pipe",
        stderr: "pipe",
      },
    );
    let err = "";
    (async () => {
      for await (const chunk of p.stderr) err += new TextDecoder().decode(chunk);
    })();
    try {
      await until(() => (err.includes("Ready!") ? true : undefined));
      const hosts = parse(await Bun.file(join(c.env.SVC_CONFIG_DIR!, "hosts.yaml")).text());
      const secret = hosts.hosts[`127.0.0.1:${t.port}`].listen_secret as string;
      expect(secret).toMatch(/^whsec_[0-9A-Za-z]{32}$/);
      expect(err).toContain(`Your local signing secret is ${secret}`);
      await Bun.sleep(300); // the stream is open
      const first = await createPost("first");
      const got = await until(() => rx.received.find((r) => r.body.includes(first)));
      const event = JSON.parse(got.body);
      expect(event).toMatchObject({
        object: "event",
        type: "post.created",
        livemode: false,
        data: { object: { id: first } },
      });
      expect(got.headers.get("svc-event-id")).toBe(event.id);
      expect(got.headers.get("content-type")).toBe("application/json");
      expect(got.headers.get("user-agent")).toMatch(/^svc-cli\//);
      expect(verify(got.headers.get("svc-signature")!, got.body, secret)).toBe(true);
      expect(verify(got.headers.get("svc-signature")!, got.body, "whsec_wrong")).toBe(false);

      // The connection drops; an event happens meanwhile; the listener reconnects with Last-Event-ID.
      t.stop();
      const second = await createPost("while away");
      await until(() => (err.includes("reconnecting") ? true : undefined));
      t.resume();
      const again = await until(() => rx.received.find((r) => r.body.includes(second)), 20_000);
      expect(verify(again.headers.get("svc-signature")!, again.body, secret)).toBe(true);
      // Each event once: the first is not sent again after the resume.
      expect(rx.received.filter((r) => r.body.includes(first))).toHaveLength(1);
    } finally {
      p.kill();
      await p.exited;
    }
  }, 40_000);

  test("a redirect from --forward-to is reported, never followed: the signed event goes nowhere else", async () => {
    // Another host (localhost, not 127.0.0.1) that must never see the event.
    const elsewhere = startReceiver("localhost");
    const redirecting = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      fetch: () => new Response(null, { status: 307, headers: { location: `${elsewhere.url}/stolen` } }),
    });
    const p = Bun.spawn(
      [
        "bun",
        "src/main.ts",
        "listen",
        "--forward-to",
        `http://127.0.0.1:${redirecting.port}/hook`,
        "--events",
        "post.created",
      ],
      { env: { ...c.env, NO_COLOR: "1" }, stdout: "pipe", stderr: "pipe" },
    );
    let out = "";
    let err = "";
    (async () => {
      for await (const chunk of p.stdout) out += new TextDecoder().decode(chunk);
    })();
    (async () => {
      for await (const chunk of p.stderr) err += new TextDecoder().decode(chunk);
    })();
    try {
      await until(() => (err.includes("Ready!") ? true : undefined));
      await Bun.sleep(300); // the stream is open
      const id = await createPost("redirected");
      const line = await until(() => out.split("\n").find((l) => l.includes("<--") && l.includes("[307]")));
      expect(line).toContain(`a redirect to ${elsewhere.url}/stolen: not followed`);
      await Bun.sleep(500);
      expect(elsewhere.received).toEqual([]);
      expect(id).toMatch(/^post_/);
    } finally {
      p.kill();
      await p.exited;
      redirecting.stop(true);
      elsewhere.stop();
    }
  }, 40_000);

  test("a bad --events type is the API's error, exit 1; no --forward-to is a usage error", async () => {
    const r = await c.run(["listen", "--forward-to", `${rx.url}/ok`, "--events", "nope.nope"]);
    expect(r.code).toBe(1);
    expect(r.err).toContain("(parameter_invalid)");
    expect(await c.run(["listen"])).toEqual({
      code: 2,
      out: "",
      err: "svc listen: --forward-to is required\n",
    });
  });
});

test("no client request follows a redirect: each fetch of the CLI and of svc mcp says redirect: manual", async () => {
  // They send credentials and signed events; a redirect would carry them to whatever host it names.
  const bare: string[] = [];
  let calls = 0;
  const paths = [...new Bun.Glob("src/cli/**/*.ts").scanSync("."), "src/mcp/stdio.ts"];
  for (const path of paths) {
    const text = await Bun.file(path).text();
    for (const m of text.matchAll(/\bfetch\(([^;]*?)\);/gs)) {
      calls++;
      if (!/redirect:\s*"manual"/.test(m[1]!)) bare.push(`${path}: fetch(${m[1]!.slice(0, 40)}…)`);
    }
  }
  expect(calls).toBeGreaterThanOrEqual(4);
  expect(bare).toEqual([]);
});
