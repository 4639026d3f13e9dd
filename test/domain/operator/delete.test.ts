// Deleting an org removes every row of it, table by table from the live schema (so tables added later are
// covered), its data key with them, while members keep their accounts, the audit log keeps the record and other
// orgs keep everything.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { sql } from "kysely";
import { createOperatorKey } from "../../../src/domain/identity/auth/operator.ts";
import { tablesWithColumn } from "../../../src/domain/operator/tables.ts";
import { requestsPrune } from "../../../src/queue/tasks/requests-prune.ts";
import { type TestApp, testApp } from "../../helpers/app.ts";
import { describeEachDialect } from "../../helpers/db.ts";
import { type Tenant, tenant } from "../../helpers/factories.ts";

const ID = /^[a-z]+_[0-9a-hjkmnp-tv-z]{26}$/;
/** Accounts outlive their orgs; the audit log keeps the record. */
const KEPT_TABLES = new Set(["audit_events", "users", "user_tokens"]);

async function allTables(t: TestApp): Promise<string[]> {
  // Every table has an id or a key column; list them through any column every table has at least one of.
  const names = new Set<string>();
  for (const c of ["id", "org_id", "key", "name", "credential_id", "target_id", "post_id", "template_id"])
    for (const x of await t.app.db.transaction().execute((tx) => tablesWithColumn(tx, t.app.dialect, c)))
      names.add(x);
  return [...names].sort();
}

async function rowsOf(t: TestApp, table: string): Promise<Record<string, unknown>[]> {
  return (await sql<Record<string, unknown>>`SELECT * FROM ${sql.table(table)}`.execute(t.app.db)).rows;
}

/** Every ID that appears in a row holding the org's ID: the org's own objects and what they point at. */
async function idsOfOrg(t: TestApp, orgId: string, except: Set<string>): Promise<Set<string>> {
  const ids = new Set<string>([orgId]);
  for (const table of await allTables(t)) {
    for (const row of await rowsOf(t, table)) {
      if (!Object.values(row).includes(orgId)) continue;
      for (const v of Object.values(row))
        if (typeof v === "string" && ID.test(v) && !except.has(v)) ids.add(v);
    }
  }
  return ids;
}

describeEachDialect("org deletion", (dialect) => {
  let t: TestApp;
  let a: Tenant;
  let b: Tenant;
  let op: string;
  beforeAll(async () => {
    t = await testApp(dialect);
    a = await tenant(t.app, "Doomed");
    b = await tenant(t.app, "Survivor");
    op = (await createOperatorKey(t.app, "ops")).secret;
    for (const who of [a, b]) {
      const post = await t.request("POST", "/v1/posts", {
        key: who.testKey,
        body: { brand: who.brandSlug, content: { body: "hello" }, publish_at: "next_slot" },
        headers: { "Idempotency-Key": `k-${who.orgId}` },
      });
      expect(post.status).toBe(201);
      const hook = await t.request("POST", "/v1/webhook_endpoints", {
        key: who.testKey,
        body: { url: "https://hooks.example.com/svc" },
      });
      expect(hook.status).toBe(201);
      const tmpl = await t.request("POST", "/v1/templates", {
        key: who.testKey,
        body: {
          brand: who.brandSlug,
          key: "hi",
          name: "Hi",
          body: "Hi {{.n}}",
          variables: { type: "object", properties: { n: { type: "string" } }, required: ["n"] },
          examples: [{ n: "x" }],
        },
      });
      expect(tmpl.status).toBe(201);
    }
    await t.http.ctx.requestLog.flush();
  });
  afterAll(() => t.close());

  test("a wrong confirm name deletes nothing", async () => {
    const r = await t.request("DELETE", `/v1/operator/orgs/${a.orgId}?confirm=doomed`, { key: op });
    expect([r.status, r.body.code, r.body.param]).toEqual([422, "parameter_invalid", "confirm"]);
    expect((await t.request("GET", "/v1/brands", { key: a.testKey })).status).toBe(200);
    const noConfirm = await t.request("DELETE", `/v1/operator/orgs/${a.orgId}`, { key: op });
    expect(noConfirm.body.param).toBe("confirm");
  });

  test("deleting removes every row of the org and its data key, and nothing of another org", async () => {
    await t.http.ctx.requestLog.flush();
    const userIds = new Set([a.userId, b.userId]);
    const doomed = await idsOfOrg(t, a.orgId, userIds);
    const survivorBefore = await idsOfOrg(t, b.orgId, userIds);
    expect(doomed.size).toBeGreaterThan(10);

    // A request of the org still in flight: its request-log row is written after the deletion.
    await t.request("GET", "/v1/brands", { key: a.testKey });
    const r = await t.request("DELETE", `/v1/operator/orgs/${a.orgId}?confirm=Doomed`, { key: op });
    expect([r.status, r.body]).toEqual([200, { id: a.orgId, object: "org", deleted: true }]);
    await t.http.ctx.requestLog.flush();
    await requestsPrune.run(t.app);

    const left: string[] = [];
    for (const table of await allTables(t)) {
      if (KEPT_TABLES.has(table)) continue;
      for (const row of await rowsOf(t, table))
        for (const v of Object.values(row))
          if (typeof v === "string" && doomed.has(v)) left.push(`${table}: ${v}`);
    }
    expect(left).toEqual([]);
    const keys = await t.app.db.selectFrom("org_keys").select("org_id").execute();
    expect(keys.map((k) => k.org_id)).toEqual([b.orgId]);
    expect(await idsOfOrg(t, b.orgId, userIds)).toEqual(survivorBefore);

    // The person keeps the account; the key is gone; the audit log keeps the record of the deletion.
    expect(
      await t.app.db.selectFrom("users").select("id").where("id", "=", a.userId).executeTakeFirst(),
    ).toBeTruthy();
    expect((await t.request("GET", "/v1/brands", { key: a.testKey })).body.code).toBe("api_key_invalid");
    const audit = await t.app.db
      .selectFrom("audit_events")
      .select(["action", "operator"])
      .where("org_id", "=", a.orgId)
      .where("action", "=", "org.delete")
      .execute();
    expect(audit).toHaveLength(1);
    expect(audit[0]!.operator).toMatch(/^opkey_/);
    // The other org goes on working.
    expect((await t.request("GET", "/v1/posts", { key: b.testKey })).body.data).toHaveLength(1);
  });
});
