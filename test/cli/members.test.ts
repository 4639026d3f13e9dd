// `svc members …` and `svc org …` with a person's user token against a real server (these routes refuse API keys).
import { afterAll, beforeAll, expect, test } from "bun:test";
import { type Cli, cli } from "../helpers/cli.ts";
import { describeEachDialect } from "../helpers/db.ts";
import { member, type Tenant, tenant, userToken } from "../helpers/factories.ts";
import { type ListeningApp, listeningApp } from "../helpers/listening.ts";

describeEachDialect("svc members and org", (dialect) => {
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
    await member(t.app, acme.orgId, "bo@example.com", "viewer");
  });
  afterAll(async () => {
    c.cleanup();
    await t.close();
  });

  test("members list: a row per member; --json", async () => {
    const r = await c.run(["members", "list"]);
    expect(r.code).toBe(0);
    const rows = r.out
      .trimEnd()
      .split("\n")
      .map((l) => l.split("\t"));
    expect(rows.map((x) => [x[0], x[2]]).sort()).toEqual(
      [
        ["bo@example.com", "viewer"],
        [acme.email, "owner"],
      ].sort(),
    );
    const j = await c.run([
      "members",
      "list",
      "--json",
      "email,role",
      "--jq",
      '.[] | select(.role=="viewer") | .email',
    ]);
    expect(j.out).toBe("bo@example.com\n");
  });

  test("members invite --no-email prints only the link; the invitation exists", async () => {
    const r = await c.run([
      "members",
      "invite",
      "--email",
      "cy@example.com",
      "--role",
      "editor",
      "--no-email",
    ]);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^http:\/\/localhost:8080\/\S+\n$/);
    expect(r.err).toContain("Invited cy@example.com as editor; the link expires");
    const list = await c.run(["api", "invitations", "--jq", ".data[].email"]);
    expect(list.out).toBe("cy@example.com\n");
  });

  test("bad input lists every problem, one per line", async () => {
    const r = await c.run(["members", "invite", "--email", "nope", "--role", "emperor", "--no-email"]);
    expect(r.code).toBe(1);
    expect(r.err.split("\n").slice(1, 3)).toEqual([
      "  - email: That is not an email address. (email_invalid)",
      "  - role: role must be owner, admin, editor or viewer. (role_invalid)",
    ]);
    expect((await c.run(["members", "invite", "--email", "x@example.com"])).code).toBe(2);
  });

  test("members role and remove take an email or a user ID", async () => {
    const r = await c.run(["members", "role", "bo@example.com", "--role", "editor"]);
    expect(r.code).toBe(0);
    expect(r.out).toContain("Role:  editor");
    const rm = await c.run(["members", "remove", "bo@example.com"]);
    expect(rm.code).toBe(0);
    expect((await c.run(["members", "list"])).out).not.toContain("bo@example.com");
    const none = await c.run(["members", "remove", "bo@example.com"]);
    expect(none).toEqual({
      code: 1,
      out: "",
      err: "svc members remove: no member with email bo@example.com\n",
    });
  });

  test("org view and update --name", async () => {
    const v = await c.run(["org", "view"]);
    expect(v.out).toContain("Name:           Acme\n");
    expect(v.out).toContain(`ID:             ${acme.orgId}\n`);
    const u = await c.run(["org", "update", "--name", "Acme Inc", "--json", "name"]);
    expect(JSON.parse(u.out)).toEqual({ name: "Acme Inc" });
    expect((await c.run(["org", "update"])).code).toBe(2);
  });

  test("an API key is refused by /v1/members with the server's reason", async () => {
    const r = await c.run(["members", "list"], { env: { SVC_TOKEN: acme.testKey } });
    expect(r.code).toBe(1);
    expect(r.err).toBe(
      "svc members list: Members, invitations and org settings accept user tokens only (svc auth login), not API keys. (forbidden)\n",
    );
  });
});
