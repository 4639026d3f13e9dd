// The operator's admin commands as a person runs them (the real `svc` in a child process): operator keys, org
// status, note, limits and reference, and org deletion, with their exit codes and audit rows.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type TestApp, testApp } from "../helpers/app.ts";
import { describeEachDialect } from "../helpers/db.ts";
import { type Tenant, tenant } from "../helpers/factories.ts";

describeEachDialect("svc admin for hosting", (dialect) => {
  let t: TestApp;
  let dataDir: string;
  let env: Record<string, string>;
  let a: Tenant;
  beforeAll(async () => {
    t = await testApp(dialect);
    a = await tenant(t.app, "Hosted Co");
    await tenant(t.app, "Second Co");
    dataDir = mkdtempSync(join(tmpdir(), "svc-admin-"));
    env = {
      PATH: process.env.PATH ?? "",
      HOME: process.env.HOME ?? "",
      SVC_DATABASE_URL: t.dbUrl,
      SVC_MASTER_KEYS: t.masterKeys,
      SVC_DATA_DIR: dataDir,
    };
  });
  afterAll(async () => {
    await t.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  async function svc(args: string[]) {
    const p = Bun.spawn(["bun", "src/main.ts", ...args], {
      env,
      stdin: "ignore",
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

  test("operator-keys create prints the key once; list shows it; revoke ends it", async () => {
    const made = await svc(["admin", "operator-keys", "create", "--name", "billing"]);
    expect(made.code).toBe(0);
    const secret = made.out.trim();
    expect(secret).toMatch(/^svc_op_/);
    expect((await t.request("GET", "/v1/operator/orgs", { key: secret })).status).toBe(200);
    const list = await svc(["admin", "operator-keys", "list"]);
    const [id, name, , state] = list.out.trim().split("\t");
    expect([name, state]).toEqual(["billing", "active"]);
    expect(list.out).not.toContain(secret);
    expect((await svc(["admin", "operator-keys", "revoke", "--key", id!])).code).toBe(0);
    expect((await t.request("GET", "/v1/operator/orgs", { key: secret })).body.code).toBe(
      "operator_key_revoked",
    );
    const again = await svc(["admin", "operator-keys", "revoke", "--key", id!]);
    expect([again.code, again.err]).toEqual([1, expect.stringContaining("No active operator key")]);
    expect((await svc(["admin", "operator-keys", "create"])).code).toBe(2);
  });

  test("org update sets status, note, limits and reference; bad values are refused with their codes", async () => {
    const r = await svc([
      "admin",
      "org",
      "update",
      "--org",
      "Hosted Co",
      "--status",
      "read_only",
      "--status-note",
      "Card expired",
      "--limits",
      "brands=3,channels=5,members=none,posts_per_month=100",
      "--external-ref",
      "cus_9",
    ]);
    expect([r.code, r.err]).toEqual([0, ""]);
    expect(r.out).toContain(
      "read_only (Card expired); limits brands 3, channels 5, members unlimited, posts/month 100; external_ref cus_9",
    );
    const o = await t.app.db
      .selectFrom("orgs")
      .selectAll()
      .where("id", "=", a.orgId)
      .executeTakeFirstOrThrow();
    expect([o.status, o.limit_brands, o.limit_members, o.external_ref]).toEqual([
      "read_only",
      3,
      null,
      "cus_9",
    ]);
    const audit = await t.app.db
      .selectFrom("audit_events")
      .selectAll()
      .where("action", "=", "org.operator_update")
      .execute();
    expect(audit.map((x) => [x.operator, x.request_id, x.user_id])).toEqual([
      ["org update", "admin-cli", null],
    ]);
    for (const [flag, value, code] of [
      ["--status", "paused", "status_invalid"],
      ["--limits", "brands=-1", "limit_invalid"],
      ["--limits", "brands=1.5", "limit_invalid"],
      ["--limits", "brands=many", "limit_invalid"],
    ] as const) {
      const bad = await svc(["admin", "org", "update", "--org", "Hosted Co", flag, value]);
      expect([bad.code, bad.err]).toEqual([1, expect.stringContaining(code)]);
    }
    const taken = await svc(["admin", "org", "update", "--org", "Second Co", "--external-ref", "cus_9"]);
    expect(taken.err).toContain("external_ref_taken");
  });

  test("org delete needs the name typed again", async () => {
    const wrong = await svc(["admin", "org", "delete", "--org", "Hosted Co", "--confirm", "hosted co"]);
    expect(wrong.code).toBe(1);
    expect(
      await t.app.db.selectFrom("orgs").select("id").where("id", "=", a.orgId).executeTakeFirst(),
    ).toBeTruthy();
    const ok = await svc(["admin", "org", "delete", "--org", "Hosted Co", "--confirm", "Hosted Co"]);
    expect([ok.code, ok.out.trim()]).toEqual([0, `Deleted org ${a.orgId}.`]);
    expect(
      await t.app.db.selectFrom("orgs").select("id").where("id", "=", a.orgId).executeTakeFirst(),
    ).toBeUndefined();
  });
});
