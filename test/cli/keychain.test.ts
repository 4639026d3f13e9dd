// The keychain path of credential storage, with a real Secret Service: gnome-keyring unlocked inside a private
// D-Bus session (what a Linux desktop has), the CLI running in that session. The secret goes to the keychain and
// hosts.yaml keeps only who it is; --insecure-storage keeps it in hosts.yaml. (Without a keychain, the fallback
// to hosts.yaml is in auth.test.ts.)
import { afterAll, beforeAll, expect, test } from "bun:test";
import { join } from "node:path";
import { parse } from "yaml";
import { type Cli, cli } from "../helpers/cli.ts";
import { describeEachDialect } from "../helpers/db.ts";
import { type Tenant, tenant } from "../helpers/factories.ts";
import { type ListeningApp, listeningApp } from "../helpers/listening.ts";

/** Runs a shell script in a fresh D-Bus session with an unlocked login keyring. */
async function inKeyringSession(c: Cli, script: string): Promise<{ code: number; out: string; err: string }> {
  const p = Bun.spawn(
    [
      "dbus-run-session",
      "--",
      "bash",
      "-c",
      `echo pw | gnome-keyring-daemon --unlock >/dev/null 2>&1\n${script}`,
    ],
    { env: c.env, stdout: "pipe", stderr: "pipe" },
  );
  const [out, err, code] = await Promise.all([
    new Response(p.stdout).text(),
    new Response(p.stderr).text(),
    p.exited,
  ]);
  return { code, out, err: err.replace(/^dbus-daemon\[\d+\]: .*\n/gm, "") };
}

describeEachDialect("credentials in the system keychain", (dialect) => {
  let t: ListeningApp;
  let acme: Tenant;
  let c: Cli;
  beforeAll(async () => {
    t = await listeningApp(dialect);
    acme = await tenant(t.app, "Acme");
    c = cli();
  });
  afterAll(async () => {
    c.cleanup();
    await t.close();
  });

  test("login stores the secret in the keychain; hosts.yaml has none; commands read it back", async () => {
    const r = await inKeyringSession(
      c,
      `echo "${acme.testKey}" | bun src/main.ts auth login --hostname ${t.url} --with-token || exit 9
       echo "${acme.liveKey}" | bun src/main.ts auth login --hostname ${t.url} --with-token --insecure-storage || exit 9
       bun src/main.ts auth status || exit 9
       bun src/main.ts api me --jq .api_key.name || exit 9
       bun src/main.ts auth token`,
    );
    expect(r.err).toContain("Credential stored in the system keychain");
    expect(r.code).toBe(0);
    const host = `127.0.0.1:${t.port}`;
    const lines = r.out.trimEnd().split("\n");
    expect(lines).toEqual([
      `${host} (default)  ${t.url}`,
      "  ✓ test: API key test full, in system keychain; works (org Acme)",
      "  ✓ live: API key live full, in hosts.yaml; works (org Acme)",
      "test full",
      acme.testKey,
    ]);
    const file = parse(await Bun.file(join(c.env.SVC_CONFIG_DIR!, "hosts.yaml")).text());
    expect(file.hosts[host].test).toEqual({ user: "API key test full" });
    expect(file.hosts[host].live).toEqual({ user: "API key live full", token: acme.liveKey });
    // Outside that session there is no keychain: the stored test secret cannot be found.
    const out = await c.run(["auth", "status"]);
    expect(out.code).toBe(1);
    expect(out.out).toContain(
      "X test: API key test full, not found in a keychain; sign in again (or run where its keychain is reachable)",
    );
  }, 60_000);
});
