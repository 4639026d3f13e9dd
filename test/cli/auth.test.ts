// `svc auth …` as a person runs it: the real binary against a real listening server, with its own config folder.
// No keychain is reachable on the test machine (Bun.secrets has no D-Bus session), so secrets land in hosts.yaml.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { statSync } from "node:fs";
import { join } from "node:path";
import { parse } from "yaml";
import { type Cli, cli } from "../helpers/cli.ts";
import { describeEachDialect } from "../helpers/db.ts";
import { INTEGRATION, key, type Tenant, tenant, userToken } from "../helpers/factories.ts";
import { type ListeningApp, listeningApp } from "../helpers/listening.ts";

describeEachDialect("svc auth", (dialect) => {
  let t: ListeningApp;
  let acme: Tenant;
  let c: Cli;
  beforeAll(async () => {
    t = await listeningApp(dialect);
    acme = await tenant(t.app, "Acme");
  });
  afterAll(async () => {
    c?.cleanup();
    await t.close();
  });

  const hostKey = () => `127.0.0.1:${t.port}`;
  const hostsFile = () => join(c.env.SVC_CONFIG_DIR!, "hosts.yaml");
  const hosts = async () => parse(await Bun.file(hostsFile()).text());

  test("the keychain is not reachable here, so Bun.secrets refuses and the secret goes to hosts.yaml", async () => {
    // What the CLI falls back from: on this machine Bun.secrets answers with a platform error.
    const err = await Bun.secrets
      .set({ service: "svc:probe", name: "probe", value: "x" })
      .then(() => null)
      .catch((e: { code?: string }) => e);
    expect(err?.code).toBe("ERR_SECRETS_PLATFORM_ERROR");
  });

  test("login --with-token stores a user token in the test slot of hosts.yaml (0600, folder 0700)", async () => {
    c = cli();
    const tok = await userToken(t.app, acme.userId);
    const r = await c.run(["auth", "login", "--hostname", t.url, "--with-token"], {
      stdin: `${tok.secret}\n`,
    });
    expect(r.code).toBe(0);
    expect(r.out).toBe("");
    expect(r.err).toContain(`Logged in to ${hostKey()} as ${acme.email} (test mode, org Acme)`);
    expect(r.err).toContain("Credential stored in hosts.yaml");
    expect(statSync(hostsFile()).mode & 0o777).toBe(0o600);
    expect(statSync(c.env.SVC_CONFIG_DIR!).mode & 0o777).toBe(0o700);
    const file = await hosts();
    expect(file.default).toBe(hostKey());
    expect(file.hosts[hostKey()]).toEqual({
      url: t.url,
      test: { user: acme.email, token: tok.secret },
    });
  });

  test("a live key given with --with-token goes to the live slot; the test one stays", async () => {
    const r = await c.run(["auth", "login", "--hostname", t.url, "--with-token"], { stdin: acme.liveKey });
    expect(r.code).toBe(0);
    expect(r.err).toContain("(live mode, org Acme)");
    const file = await hosts();
    expect(file.hosts[hostKey()].live).toEqual({ user: "API key live full", token: acme.liveKey });
    expect(file.hosts[hostKey()].test.user).toBe(acme.email);
  });

  test("a test key given to a --live login is refused and nothing is stored", async () => {
    const before = await Bun.file(hostsFile()).text();
    const r = await c.run(["auth", "login", "--hostname", t.url, "--live", "--with-token"], {
      stdin: acme.testKey,
    });
    expect(r.code).toBe(1);
    expect(r.err).toBe(
      "svc auth login: that is a test credential, but this sign-in is for live mode; run svc auth login without --live to store it\n",
    );
    expect(await Bun.file(hostsFile()).text()).toBe(before);
  });

  test("auth status lists both credentials, where each is kept and that each works", async () => {
    const r = await c.run(["auth", "status"]);
    expect(r.code).toBe(0);
    expect(r.out).toBe(
      [
        `${hostKey()} (default)  ${t.url}`,
        `  ✓ test: ${acme.email}, in hosts.yaml; works (org Acme, owner)`,
        "  ✓ live: API key live full, in hosts.yaml; works (org Acme)",
        "",
      ].join("\n"),
    );
  });

  test("auth token prints the test credential, or the live one with --live", async () => {
    const file = await hosts();
    expect((await c.run(["auth", "token"])).out).toBe(`${file.hosts[hostKey()].test.token}\n`);
    expect((await c.run(["auth", "token", "--live"])).out).toBe(`${acme.liveKey}\n`);
  });

  test("a revoked credential: commands exit 1 with the server's reason, and auth status says it fails", async () => {
    const other = cli();
    try {
      const k = await key(t.app, acme.orgId, { name: "soon revoked", scopes: INTEGRATION });
      expect(
        (await other.run(["auth", "login", "--hostname", t.url, "--with-token"], { stdin: k })).code,
      ).toBe(0);
      const me = await t.request("GET", "/v1/me", { key: k });
      const rev = await t.request("POST", `/v1/api_keys/${me.body.api_key.id}/revoke`, {
        key: acme.testKey,
      });
      expect(rev.status).toBe(200);
      const r = await other.run(["channels", "list"]);
      expect(r.code).toBe(1);
      expect(r.out).toBe("");
      expect(r.err).toBe(
        "svc channels list: This API key was revoked. (api_key_expired)\n(sign in again: svc auth login)\n",
      );
      const s = await other.run(["auth", "status"]);
      expect(s.code).toBe(1);
      expect(s.out).toContain(
        "X test: API key soon revoked, in hosts.yaml; failing: This API key was revoked. (api_key_expired)",
      );
    } finally {
      other.cleanup();
    }
  });

  test("an unreachable server is one line and exit 1", async () => {
    const r = await c.run(["channels", "list"], {
      env: { SVC_TOKEN: acme.testKey, SVC_HOST: "http://127.0.0.1:9" },
    });
    expect(r).toEqual({
      code: 1,
      out: "",
      err: "svc channels list: cannot reach http://127.0.0.1:9: connection refused\n",
    });
  });

  test("SVC_TOKEN and SVC_ORG override the stored credential", async () => {
    const r = await c.run(["api", "/v1/me", "--jq", ".api_key.name"], { env: { SVC_TOKEN: acme.testKey } });
    expect(r).toEqual({ code: 0, out: "test full\n", err: "" });
  });

  test("auth switch sets the default org, sent as Svc-Org", async () => {
    const s = await c.run(["auth", "switch", "--org", "Nope"]);
    expect(s.code).toBe(0);
    expect((await hosts()).hosts[hostKey()].org).toBe("Nope");
    const r = await c.run(["channels", "list"]);
    expect(r.code).toBe(1);
    expect(r.err).toContain("You are not a member of Nope. (org_unknown)");
    // --org beats the saved default, and SVC_ORG does too.
    expect((await c.run(["channels", "list", "--org", acme.orgId])).code).toBe(0);
    expect((await c.run(["channels", "list"], { env: { SVC_ORG: "Acme" } })).code).toBe(0);
    expect((await c.run(["auth", "switch", "--org", ""])).code).toBe(0);
    expect((await hosts()).hosts[hostKey()].org).toBeUndefined();
  });

  test("switch without flags and without a terminal names the flags (exit 2)", async () => {
    expect(await c.run(["auth", "switch"])).toEqual({
      code: 2,
      out: "",
      err: "svc auth switch: --hostname or --org is required (no terminal to ask on)\n",
    });
  });

  test("login without --hostname and without a terminal names the flag (exit 2)", async () => {
    const r = await c.run(["auth", "login", "--with-token"], { stdin: acme.testKey });
    expect(r).toEqual({
      code: 2,
      out: "",
      err: "svc auth login: --hostname is required (no terminal to ask on)\n",
    });
  });

  test("logout forgets both credentials", async () => {
    const r = await c.run(["auth", "logout"]);
    expect(r.code).toBe(0);
    expect(r.err).toContain(`Logged out of ${hostKey()}`);
    expect((await hosts()).hosts).toEqual({});
    const s = await c.run(["auth", "status"]);
    expect(s.code).toBe(1);
    expect(s.err).toBe("Not signed in to any server. Run: svc auth login --hostname HOST\n");
    const n = await c.run(["channels", "list"]);
    expect(n).toEqual({
      code: 2,
      out: "",
      err: "svc channels list: not signed in to any server; run: svc auth login --hostname HOST\n",
    });
  });
});
