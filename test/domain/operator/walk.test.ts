// The operator's whole walk over HTTP: create an org with its first owner's invitation (Idempotency-Key: once),
// the owner accepts, the operator invites another person, reads usage, suspends and deletes.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { createOperatorKey } from "../../../src/domain/identity/auth/operator.ts";
import { acceptInvitation } from "../../../src/domain/identity/invitations/accept.ts";
import { type TestApp, testApp } from "../../helpers/app.ts";
import { describeEachDialect } from "../../helpers/db.ts";
import { userToken } from "../../helpers/factories.ts";

describeEachDialect("operator walk", (dialect) => {
  let t: TestApp;
  let op: string;
  beforeAll(async () => {
    t = await testApp(dialect);
    op = (await createOperatorKey(t.app, "saas")).secret;
  });
  afterAll(() => t.close());

  const req = (method: string, path: string, body?: unknown, headers?: Record<string, string>) =>
    t.request(method, path, {
      key: op,
      ...(body === undefined ? {} : { body }),
      ...(headers ? { headers } : {}),
    });

  test("create, accept, invite, usage, suspend, delete", async () => {
    const body = {
      name: "Customer <b>One</b>",
      owner_email: "Founder@Example.com",
      external_ref: "acct_1",
      limits: { members: 3, brands: 2 },
    };
    const made = await req("POST", "/v1/operator/orgs", body, { "Idempotency-Key": "create-acct_1" });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({
      object: "org",
      name: "Customer <b>One</b>",
      external_ref: "acct_1",
      status: "active",
      limits: { brands: 2, channels: null, members: 3, posts_per_month: null },
      owner_invitation: { email: "founder@example.com", role: "owner", emailed: false },
    });
    expect(made.body.owner_invitation.url).toMatch(/^http:\/\/localhost:8080\/invite\/\w+$/);
    const again = await req("POST", "/v1/operator/orgs", body, { "Idempotency-Key": "create-acct_1" });
    expect([again.status, again.body.id, again.headers.get("idempotent-replayed")]).toEqual([
      201,
      made.body.id,
      "true",
    ]);
    const dup = await req("POST", "/v1/operator/orgs", { ...body, owner_email: "x@example.com" });
    expect([dup.status, dup.body.code]).toEqual([409, "external_ref_taken"]);
    expect((await req("GET", "/v1/operator/orgs")).body.data).toHaveLength(1);

    // Refusals create nothing.
    const bad = await req("POST", "/v1/operator/orgs", { name: "X", owner_email: "not-an-email" });
    expect([bad.status, bad.body.code]).toEqual([422, "email_invalid"]);
    const noMail = await req("POST", "/v1/operator/orgs", {
      name: "Y",
      owner_email: "y@example.com",
      send_email: true,
    });
    expect([noMail.status, noMail.body.code]).toEqual([503, "mail_unavailable"]);
    expect((await req("GET", "/v1/operator/orgs")).body.data).toHaveLength(1);

    const token = made.body.owner_invitation.url.split("/").pop();
    // The operator vouches for the first owner's address: its link makes the account without a mailed proof.
    const accepted = await acceptInvitation(t.app, { token, password: "a long enough password" });
    expect(accepted).toBeTruthy();
    const owner = await t.app.db
      .selectFrom("users")
      .select("id")
      .where("email", "=", "founder@example.com")
      .executeTakeFirstOrThrow();
    const tok = (await userToken(t.app, owner.id)).secret;
    const org = await t.request("GET", "/v1/org", { key: tok });
    expect([org.body.id, org.body.name]).toEqual([made.body.id, "Customer <b>One</b>"]);
    // Owners (and admins) see this month's usage beside the limits.
    expect([org.body.limits.members, org.body.usage.members, org.body.usage.brands]).toEqual([3, 1, 0]);
    const members = await t.request("GET", "/v1/members", { key: tok });
    expect(members.body.data.map((m: { email: string; role: string }) => [m.email, m.role])).toEqual([
      ["founder@example.com", "owner"],
    ]);

    const inv = await req("POST", `/v1/operator/orgs/${made.body.id}/invitations`, {
      email: "editor@example.com",
      role: "editor",
    });
    expect([inv.status, inv.body.role]).toEqual([201, "editor"]);
    const usage = await req("GET", `/v1/operator/orgs/${made.body.id}/usage`);
    expect(usage.body).toMatchObject({ brands: 0, members: 2, live_posts_created: 0, media_bytes: 0 });
    // The members limit counts the open invitation: one place left of three.
    expect(
      (
        await req("POST", `/v1/operator/orgs/${made.body.id}/invitations`, {
          email: "c@example.com",
          role: "viewer",
        })
      ).status,
    ).toBe(201);
    const full = await req("POST", `/v1/operator/orgs/${made.body.id}/invitations`, {
      email: "d@example.com",
      role: "viewer",
    });
    expect([full.status, full.body.code, full.body.param]).toEqual([403, "limit_reached", "members"]);

    expect(
      (
        await req("POST", `/v1/operator/orgs/${made.body.id}`, {
          status: "suspended",
          status_note: "Unpaid",
        })
      ).status,
    ).toBe(200);
    expect((await t.request("GET", "/v1/org", { key: tok })).body.code).toBe("org_suspended");
    const del = await req(
      "DELETE",
      `/v1/operator/orgs/${made.body.id}?confirm=${encodeURIComponent("Customer <b>One</b>")}`,
    );
    expect(del.body).toEqual({ id: made.body.id, object: "org", deleted: true });
    expect((await req("GET", "/v1/operator/orgs")).body.data).toEqual([]);
    // The person keeps the account; their token now finds no org.
    expect((await t.request("GET", "/v1/me", { key: tok })).body.code).toBe("org_unknown");
  });
});
