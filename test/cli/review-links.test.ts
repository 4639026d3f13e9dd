// `svc review-links create|list|withdraw` with a person's user token against a real server: create prints the
// address once (the only output on stdout), list never shows it, withdraw stops it; bad input is a usage error.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { type Cli, cli } from "../helpers/cli.ts";
import { describeEachDialect } from "../helpers/db.ts";
import { type Tenant, tenant, userToken } from "../helpers/factories.ts";
import { type ListeningApp, listeningApp } from "../helpers/listening.ts";

describeEachDialect("svc review-links", (dialect) => {
  let t: ListeningApp;
  let acme: Tenant;
  let c: Cli;
  beforeAll(async () => {
    t = await listeningApp(dialect);
    acme = await tenant(t.app, "Acme");
    c = cli();
    const tok = await userToken(t.app, acme.userId);
    expect(
      (await c.run(["auth", "login", "--hostname", t.url, "--with-token"], { stdin: tok.secret })).code,
    ).toBe(0);
  });
  afterAll(async () => {
    c.cleanup();
    await t.close();
  });

  test("create prints the link once; list shows it without the address; withdraw stops it", async () => {
    const r = await c.run(["review-links", "create", "--brand", acme.brandSlug, "--name", "Acme marketing"]);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^http:\/\/localhost:8080\/review\/svc_review_[0-9A-Za-z]{32}\n$/);
    expect(r.err).toContain("is not shown again");
    const id = /Review link (rvl_[0-9a-z]{26})/.exec(r.err)![1]!;
    const row = await t.app.db
      .selectFrom("review_links")
      .selectAll()
      .where("id", "=", id)
      .executeTakeFirstOrThrow();
    expect(row.created_by_user).toBe(acme.userId);

    const list = await c.run(["review-links", "list", "--brand", acme.brandSlug]);
    expect(list.code).toBe(0);
    const cols = list.out
      .trimEnd()
      .split("\n")
      .find((l) => l.startsWith(id))!
      .split("\t");
    expect(cols.slice(0, 4)).toEqual([id, "Acme marketing", acme.brandSlug, "active"]);
    expect(list.out).not.toContain("svc_review_");
    const j = await c.run(["review-links", "list", "--json", "id,status"]);
    expect(JSON.parse(j.out)).toContainEqual({ id, status: "active" });

    const w = await c.run(["review-links", "withdraw", id]);
    expect(w.code).toBe(0);
    expect(w.err).toContain(`Withdrew review link ${id} (Acme marketing)`);
    const after = await c.run(["review-links", "list", "--json", "id,status"]);
    expect(JSON.parse(after.out)).toContainEqual({ id, status: "withdrawn" });
  });

  test("--expires-at over 30 days is refused with its code; missing flags are usage errors", async () => {
    const late = new Date(Date.now() + 40 * 86400_000).toISOString();
    const r = await c.run([
      "review-links",
      "create",
      "--brand",
      acme.brandSlug,
      "--name",
      "x",
      "--expires-at",
      late,
    ]);
    expect(r.code).toBe(1);
    expect(r.err).toContain("review_link_expiry_invalid");
    expect((await c.run(["review-links", "create", "--brand", acme.brandSlug])).code).toBe(2);
    expect((await c.run(["review-links", "withdraw", "rvl_00000000000000000000000000"])).code).toBe(1);
  });
});
