// Removing a person from an org revokes every credential they minted there (issue item 23): the /cli key, a key
// from the API keys page, a key that key made and a key that rolled itself, and the invitations they sent; keys
// of others keep working, and a key in another org the person belongs to keeps working too.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { issueCliKey } from "../../../src/domain/identity/api-keys/cli-key.ts";
import { createApiKey } from "../../../src/domain/identity/api-keys/service.ts";
import { findInvitation } from "../../../src/domain/identity/invitations/accept.ts";
import { createInvitation } from "../../../src/domain/identity/invitations/service.ts";
import { deleteMember, removeMember } from "../../../src/domain/identity/members/service.ts";
import { type TestApp, testApp } from "../../helpers/app.ts";
import { describeEachDialect } from "../../helpers/db.ts";
import { member, type Tenant, tenant } from "../../helpers/factories.ts";
import { personActor } from "../../helpers/person.ts";

describeEachDialect("removing a member revokes their keys", (dialect) => {
  let t: TestApp;
  let a: Tenant;
  beforeAll(async () => {
    t = await testApp(dialect);
    a = await tenant(t.app, "Leaving Org");
  });
  afterAll(() => t.close());

  const me = (key: string) => t.request("GET", "/v1/me", { key });

  test("the /cli key, a dashboard key, its child and its self-roll stop; others' keys keep working", async () => {
    const uid = await member(t.app, a.orgId, `leaver-${dialect}@example.com`, "admin");
    const leaver = await personActor(t.app, uid, a.orgId);
    const sudo = { confirmedAt: t.app.clock.now() };
    const cli = await issueCliKey(t.app, leaver, { device_name: "laptop", livemode: true }, sudo);
    const dash = await createApiKey(
      t.app,
      leaver,
      { name: "ci", scopes: ["keys:write", "posts:read"] },
      sudo,
    );
    const child = await t.request("POST", "/v1/api_keys", {
      key: dash.secret!,
      body: { name: "child", scopes: ["posts:read"] },
    });
    expect(child.status).toBe(201);
    const rolled = await t.request("POST", "/v1/api_keys/self/roll", {
      key: child.body.secret,
      body: { overlap_hours: 1 },
    });
    expect(rolled.status).toBe(201);
    for (const k of [cli.secret!, dash.secret!, child.body.secret, rolled.body.secret])
      expect((await me(k)).status).toBe(200);

    // The same person in a second org: their key there is not this org's to revoke.
    const b = await tenant(t.app, "Staying Org");
    await t.app.db
      .insertInto("members")
      .values({ org_id: b.orgId, user_id: uid, role: "admin", created_at: t.app.clock.now() })
      .execute();
    const elsewhere = await issueCliKey(
      t.app,
      await personActor(t.app, uid, b.orgId),
      { device_name: "laptop", livemode: false },
      sudo,
    );

    // An invitation they sent (to a second address of their own, say) is a way back in.
    const sent = await createInvitation(t.app, leaver, {
      email: `back-door-${dialect}@example.com`,
      role: "admin",
    });
    expect((await findInvitation(t.app, sent.url!.split("/").pop())).step).toBe("prove");

    const owner = await personActor(t.app, a.userId, a.orgId);
    await deleteMember(t.app, owner, uid, sudo);
    // The invitation's link is dead.
    await expect(findInvitation(t.app, sent.url!.split("/").pop())).rejects.toMatchObject({
      code: "invitation_invalid",
    });

    for (const k of [cli.secret!, dash.secret!, child.body.secret, rolled.body.secret]) {
      const r = await me(k);
      expect(r.status).toBe(401);
      expect(r.body.code).toBe("api_key_expired");
    }
    expect((await me(a.testKey)).status).toBe(200);
    expect((await me(a.liveKey)).status).toBe(200);
    expect((await me(elsewhere.secret!)).status).toBe(200);
    // Each revocation is audited in its key's mode, naming the reason.
    const rows = await t.app.db
      .selectFrom("audit_events")
      .select(["target", "livemode", "detail"])
      .where("org_id", "=", a.orgId)
      .where("action", "=", "api_key.revoke")
      .execute();
    expect(rows.map((r) => r.target).sort()).toEqual(
      [cli.id, dash.id, child.body.id, rolled.body.id].sort() as string[],
    );
    expect(rows.find((r) => r.target === cli.id)?.livemode).toBe(1);
    expect(JSON.parse(rows[0]!.detail!)).toMatchObject({ reason: "member.remove", user: uid });
  });

  test("the admin command's remove revokes the same way", async () => {
    const address = `leaver2-${dialect}@example.com`;
    const uid = await member(t.app, a.orgId, address, "editor");
    const cli = await issueCliKey(
      t.app,
      await personActor(t.app, uid, a.orgId),
      { device_name: "ci", livemode: false },
      { confirmedAt: t.app.clock.now() },
    );
    expect((await me(cli.secret!)).status).toBe(200);
    await removeMember(t.app, await personActor(t.app, a.userId, a.orgId), { email: address });
    expect((await me(cli.secret!)).body.code).toBe("api_key_expired");
  });
});
