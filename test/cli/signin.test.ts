// `svc auth login` through the device flow (approved or denied through the domain functions the /device page
// calls), piped and in a pseudo-terminal, and the /cli paste fallback at a silent prompt with its mode check.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { join } from "node:path";
import { parse } from "yaml";
import {
  approveDeviceAuthorization,
  denyDeviceAuthorization,
} from "../../src/domain/identity/devices/service.ts";
import { type Cli, cli } from "../helpers/cli.ts";
import { describeEachDialect } from "../helpers/db.ts";
import { type Tenant, tenant } from "../helpers/factories.ts";
import { type ListeningApp, listeningApp } from "../helpers/listening.ts";
import { personActor } from "../helpers/person.ts";
import { KEY } from "../helpers/pty.ts";

async function until<T>(f: () => T | undefined | null, ms = 15_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = f();
    if (v !== undefined && v !== null) return v;
    if (Date.now() > end) throw new Error("timed out");
    await Bun.sleep(50);
  }
}

describeEachDialect("svc auth login, device flow and paste", (dialect) => {
  let t: ListeningApp;
  let acme: Tenant;
  beforeAll(async () => {
    t = await listeningApp(dialect);
    acme = await tenant(t.app, "Acme");
  });
  afterAll(async () => {
    await t.close();
  });

  const hosts = async (c: Cli) => parse(await Bun.file(join(c.env.SVC_CONFIG_DIR!, "hosts.yaml")).text());

  test("piped: prints the code, polls, and stores the approved user token; logout revokes it", async () => {
    const c = cli();
    try {
      const p = Bun.spawn(["bun", "src/main.ts", "auth", "login", "--hostname", t.url], {
        env: c.env,
        stdin: "ignore",
        stdout: "pipe",
        stderr: "pipe",
      });
      let err = "";
      (async () => {
        for await (const chunk of p.stderr) err += new TextDecoder().decode(chunk);
      })();
      const code = await until(() => /! First copy your one-time code: ([A-Z]{4}-[A-Z]{4})/.exec(err)?.[1]);
      expect(err).toContain("Open http://localhost:8080/device in a browser, sign in and enter the code.");
      const owner = await personActor(t.app, acme.userId, acme.orgId);
      await approveDeviceAuthorization(t.app, owner, { userCode: code, confirmedAt: Date.now() });
      expect(await p.exited).toBe(0);
      expect(await new Response(p.stdout).text()).toBe("");
      expect(err).toContain(`Logged in to 127.0.0.1:${t.port} as ${acme.email} (test mode, org Acme)`);
      const token = (await hosts(c)).hosts[`127.0.0.1:${t.port}`].test.token as string;
      expect(token).toMatch(/^svc_user_/);
      expect((await t.request("GET", "/v1/me", { key: token })).body.user.email).toBe(acme.email);
      // The token is named after this machine, as the device asked.
      expect((await t.request("GET", "/v1/me", { key: token })).body.user_token.name).toMatch(/^svc on /);
      const out = await c.run(["auth", "logout"]);
      expect(out.code).toBe(0);
      expect(out.err).not.toContain("could not revoke");
      expect((await t.request("GET", "/v1/me", { key: token })).status).toBe(401);
    } finally {
      c.cleanup();
    }
  }, 30_000);

  test("piped: a denied sign-in exits 1 with what happened, and stores nothing", async () => {
    const c = cli();
    try {
      const p = Bun.spawn(["bun", "src/main.ts", "auth", "login", "--hostname", t.url, "--live"], {
        env: c.env,
        stdin: "ignore",
        stdout: "pipe",
        stderr: "pipe",
      });
      let err = "";
      (async () => {
        for await (const chunk of p.stderr) err += new TextDecoder().decode(chunk);
      })();
      const code = await until(() => /one-time code: ([A-Z]{4}-[A-Z]{4})/.exec(err)?.[1]);
      const owner = await personActor(t.app, acme.userId, acme.orgId);
      await denyDeviceAuthorization(t.app, owner, { userCode: code });
      expect(await p.exited).toBe(1);
      expect(err).toEndWith("svc auth login: the sign-in was denied in the dashboard\n");
      expect(await Bun.file(join(c.env.SVC_CONFIG_DIR!, "hosts.yaml")).exists()).toBe(false);
    } finally {
      c.cleanup();
    }
  }, 30_000);

  test("in a terminal: asks for the host, waits for Enter, shows progress, stores a live token", async () => {
    const c = cli();
    try {
      const p = c.pty(["auth", "login", "--live"]);
      await p.waitFor(/Which server\?/);
      p.write(`${t.url}${KEY.enter}`);
      const screen = await p.waitFor(/Press Enter to open http:\/\/localhost:8080\/device in your browser/);
      const code = /one-time code: ([A-Z]{4}-[A-Z]{4})/.exec(screen)![1]!;
      p.write(KEY.enter);
      await p.waitFor(/Waiting for approval in the browser/);
      const owner = await personActor(t.app, acme.userId, acme.orgId);
      await approveDeviceAuthorization(t.app, owner, { userCode: code, confirmedAt: Date.now() });
      expect(await p.exited).toBe(0);
      expect(p.screen).toContain("Approved.");
      expect(p.screen).toContain(`as ${acme.email} (live mode, org Acme)`);
      const file = await hosts(c);
      expect(file.hosts[`127.0.0.1:${t.port}`].test).toBeUndefined();
      expect(file.hosts[`127.0.0.1:${t.port}`].live.token).toMatch(/^svc_user_/);
    } finally {
      c.cleanup();
    }
  }, 30_000);

  test("after slow_down the CLI waits 5 s longer between polls", async () => {
    // A server whose clock a test can move back: the CLI's second poll then looks too soon to it.
    let offset = 0;
    const slow = await listeningApp(dialect, { clock: { now: () => Date.now() + offset } });
    const c = cli();
    try {
      const org = await tenant(slow.app, "Slow");
      const row = () => slow.app.db.selectFrom("device_authorizations").selectAll().executeTakeFirst();
      const p = Bun.spawn(["bun", "src/main.ts", "auth", "login", "--hostname", slow.url], {
        env: c.env,
        stdin: "ignore",
        stdout: "pipe",
        stderr: "pipe",
      });
      let err = "";
      (async () => {
        for await (const chunk of p.stderr) err += new TextDecoder().decode(chunk);
      })();
      const code = await until(() => /one-time code: ([A-Z]{4}-[A-Z]{4})/.exec(err)?.[1]);
      // First poll (after 5 s): pending. Then the server's clock goes back 3 s.
      let first = 0;
      for (;;) {
        const r = await row();
        if (r?.last_polled_at) {
          first = r.last_polled_at;
          break;
        }
        await Bun.sleep(50);
      }
      offset = -3000;
      // Second poll 5 s later looks like 2 s to the server: slow_down, and the interval becomes 10 s.
      for (;;) {
        const r = await row();
        if (r && r.last_polled_at !== first) {
          expect(r.interval_s).toBe(10);
          break;
        }
        await Bun.sleep(50);
      }
      const slowedAt = Date.now();
      const owner = await personActor(slow.app, org.userId, org.orgId);
      await approveDeviceAuthorization(slow.app, owner, {
        userCode: code,
        confirmedAt: Date.now() + offset,
      });
      expect(await p.exited).toBe(0);
      // The next poll came 10 s after the slow_down (5 s interval + 5 s), not 5 s.
      expect(Date.now() - slowedAt).toBeGreaterThan(9_000);
      expect(err).toContain("Logged in to");
    } finally {
      c.cleanup();
      await slow.close();
    }
  }, 40_000);

  test("the paste fallback: a silent prompt; a live key pasted into a test sign-in is refused", async () => {
    const c = cli();
    try {
      const p = c.pty(["auth", "login", "--hostname", t.url]);
      await p.waitFor(/type "paste" to paste a key instead/);
      p.write(`paste${KEY.enter}`);
      await p.waitFor(
        /Open http:\/\/127\.0\.0\.1:\d+\/cli\?device=svc%20on%20.+, sign in, and paste the test key it shows/,
      );
      await p.waitFor(/Paste the key/);
      const before = p.raw.length;
      p.write(`${acme.liveKey}${KEY.enter}`);
      expect(await p.exited).toBe(1);
      // Nothing of the key was echoed.
      expect(p.raw.slice(before)).not.toContain(acme.liveKey.slice(10));
      expect(p.screen).toContain(
        "svc auth login: that is a live credential, but this sign-in is for test mode; run svc auth login --live to store it",
      );
      expect(await Bun.file(join(c.env.SVC_CONFIG_DIR!, "hosts.yaml")).exists()).toBe(false);

      const ok = c.pty(["auth", "login", "--hostname", t.url]);
      await ok.waitFor(/type "paste"/);
      ok.write(`p${KEY.enter}`);
      await ok.waitFor(/Paste the key/);
      ok.write(`${acme.testKey}${KEY.enter}`);
      expect(await ok.exited).toBe(0);
      expect((await hosts(c)).hosts[`127.0.0.1:${t.port}`].test.token).toBe(acme.testKey);
    } finally {
      c.cleanup();
    }
  }, 30_000);

  test("a server without device sign-in: straight to the paste prompt", async () => {
    // The same server behind a front that has no /v1/auth/device (as an install without it answers: 404).
    const old = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      async fetch(req) {
        const u = new URL(req.url);
        if (u.pathname.startsWith("/v1/auth/device"))
          return Response.json({ status: 404, code: "route_unknown" }, { status: 404 });
        return fetch(`${t.url}${u.pathname}${u.search}`, { method: req.method, headers: req.headers });
      },
    });
    const c = cli();
    try {
      const p = c.pty(["auth", "login", "--hostname", `http://127.0.0.1:${old.port}`]);
      await p.waitFor(/does not offer device sign-in\. Open http:\/\/127\.0\.0\.1:\d+\/cli\?device=/);
      await p.waitFor(/Paste the key/);
      p.write(`${acme.testKey}${KEY.enter}`);
      expect(await p.exited).toBe(0);
      expect((await hosts(c)).hosts[`127.0.0.1:${old.port}`].test.token).toBe(acme.testKey);
      // Without a terminal there is nowhere to paste: the way in is named.
      const piped = await c.run(["auth", "login", "--hostname", `http://127.0.0.1:${old.port}`]);
      expect(piped.code).toBe(2);
      expect(piped.err).toEndWith(
        "svc auth login: no terminal to paste the key at; pipe it instead: svc auth login --with-token\n",
      );
    } finally {
      c.cleanup();
      old.stop(true);
    }
  }, 30_000);
});
