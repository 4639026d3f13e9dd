// `svc admin apps add|list|rename|remove` as an operator runs them (the real `svc` in a child process): the
// secret from stdin, sealed; the redirect URI to register; refusals with their codes and exit status.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openClientSecret } from "../../src/domain/apps/seal.ts";
import { type TestApp, testApp } from "../helpers/app.ts";
import { describeEachDialect } from "../helpers/db.ts";
import { type Tenant, tenant } from "../helpers/factories.ts";

describeEachDialect("svc admin apps", (dialect) => {
  let t: TestApp;
  let dataDir: string;
  let env: Record<string, string>;
  let a: Tenant;
  beforeAll(async () => {
    t = await testApp(dialect);
    a = await tenant(t.app, "Apps Co");
    dataDir = mkdtempSync(join(tmpdir(), "svc-admin-apps-"));
    env = {
      PATH: process.env.PATH ?? "",
      HOME: process.env.HOME ?? "",
      SVC_DATABASE_URL: t.dbUrl,
      SVC_MASTER_KEYS: t.masterKeys,
      SVC_DATA_DIR: dataDir,
      SVC_BASE_URL: "https://svc.example.com",
    };
  });
  afterAll(async () => {
    await t.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  async function svc(args: string[], stdin = "") {
    const p = Bun.spawn(["bun", "src/main.ts", "admin", "apps", ...args], {
      env,
      stdin: new Blob([stdin]),
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

  test("add reads the secret from stdin, prints the ID and the redirect URI; members see it as the server's", async () => {
    const r = await svc(
      ["add", "--provider", "x", "--name", "Install X", "--client-id", "inst-x-id"],
      "inst-x-secret\n",
    );
    expect(r.code).toBe(0);
    const id = r.out.trim();
    expect(id).toMatch(/^app_/);
    expect(r.err).toContain("https://svc.example.com/connect/x/callback");
    const row = await t.app.db
      .selectFrom("developer_apps")
      .selectAll()
      .where("id", "=", id)
      .executeTakeFirstOrThrow();
    expect(row.org_id).toBeNull();
    expect(row.client_secret).not.toContain("inst-x-secret");
    expect(await openClientSecret(t.app.db, t.app, row)).toBe("inst-x-secret");
    const seen = await t.request("GET", `/v1/developer_apps/${id}`, { key: a.testKey });
    expect([seen.body.provided_by, seen.body.client_id, seen.body.name]).toEqual([
      "server",
      null,
      "Install X",
    ]);

    const list = await svc(["list"]);
    expect(list.out.trim().split("\n")).toContain(
      [id, "x", "Install X", "inst-x-id", "https://svc.example.com/connect/x/callback"].join("\t"),
    );
    expect(list.out).not.toContain("inst-x-secret");

    expect((await svc(["rename", "--app", id, "--name", "Server X"])).code).toBe(0);
    expect((await t.request("GET", `/v1/developer_apps/${id}`, { key: a.testKey })).body.name).toBe(
      "Server X",
    );
    const audit = await t.app.db
      .selectFrom("audit_events")
      .select(["action", "operator"])
      .where("target", "=", id)
      .orderBy("id")
      .execute();
    expect(audit).toEqual([
      { action: "developer_app.create", operator: "apps add" },
      { action: "developer_app.rename", operator: "apps rename" },
    ]);

    expect((await svc(["remove", "--app", id])).code).toBe(0);
    expect((await t.request("GET", `/v1/developer_apps/${id}`, { key: a.testKey })).status).toBe(404);
    const again = await svc(["remove", "--app", id]);
    expect([again.code, again.err]).toEqual([1, expect.stringContaining(`No install developer app ${id}`)]);
  });

  test("refusals: no secret on stdin, missing flags (exit 2); a taken name, a provider without sign-in (exit 1)", async () => {
    expect((await svc(["add", "--provider", "x", "--name", "N", "--client-id", "c"], "")).code).toBe(2);
    expect((await svc(["add", "--provider", "x", "--name", "N"], "s\n")).code).toBe(2);
    expect((await svc(["add", "--provider", "x", "--name", "Dup", "--client-id", "c"], "s\n")).code).toBe(0);
    const dup = await svc(["add", "--provider", "pinterest", "--name", "Dup", "--client-id", "c"], "s\n");
    expect([dup.code, dup.err]).toEqual([1, expect.stringContaining("already named Dup")]);
    const bad = await svc(["add", "--provider", "telegram", "--name", "T", "--client-id", "c"], "s\n");
    expect([bad.code, bad.err]).toEqual([
      1,
      expect.stringContaining("does not connect through a developer app"),
    ]);
  });
});
