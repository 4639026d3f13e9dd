// `svc admin …` as a person runs it: the real command in a child process, configured by environment variables,
// on a fresh database of each dialect. Output, exit codes, and the audit rows the operator leaves.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type TestApp, testApp } from "../helpers/app.ts";
import { describeEachDialect } from "../helpers/db.ts";

interface Run {
  code: number;
  out: string;
  err: string;
}

describeEachDialect("svc admin", (dialect) => {
  let t: TestApp; // the same database, in-process, to check what the commands did
  let dataDir: string;
  let env: Record<string, string>;
  let orgId: string;
  let ownerEmail: string;
  beforeAll(async () => {
    t = await testApp(dialect);
    dataDir = mkdtempSync(join(tmpdir(), "svc-admin-"));
    env = {
      PATH: process.env.PATH ?? "",
      HOME: process.env.HOME ?? "",
      SVC_DATABASE_URL: t.dbUrl,
      SVC_MASTER_KEYS: t.masterKeys,
      SVC_DATA_DIR: dataDir,
    };
    ownerEmail = `owner-${randomBytes(3).toString("hex")}@example.com`;
  });
  afterAll(async () => {
    await t.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  async function svc(args: string[], stdin?: string): Promise<Run> {
    const p = Bun.spawn(["bun", "src/main.ts", ...args], {
      env,
      stdin: stdin === undefined ? "ignore" : new TextEncoder().encode(stdin),
      stdout: "pipe",
      stderr: "pipe",
    });
    const [out, err, code] = await Promise.all([
      new Response(p.stdout).text(),
      new Response(p.stderr).text(),
      p.exited,
    ]);
    return { code, out, err };
  }
  const audits = (action: string) =>
    t.app.db.selectFrom("audit_events").selectAll().where("action", "=", action).execute();

  test("bootstrap prints the org, the brand, the admin and a generated password once", async () => {
    const r = await svc([
      "admin",
      "bootstrap",
      "--email",
      ownerEmail,
      "--org",
      "Acme",
      "--brand",
      "Acme Shop",
    ]);
    expect(r.err).toBe("");
    expect(r.code).toBe(0);
    const lines = r.out.trimEnd().split("\n");
    expect(lines[0]).toMatch(/^Org: {6}Acme \(org_[0-7][0-9a-z]{25}\)$/);
    expect(lines[1]).toMatch(/^Brand: {4}Acme Shop \(acme-shop, brand_[0-7][0-9a-z]{25}\)$/);
    expect(lines[2]).toMatch(/^Channel: {2}sandbox emulating bluesky \(chan_[0-7][0-9a-z]{25}, test mode\)$/);
    expect(lines[3]).toBe(`Admin:    ${ownerEmail}`);
    expect(lines[4]).toMatch(/^Password: [0-9A-Za-z]{20}$/);
    expect(lines[5]).toBe(
      "          (shown once; the dashboard asks you to choose your own after signing in)",
    );
    orgId = /\((org_[0-9a-z]+)\)/.exec(lines[0]!)![1]!;
    const password = lines[4]!.slice("Password: ".length);
    const user = await t.app.db
      .selectFrom("users")
      .selectAll()
      .where("email", "=", ownerEmail)
      .executeTakeFirstOrThrow();
    expect(await Bun.password.verify(password, user.password_hash!)).toBe(true);
    const member = await t.app.db
      .selectFrom("members")
      .selectAll()
      .where("org_id", "=", orgId)
      .executeTakeFirstOrThrow();
    expect([member.user_id, member.role]).toEqual([user.id, "owner"]);
  });

  test("apikeys create prints only the key, and the key works", async () => {
    const r = await svc(["admin", "apikeys", "create", "--name", "ci"]);
    expect([r.code, r.err]).toEqual([0, ""]);
    expect(r.out).toMatch(/^svc_test_[0-9A-Za-z]{38}\n$/);
    const me = await t.request("GET", "/v1/me", { key: r.out.trim() });
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({
      livemode: false,
      org: { id: orgId, name: "Acme" },
      api_key: { name: "ci", scopes: [], brand: null },
    });
  });

  test("apikeys create --scopes and --live", async () => {
    const scoped = await svc([
      "admin",
      "apikeys",
      "create",
      "--name",
      "reader",
      "--scopes",
      "brands:read, audit:read",
    ]);
    expect(scoped.code).toBe(0);
    const me = await t.request("GET", "/v1/me", { key: scoped.out.trim() });
    expect(me.body.api_key.scopes).toEqual(["brands:read", "audit:read"]);
    // The operator may grant administrative scopes: this key reads the audit log.
    expect((await t.request("GET", "/v1/audit_events", { key: scoped.out.trim() })).status).toBe(200);
    const live = await svc([
      "admin",
      "apikeys",
      "create",
      "--name",
      "prod",
      "--live",
      "--brand",
      "acme-shop",
    ]);
    expect(live.out).toMatch(/^svc_live_[0-9A-Za-z]{38}\n$/);
    const liveMe = await t.request("GET", "/v1/me", { key: live.out.trim() });
    expect([liveMe.body.livemode, liveMe.body.api_key.livemode]).toEqual([true, true]);
    expect(liveMe.body.api_key.brand).toMatch(/^brand_/);
    // A rule broken through the command is reported with its code, exit 1.
    const bad = await svc(["admin", "apikeys", "create", "--name", "x", "--scopes", "posts:fly"]);
    expect(bad.code).toBe(1);
    expect(bad.err).toBe("svc admin apikeys create: Unknown scope posts:fly. (scope_invalid)\n");
  });

  test("bootstrap --password-stdin takes the password from stdin and prints none", async () => {
    const email = `second-${randomBytes(3).toString("hex")}@example.com`;
    const r = await svc(
      ["admin", "bootstrap", "--email", email, "--org", "Second Org", "--password-stdin"],
      "a long enough password\n",
    );
    expect([r.code, r.err]).toEqual([0, ""]);
    expect(r.out).not.toContain("Password:");
    expect(r.out).toContain(`Admin:    ${email}`);
    const user = await t.app.db
      .selectFrom("users")
      .selectAll()
      .where("email", "=", email)
      .executeTakeFirstOrThrow();
    expect(await Bun.password.verify("a long enough password", user.password_hash!)).toBe(true);
    // Now there are two orgs: commands must name one.
    const ambiguous = await svc(["admin", "apikeys", "create", "--name", "where"]);
    expect(ambiguous.code).toBe(1);
    expect(ambiguous.err).toBe(
      "svc admin apikeys create: This server has several orgs; name one with --org. (org_required)\n",
    );
    const named = await svc(["admin", "apikeys", "create", "--name", "there", "--org", "Second Org"]);
    expect(named.code).toBe(0);
    const me = await t.request("GET", "/v1/me", { key: named.out.trim() });
    expect(me.body.org.name).toBe("Second Org");
  });

  test("usage errors exit 2 with `svc admin <command>:` on stderr", async () => {
    const unknown = await svc(["admin", "apikeys", "create", "--name", "x", "--colour", "red"]);
    expect(unknown.code).toBe(2);
    expect(unknown.err).toStartWith("svc admin apikeys create: ");
    expect(unknown.err).toContain("--colour");
    const missing = await svc(["admin", "bootstrap", "--org", "Acme"]);
    expect(missing.code).toBe(2);
    expect(missing.err).toBe("svc admin bootstrap: --email is required (no terminal to ask on)\n");
    const noRole = await svc(["admin", "members", "add", "--email", "x@example.com"]);
    expect([noRole.code, noRole.err]).toEqual([2, "svc admin members add: --role is required\n"]);
    const nothing = await svc(["admin", "frobnicate", "--now"]);
    expect(nothing.code).toBe(2);
    expect(nothing.err).toStartWith('svc admin: unknown admin command "frobnicate --now"');
    expect(nothing.out).toBe("");
    expect(await svc(["admin", "keys", "generate", "--help"])).toEqual({
      code: 0,
      out: "Usage: svc admin keys generate --id KEY_ID   (prints id:base64key; keep it outside the database)\n",
      err: "",
    });
  });

  test("members add, role and remove; the last owner cannot be demoted or removed", async () => {
    const email = `editor-${randomBytes(3).toString("hex")}@example.com`;
    const add = await svc(["admin", "members", "add", "--org", orgId, "--email", email, "--role", "editor"]);
    expect([add.code, add.err]).toEqual([0, ""]);
    expect(add.out).toMatch(
      new RegExp(`^Added ${email} as editor\\.\\nTemporary password: [0-9A-Za-z]{20}  \\(shown once\\)\\n$`),
    );
    const list = await svc(["admin", "members", "list", "--org", orgId]);
    expect(list.out.split("\n")[0]).toBe("EMAIL\tROLE\tJOINED\tID");
    expect(list.out).toContain(`${email}\teditor\t`);
    const role = await svc(["admin", "members", "role", "--org", orgId, "--email", email, "--role", "admin"]);
    expect([role.code, role.out]).toEqual([0, `${email} is now admin.\n`]);
    const badRole = await svc([
      "admin",
      "members",
      "role",
      "--org",
      orgId,
      "--email",
      email,
      "--role",
      "boss",
    ]);
    expect([badRole.code, badRole.err]).toEqual([
      1,
      "svc admin members role: role must be owner, admin, editor or viewer. (role_invalid)\n",
    ]);

    const demote = await svc([
      "admin",
      "members",
      "role",
      "--org",
      orgId,
      "--email",
      ownerEmail,
      "--role",
      "viewer",
    ]);
    expect([demote.code, demote.err]).toEqual([
      1,
      "svc admin members role: An org keeps at least one owner. (last_owner)\n",
    ]);
    const removeOwner = await svc(["admin", "members", "remove", "--org", orgId, "--email", ownerEmail]);
    expect([removeOwner.code, removeOwner.err]).toEqual([
      1,
      "svc admin members remove: An org keeps at least one owner. (last_owner)\n",
    ]);
    const remove = await svc(["admin", "members", "remove", "--org", orgId, "--email", email]);
    expect([remove.code, remove.out]).toEqual([0, `Removed ${email}.\n`]);
    const left = await t.app.db.selectFrom("members").select("role").where("org_id", "=", orgId).execute();
    expect(left.map((m) => m.role)).toEqual(["owner"]);
  });

  test("old top-level names point to svc admin; --as is refused with what replaced it", async () => {
    const legacy = await svc(["keys", "generate", "--id", "k9"]);
    expect(legacy.code).toBe(0);
    expect(legacy.err).toBe("svc keys is now svc admin keys; running that.\n");
    expect(legacy.out).toMatch(/^k9:[A-Za-z0-9+/]{43}=\n$/);
    const as = await svc(["admin", "members", "list", "--as", "someone@example.com"]);
    expect(as.code).toBe(2);
    expect(as.err).toBe(
      "svc admin members list: --as is no longer accepted: admin commands act as the operator in the org named by --org (audited under the command's name); to act as a person, sign in with svc auth login and use the client commands\n",
    );
  });

  test("keys generate prints id:<32 bytes of base64> and needs no database", async () => {
    const r = await svc(["admin", "keys", "generate", "--id", "k2"]);
    expect([r.code, r.err]).toEqual([0, ""]);
    expect(r.out).toMatch(/^k2:[A-Za-z0-9+/]{43}=\n$/);
    expect(Buffer.from(r.out.trim().slice(3), "base64").length).toBe(32);
    const bad = await svc(["admin", "keys", "generate", "--id", "no spaces"]);
    expect([bad.code, bad.err]).toEqual([
      2,
      "svc admin keys generate: the id must be 1-64 letters, digits, _ . -\n",
    ]);
  });

  test("audit rows name the command as operator, request admin-cli, and no person or key", async () => {
    const expected: [string, string][] = [
      ["org.bootstrap", "bootstrap"],
      ["api_key.create", "apikeys create"],
      ["member.add", "members add"],
      ["member.role", "members role"],
      ["member.remove", "members remove"],
    ];
    for (const [action, operator] of expected) {
      const rows = await audits(action);
      expect(rows.length).toBeGreaterThan(0);
      for (const row of rows) {
        expect(row).toMatchObject({
          operator,
          request_id: "admin-cli",
          user_id: null,
          api_key_id: null,
          user_token_id: null,
          outcome: "success",
        });
      }
    }
    const [boot] = (await audits("org.bootstrap")).filter((r) => r.org_id === orgId);
    expect(JSON.parse(boot!.detail!)).toMatchObject({ email: ownerEmail });
    const created = (await audits("api_key.create")).filter((r) => r.org_id === orgId);
    expect(created.map((r) => JSON.parse(r.detail!).name).sort()).toEqual(["ci", "prod", "reader"]);
    // The live key's row is in live mode.
    expect(created.find((r) => JSON.parse(r.detail!).name === "prod")!.livemode).toBe(1);
  });
});
