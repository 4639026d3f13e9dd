// /v1/members, /v1/invitations and /v1/org: user tokens only (keys refused), Svc-Org picks the org, roles per
// reference §1, the last owner kept, owner changes left to the dashboard, org isolation, and both modes' tokens
// seeing the same members (members and orgs are shared by both modes).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { adminActor } from "../../../../src/domain/actor.ts";
import { acceptInvitation, findInvitation } from "../../../../src/domain/identity/invitations/accept.ts";
import { deleteMember, updateMember } from "../../../../src/domain/identity/members/service.ts";
import { findUserByEmail } from "../../../../src/domain/identity/users/service.ts";
import { updateOrg } from "../../../../src/domain/orgs/service.ts";
import { scopesOfRole } from "../../../../src/domain/scopes.ts";
import { FakeClock } from "../../../../src/lib/clock.ts";
import { ServiceError } from "../../../../src/lib/errors.ts";
import { type TestApp, testApp } from "../../../helpers/app.ts";
import { dialects } from "../../../helpers/db.ts";
import { member, type Tenant, tenant, userToken } from "../../../helpers/factories.ts";
import { personActor } from "../../../helpers/person.ts";
import { type SmtpReceiver, smtpReceiver } from "../../../helpers/smtp.ts";

async function refused(p: Promise<unknown>): Promise<ServiceError> {
  try {
    await p;
  } catch (e) {
    if (e instanceof ServiceError) return e;
    throw e;
  }
  throw new Error("expected a ServiceError");
}

for (const dialect of dialects) {
  describe(`members, invitations and org over /v1 (${dialect})`, () => {
    let t: TestApp;
    let a: Tenant;
    let b: Tenant;
    let smtp: SmtpReceiver;
    let owner: string; // test-mode token of a's owner
    let ownerLive: string;
    const clock = new FakeClock();
    beforeAll(async () => {
      smtp = await smtpReceiver();
      t = await testApp(dialect, { clock, env: smtp.env });
      a = await tenant(t.app, "Members Org");
      b = await tenant(t.app, "Other Org");
      owner = (await userToken(t.app, a.userId)).secret;
      ownerLive = (await userToken(t.app, a.userId, { livemode: true })).secret;
    });
    afterAll(async () => {
      await t.close();
      await smtp.close();
    });

    const as = (key: string, headers?: Record<string, string>) => ({
      get: (path: string) => t.request("GET", path, { key, ...(headers ? { headers } : {}) }),
      post: (path: string, body: unknown) =>
        t.request("POST", path, { key, body, ...(headers ? { headers } : {}) }),
      del: (path: string) => t.request("DELETE", path, { key, ...(headers ? { headers } : {}) }),
    });

    test("API keys are refused on every members, invitations and org route", async () => {
      for (const [method, path, body] of [
        ["GET", "/v1/members", undefined],
        ["GET", `/v1/members/${a.userId}`, undefined],
        ["POST", `/v1/members/${a.userId}`, { role: "admin" }],
        ["DELETE", `/v1/members/${a.userId}`, undefined],
        ["GET", "/v1/invitations", undefined],
        ["POST", "/v1/invitations", { email: "k@example.com", role: "viewer" }],
        ["GET", "/v1/org", undefined],
        ["POST", "/v1/org", { name: "Renamed by a key" }],
      ] as const) {
        const r = await t.request(method, path, { key: a.testKey, ...(body ? { body } : {}) });
        expect([path, r.status, r.body.code]).toEqual([path, 403, "forbidden"]);
      }
      expect((await as(owner).get("/v1/org")).body.name).toBe("Members Org");
    });

    test("members list and get; both modes' tokens see the same members", async () => {
      const list = await as(owner).get("/v1/members");
      expect(list.status).toBe(200);
      expect(list.body).toMatchObject({ object: "list", has_more: false, url: "/v1/members" });
      expect(list.body.data).toEqual([
        expect.objectContaining({
          id: a.userId,
          object: "member",
          email: a.email,
          role: "owner",
          mfa: false,
        }),
      ]);
      expect((await as(ownerLive).get("/v1/members")).body.data).toEqual(list.body.data);
      expect((await as(owner).get(`/v1/members/${a.userId}`)).body.id).toBe(a.userId);
      // Another org's member, a malformed ID: missing.
      expect((await as(owner).get(`/v1/members/${b.userId}`)).body.code).toBe("resource_missing");
      expect((await as(owner).get("/v1/members/nope")).status).toBe(404);
    });

    test("invitations: the link once, a week, emailed when asked; accept creates the account", async () => {
      const inv = await as(owner).post("/v1/invitations", {
        email: "New.Person@Example.com",
        role: "editor",
        send_email: true,
      });
      expect(inv.status).toBe(201);
      expect(inv.body).toMatchObject({
        object: "invitation",
        email: "new.person@example.com",
        role: "editor",
        emailed: true,
      });
      expect(inv.body.url).toMatch(/^http:\/\/localhost:8080\/invite\/[0-9A-Za-z]{40}$/);
      expect(Date.parse(inv.body.expires_at) - clock.now()).toBe(7 * 86400_000);
      const mail = await smtp.waitFor("new.person@example.com", /invited to Members Org/);
      expect(mail.text).toContain(inv.body.url);

      const list = await as(owner).get("/v1/invitations");
      expect(list.body.data.map((i: { id: string }) => i.id)).toEqual([inv.body.id]);
      expect(list.body.data[0]).not.toHaveProperty("url");
      // Another org does not see it and cannot withdraw it.
      const other = (await userToken(t.app, b.userId)).secret;
      expect((await as(other).get("/v1/invitations")).body.data).toEqual([]);
      expect((await as(other).del(`/v1/invitations/${inv.body.id}`)).body.code).toBe("resource_missing");

      const token = inv.body.url.split("/").pop();
      // The link alone (the one the admin was shown) proves nothing about the address: the page asks for proof.
      const found = await findInvitation(t.app, token);
      expect(found).toMatchObject({ org: { name: "Members Org" }, role: "editor", step: "prove" });
      // Nothing tells the link's holder whether the address has an account.
      expect(found).not.toHaveProperty("account_exists");
      // A password typed on the bare link makes no account: it is a sign-in guess, refused as a wrong password
      // for an existing account is (the same answer for every address).
      const unproven = await refused(acceptInvitation(t.app, { token, password: "the admin's choice" }));
      expect([unproven.status, unproven.code]).toEqual([401, "sign_in_failed"]);
      expect(await findUserByEmail(t.app.db, "new.person@example.com")).toBeUndefined();
      // The mailed link carries the proof.
      const proof = new RegExp(`${inv.body.url}/p/([0-9A-Za-z]+)`).exec(mail.text)![1]!;
      expect((await findInvitation(t.app, token, { proof })).step).toBe("create");
      const wrongProof = await refused(
        acceptInvitation(t.app, { token, proof: "x".repeat(40), password: "the admin's choice" }),
      );
      expect([wrongProof.status, wrongProof.code]).toEqual([401, "sign_in_failed"]);
      expect(await findUserByEmail(t.app.db, "new.person@example.com")).toBeUndefined();
      expect((await refused(acceptInvitation(t.app, { token }))).code).toBe("parameter_missing");
      const noPw = await refused(acceptInvitation(t.app, { token, proof }));
      expect(noPw.code).toBe("parameter_missing");
      const accepted = await acceptInvitation(t.app, {
        token,
        proof,
        password: "my own passphrase",
        name: "<b>New</b>",
      });
      expect(accepted).toMatchObject({ role: "editor", created_account: true });
      const replay = await refused(acceptInvitation(t.app, { token, proof, password: "my own passphrase" }));
      expect([replay.status, replay.code]).toEqual([404, "invitation_invalid"]);

      const members = (await as(owner).get("/v1/members")).body.data;
      expect(members.find((m: { email: string }) => m.email === "new.person@example.com")).toMatchObject({
        role: "editor",
        name: "<b>New</b>",
      });
      expect((await as(owner).get("/v1/invitations")).body.data).toEqual([]);
      // Inviting a member again: member_exists.
      const again = await as(owner).post("/v1/invitations", {
        email: "new.person@example.com",
        role: "viewer",
      });
      expect([again.status, again.body.code]).toEqual([409, "member_exists"]);
    });

    test("an existing account accepts signed in as it or with its password; expired and withdrawn links are invalid", async () => {
      const inv = await as(owner).post("/v1/invitations", { email: b.email, role: "viewer" });
      expect(inv.body.emailed).toBe(false);
      const token = inv.body.url.split("/").pop();
      // Nothing tells the link's holder that the address has an account…
      expect((await findInvitation(t.app, token)).step).toBe("prove");
      expect(await findInvitation(t.app, token)).not.toHaveProperty("account_exists");
      // …only its own person, signed in, sees the invitation is theirs.
      expect((await findInvitation(t.app, token, { signedInUserId: b.userId })).step).toBe("join");
      expect((await findInvitation(t.app, token, { signedInUserId: a.userId })).step).toBe("other_account");
      expect((await refused(acceptInvitation(t.app, { token }, {}))).code).toBe("parameter_missing");
      // Signed out, a password that is not the account's: the sign-in's own answer (and a counted guess).
      const wrong = await refused(acceptInvitation(t.app, { token, password: "not the password" }, {}));
      expect([wrong.status, wrong.code]).toEqual([401, "sign_in_failed"]);
      expect((await refused(acceptInvitation(t.app, { token }, { signedInUserId: a.userId }))).code).toBe(
        "forbidden",
      );
      const ok = await acceptInvitation(t.app, { token }, { signedInUserId: b.userId });
      expect(ok).toMatchObject({ created_account: false, role: "viewer", user: { id: b.userId } });
      // Signed out with the account's password joins too.
      const c = await tenant(t.app, "Third Org");
      const inv2 = await as(owner).post("/v1/invitations", { email: c.email, role: "viewer" });
      const joined = await acceptInvitation(t.app, {
        token: inv2.body.url.split("/").pop(),
        password: "correct horse battery staple",
      });
      expect(joined).toMatchObject({ created_account: false, user: { id: c.userId } });

      const late = await as(owner).post("/v1/invitations", { email: "late@example.com", role: "viewer" });
      clock.advance(7 * 86400_000);
      const lateToken = late.body.url.split("/").pop();
      expect((await refused(findInvitation(t.app, lateToken))).code).toBe("invitation_invalid");
      expect(
        (await refused(acceptInvitation(t.app, { token: lateToken, password: "late passphrase" }))).code,
      ).toBe("invitation_invalid");

      const gone = await as(owner).post("/v1/invitations", { email: "gone@example.com", role: "viewer" });
      const del = await as(owner).del(`/v1/invitations/${gone.body.id}`);
      expect(del.body).toEqual({ id: gone.body.id, object: "invitation", deleted: true });
      expect(
        (
          await refused(
            acceptInvitation(t.app, { token: gone.body.url.split("/").pop(), password: "x".repeat(12) }),
          )
        ).code,
      ).toBe("invitation_invalid");
      expect((await as(owner).del(`/v1/invitations/${gone.body.id}`)).status).toBe(404);
    });

    test("bad invitation input", async () => {
      const cases: [unknown, number, string][] = [
        [{ email: "not-an-email", role: "viewer" }, 422, "email_invalid"],
        [{ email: "x@example.com", role: "boss" }, 422, "role_invalid"],
        [{ email: "x@example.com" }, 400, "parameter_missing"],
        [{ email: "x@example.com", role: "viewer", extra: true }, 400, "parameter_unknown"],
        [{ email: "x@example.com", role: "viewer", send_email: "yes" }, 400, "parameter_invalid"],
        [{ email: `<script>@example.com`, role: "viewer" }, 201, ""],
      ];
      for (const [body, status, code] of cases) {
        const r = await as(owner).post("/v1/invitations", body);
        expect([JSON.stringify(body), r.status, status === 201 ? "" : r.body.code]).toEqual([
          JSON.stringify(body),
          status,
          code,
        ]);
      }
    });

    test("roles: editors and viewers cannot manage members; admins cannot touch owners", async () => {
      const adminId = await member(t.app, a.orgId, `admin-${dialect}@example.com`, "admin");
      const editorId = await member(t.app, a.orgId, `editor-${dialect}@example.com`, "editor");
      const admin = (await userToken(t.app, adminId)).secret;
      const editor = (await userToken(t.app, editorId)).secret;
      // Person in two orgs now (b's owner joined a above): Svc-Org needed for b's owner; editors only in a.
      expect((await as(editor).get("/v1/members")).status).toBe(200);
      expect((await as(editor).post(`/v1/members/${editorId}`, { role: "admin" })).body.code).toBe(
        "forbidden",
      );
      expect(
        (await as(editor).post("/v1/invitations", { email: "e@example.com", role: "viewer" })).body.code,
      ).toBe("forbidden");
      expect((await as(admin).post(`/v1/members/${editorId}`, { role: "viewer" })).body.role).toBe("viewer");
      expect((await as(admin).post(`/v1/members/${editorId}`, { role: "owner" })).body.code).toBe(
        "forbidden",
      );
      expect((await as(admin).del(`/v1/members/${a.userId}`)).body.code).toBe("forbidden");
      expect(
        (await as(admin).post("/v1/invitations", { email: "o@example.com", role: "owner" })).body.code,
      ).toBe("forbidden");
      expect((await as(admin).post("/v1/org", { name: "Admin rename" })).body.code).toBe("forbidden");
      const del = await as(admin).del(`/v1/members/${editorId}`);
      expect(del.body).toEqual({ id: editorId, object: "member", deleted: true });
      expect((await as(editor).get("/v1/members")).body.code).toBe("org_unknown");
    });

    test("owner changes need the dashboard: a token gets reauthentication_required; the last owner stays", async () => {
      const otherId = await member(t.app, a.orgId, `second-${dialect}@example.com`, "admin");
      for (const r of [
        await as(owner).post(`/v1/members/${otherId}`, { role: "owner" }),
        await as(owner).post(`/v1/members/${a.userId}`, { role: "admin" }),
        await as(owner).del(`/v1/members/${a.userId}`),
        await as(owner).post("/v1/invitations", { email: "owner2@example.com", role: "owner" }),
      ])
        expect([r.status, r.body.code]).toEqual([403, "reauthentication_required"]);

      // In the dashboard (sudo mode) the same changes work, except removing the last owner.
      const session = await personActor(t.app, a.userId, a.orgId);
      const last = await refused(deleteMember(t.app, session, a.userId, { confirmedAt: clock.now() }));
      expect([last.status, last.code]).toEqual([409, "last_owner"]);
      const demote = await refused(
        updateMember(t.app, session, a.userId, { role: "admin" }, { confirmedAt: clock.now() }),
      );
      expect(demote.code).toBe("last_owner");
      const stale = await refused(
        updateMember(t.app, session, otherId, { role: "owner" }, { confirmedAt: null }),
      );
      expect(stale.code).toBe("reauthentication_required");
      const made = await updateMember(
        t.app,
        session,
        otherId,
        { role: "owner" },
        { confirmedAt: clock.now() },
      );
      expect(made.role).toBe("owner");
      expect((await as(owner).del(`/v1/members/${otherId}`)).body.code).toBe("reauthentication_required");
      await deleteMember(t.app, session, otherId, { confirmedAt: clock.now() });
    });

    test("org: get, rename, require two-factor; turning it off stays in the dashboard", async () => {
      // Requiring two-factor needs it on the asking person first.
      const first = await as(owner).post("/v1/org", { require_mfa: true });
      expect([first.status, first.body.code]).toEqual([403, "mfa_required_first"]);
      expect((await as(owner).get(`/v1/members/${a.userId}`)).body.mfa).toBe(false);
      // The owner turns on an authenticator app (the state the Security page leaves; its flow is tested there).
      await t.app.db
        .insertInto("user_totp")
        .values({
          user_id: a.userId,
          secret: "sealed",
          enabled_at: clock.now(),
          last_step: null,
          created_at: clock.now(),
        })
        .execute();
      expect((await as(owner).get(`/v1/members/${a.userId}`)).body.mfa).toBe(true);
      const r = await as(owner).post("/v1/org", { name: "<i>Renamed</i>", require_mfa: true });
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({ object: "org", id: a.orgId, name: "<i>Renamed</i>", require_mfa: true });
      expect((await as(owner).post("/v1/org", { require_mfa: false })).body.code).toBe(
        "reauthentication_required",
      );
      const session = await personActor(t.app, a.userId, a.orgId);
      const off = await updateOrg(t.app, session, { require_mfa: false }, { confirmedAt: clock.now() });
      expect(off.require_mfa).toBe(false);
      expect((await as(owner).post("/v1/org", { name: "" })).body.code).toBe("name_invalid");
      expect((await as(owner).post("/v1/org", { status: "active" })).body.code).toBe("parameter_unknown");
      await as(owner).post("/v1/org", { name: "Members Org" });
    });

    test("Svc-Org: required for a person in several orgs, by ID or name; ambiguous and unknown", async () => {
      // b's owner is now in both orgs (accepted an invitation to a).
      const both = (await userToken(t.app, b.userId)).secret;
      const none = await as(both).get("/v1/org");
      expect([none.status, none.body.code]).toEqual([422, "org_required"]);
      expect((await as(both, { "Svc-Org": a.orgId }).get("/v1/org")).body.id).toBe(a.orgId);
      expect((await as(both, { "Svc-Org": "Other Org" }).get("/v1/org")).body.id).toBe(b.orgId);
      const unknown = await as(both, { "Svc-Org": "Nowhere" }).get("/v1/org");
      expect([unknown.status, unknown.body.code]).toEqual([404, "org_unknown"]);
      // Two of the person's orgs share a name: the name is ambiguous, the ID works.
      const twin = await tenant(t.app, "Other Org");
      await member(t.app, twin.orgId, b.email, "viewer");
      const amb = await as(both, { "Svc-Org": "Other Org" }).get("/v1/org");
      expect([amb.status, amb.body.code]).toEqual([422, "org_ambiguous"]);
      expect((await as(both, { "Svc-Org": twin.orgId }).get("/v1/org")).body.id).toBe(twin.orgId);
      // The role is the one in the named org: a viewer in the twin cannot invite there.
      expect(
        (
          await as(both, { "Svc-Org": twin.orgId }).post("/v1/invitations", {
            email: "v@example.com",
            role: "viewer",
          })
        ).body.code,
      ).toBe("forbidden");
    });

    test("the members limit counts open invitations", async () => {
      const c = await tenant(t.app, "Limited Org");
      await t.app.db.updateTable("orgs").set({ limit_members: 2 }).where("id", "=", c.orgId).execute();
      const tok = (await userToken(t.app, c.userId)).secret;
      expect(
        (await as(tok).post("/v1/invitations", { email: "one@example.com", role: "viewer" })).status,
      ).toBe(201);
      const full = await as(tok).post("/v1/invitations", { email: "two@example.com", role: "viewer" });
      expect([full.status, full.body.code, full.body.param]).toEqual([403, "limit_reached", "members"]);
      const adminAdd = await refused(
        (await import("../../../../src/domain/identity/members/service.ts")).addMember(
          t.app,
          adminActor(c.orgId, "members add", scopesOfRole("owner")),
          { email: "three@example.com", role: "viewer" },
        ),
      );
      expect(adminAdd.code).toBe("limit_reached");
    });
  });

  describe(`invitations without SMTP (${dialect})`, () => {
    let t: TestApp;
    let a: Tenant;
    beforeAll(async () => {
      t = await testApp(dialect);
      a = await tenant(t.app, "Quiet Org");
    });
    afterAll(() => t.close());

    test("send_email answers 503 mail_unavailable and makes nothing; without it the link is returned", async () => {
      const tok = (await userToken(t.app, a.userId)).secret;
      const r = await t.request("POST", "/v1/invitations", {
        key: tok,
        body: { email: "p@example.com", role: "viewer", send_email: true },
      });
      expect([r.status, r.body.code]).toEqual([503, "mail_unavailable"]);
      expect(await t.app.db.selectFrom("invitations").selectAll().execute()).toEqual([]);
      const plain = await t.request("POST", "/v1/invitations", {
        key: tok,
        body: { email: "p@example.com", role: "viewer" },
      });
      expect(plain.status).toBe(201);
      expect(plain.body.emailed).toBe(false);
    });
  });
}
