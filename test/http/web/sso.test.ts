// Single sign-on through the dashboard, against a real OpenID provider (oidc-provider on 127.0.0.1) and a real DNS
// server answering the TXT records (dns2 on 127.0.0.1): connecting the provider (issuer discovered and checked),
// verifying domains, signing in by email domain (code + PKCE + state + nonce, the ID token checked), the first
// sign-in making the member, every refusal code, requiring it (password sign-in, reset links and CLI approvals
// refused; the provider and last domain stay), the owners' audited break-glass, and org isolation.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { TestApp } from "../../helpers/app.ts";
import { TestBrowser, webApp } from "../../helpers/browser.ts";
import { describeEachDialect } from "../../helpers/db.ts";
import { type DnsServer, dnsServer } from "../../helpers/dns-server.ts";
import { type Tenant, tenant } from "../../helpers/factories.ts";
import { type Idp, oidcIdp } from "../../helpers/oidc-idp.ts";

const CALLBACK = "http://localhost:8080/signin/sso/callback";
const PASSWORD = "correct horse battery staple";

/** The error code a dashboard page shows: the ServiceError's message beside a field, or the error page. */
const shows = (html: string, text: string) => expect(html).toContain(text);

describeEachDialect("single sign-on (dashboard)", (dialect) => {
  let t: TestApp;
  let idp: Idp;
  let dns: DnsServer;
  let a: Tenant;
  let b: Tenant;
  let owner: TestBrowser;
  const domainOf = (email: string) => email.split("@")[1]!;

  beforeAll(async () => {
    t = await webApp(dialect, { env: { SVC_ALLOW_PRIVATE_NETWORKS: "127.0.0.0/8" } });
    idp = await oidcIdp(CALLBACK);
    dns = await dnsServer();
    t.app.dnsServers = [dns.address];
    a = await tenant(t.app, "Acme");
    b = await tenant(t.app, "Other");
    owner = new TestBrowser(t);
    await owner.signIn(a.email, PASSWORD);
  });
  afterAll(async () => {
    await idp.close();
    await dns.close();
    await t.close();
  });

  const connect = (br: TestBrowser, fields: Partial<Record<string, string>>) =>
    br.post("/org/sso/provider", {
      issuer: idp.url,
      client_id: idp.client.clientId,
      client_secret: idp.client.clientSecret,
      default_role: "editor",
      ...fields,
    } as Record<string, string>);

  async function domainId(orgId: string, domain: string) {
    const r = await t.app.db
      .selectFrom("sso_domains")
      .select("id")
      .where("org_id", "=", orgId)
      .where("domain", "=", domain)
      .executeTakeFirstOrThrow();
    return r.id;
  }

  /** Starts a sign-in by email and follows the provider as `login`; returns the callback page. */
  async function ssoSignIn(br: TestBrowser, email: string, login: string) {
    await br.get("/signin/sso");
    const leaving = await br.post("/signin/sso", { email });
    expect(leaving.status).toBe(200);
    const url = /id="continue" href="([^"]+)"|href="([^"]+)" id="continue"/.exec(leaving.html);
    const to = (url?.[1] ?? url?.[2] ?? "").replace(/&amp;/g, "&");
    expect(to.startsWith(`${idp.url}/auth?`)).toBe(true);
    const back = await idp.signIn(to, login);
    return br.get(`${back.pathname}${back.search}`);
  }

  test("connecting the provider: the issuer is discovered and checked; the secret is sealed", async () => {
    await owner.get("/org/sso");
    let r = await connect(owner, { issuer: "ftp://login.example.com" });
    expect(r.status).toBe(422);
    shows(r.html, "The issuer must be an https URL");
    r = await connect(owner, { issuer: "http://127.0.0.1:9/" });
    expect(r.status).toBe(422);
    shows(r.html, "discovery document could not be read");
    // A document that names another issuer.
    const liar = createServer((_req, res) => {
      res.setHeader("content-type", "application/json");
      res.end(
        JSON.stringify({
          issuer: "https://someone-else.example",
          authorization_endpoint: "x",
          token_endpoint: "y",
          jwks_uri: "z",
        }),
      );
    });
    await new Promise<void>((ok) => liar.listen(0, "127.0.0.1", ok));
    r = await connect(owner, { issuer: `http://127.0.0.1:${(liar.address() as AddressInfo).port}` });
    liar.close();
    expect(r.status).toBe(422);
    shows(r.html, "names another issuer");
    r = await connect(owner, { client_secret: "" });
    expect(r.status).toBe(422);
    shows(r.html, "The client secret is needed.");
    r = await connect(owner, { default_role: "owner" });
    expect(r.status).toBe(422);
    shows(r.html, "never owner");
    r = await connect(owner, { client_id: "" });
    expect(r.status).toBe(422);
    expect(await t.app.db.selectFrom("sso_providers").selectAll().execute()).toEqual([]);

    r = await owner.follow(await connect(owner, {}));
    expect(r.status).toBe(200);
    shows(r.html, `Connected to <strong>${idp.url}</strong>`);
    const row = await t.app.db.selectFrom("sso_providers").selectAll().executeTakeFirstOrThrow();
    expect(row.client_secret).toMatch(/^v1:/);
    expect(row.client_secret).not.toContain(idp.client.clientSecret);
    // Saving again without a secret keeps it.
    expect((await connect(owner, { client_secret: "", default_role: "viewer" })).status).toBe(303);
    const again = await t.app.db.selectFrom("sso_providers").selectAll().executeTakeFirstOrThrow();
    expect([again.client_secret, again.default_role]).toEqual([row.client_secret, "viewer"]);
    expect((await connect(owner, { default_role: "editor" })).status).toBe(303);
    // The page never shows the secret back; what people typed is escaped.
    const page = await owner.get("/org/sso");
    expect(page.html).not.toContain(idp.client.clientSecret);
    const audit = await t.app.db
      .selectFrom("audit_events")
      .select("action")
      .where("org_id", "=", a.orgId)
      .execute();
    expect(audit.map((x) => x.action)).toContain("sso.provider_connected");
  });

  test("domains: checked, at most 20, verified by the TXT record, one org per domain", async () => {
    await owner.get("/org/sso");
    let r = await owner.post("/org/sso/domains", { domain: "not a domain" });
    expect(r.status).toBe(422);
    shows(r.html, "Enter a domain name");
    r = await owner.post("/org/sso/domains", { domain: domainOf(a.email) });
    expect(r.status).toBe(303);
    r = await owner.post("/org/sso/domains", { domain: domainOf(a.email).toUpperCase() });
    expect(r.status).toBe(409);
    shows(r.html, "already in the list");
    const id = await domainId(a.orgId, domainOf(a.email));
    const page = await owner.get("/org/sso");
    const token = (
      await t.app.db.selectFrom("sso_domains").select("token").where("id", "=", id).executeTakeFirstOrThrow()
    ).token;
    shows(page.html, `_svc-verify.${domainOf(a.email)}`);
    shows(page.html, `svc-verify=${token}`);
    // No record yet, then a wrong one: domain_unverified; the right one verifies it.
    r = await owner.post(`/org/sso/domains/${id}/verify`, {});
    expect(r.status).toBe(422);
    shows(r.html, "has no TXT record");
    dns.setTxt(`_svc-verify.${domainOf(a.email)}`, ["svc-verify=wrong", "v=spf1 -all"]);
    expect((await owner.post(`/org/sso/domains/${id}/verify`, {})).status).toBe(422);
    dns.setTxt(`_svc-verify.${domainOf(a.email)}`, ["v=spf1 -all", `svc-verify=${token}`]);
    expect((await owner.post(`/org/sso/domains/${id}/verify`, {})).status).toBe(303);
    expect(dns.queries).toContain(`_svc-verify.${domainOf(a.email)}`);

    // Another org: the verified domain is taken; its own pages cannot touch this org's domain.
    const other = new TestBrowser(t);
    await other.signIn(b.email, PASSWORD);
    await other.get("/org/sso");
    r = await other.post("/org/sso/domains", { domain: domainOf(a.email) });
    expect(r.status).toBe(409);
    shows(r.html, "Another org has verified");
    expect((await other.post(`/org/sso/domains/${id}/remove`, {})).status).toBe(404);
    expect((await other.post(`/org/sso/domains/${id}/verify`, {})).status).toBe(404);
    // Both add acme.test; the first to verify keeps it.
    expect((await other.post("/org/sso/domains", { domain: "acme.test" })).status).toBe(303);
    expect((await owner.post("/org/sso/domains", { domain: "acme.test" })).status).toBe(303);
    const bId = await domainId(b.orgId, "acme.test");
    const aId = await domainId(a.orgId, "acme.test");
    const tokenOf = async (x: string) =>
      (await t.app.db.selectFrom("sso_domains").select("token").where("id", "=", x).executeTakeFirstOrThrow())
        .token;
    dns.setTxt("_svc-verify.acme.test", [
      `svc-verify=${await tokenOf(bId)}`,
      `svc-verify=${await tokenOf(aId)}`,
    ]);
    expect((await other.post(`/org/sso/domains/${bId}/verify`, {})).status).toBe(303);
    r = await owner.post(`/org/sso/domains/${aId}/verify`, {});
    expect(r.status).toBe(409);
    shows(r.html, "Another org has verified acme.test");
    expect((await owner.post(`/org/sso/domains/${aId}/remove`, {})).status).toBe(303);

    // At most 20 per org.
    for (let i = 1; i <= 19; i++)
      expect((await other.post("/org/sso/domains", { domain: `d${i}.other.test` })).status).toBe(303);
    r = await other.post("/org/sso/domains", { domain: "d20.other.test" });
    expect(r.status).toBe(422);
    shows(r.html, "at most 20 domains");

    // Members who are not owners cannot see or change it.
    expect(
      (await t.app.db.selectFrom("sso_domains").select("id").where("org_id", "=", b.orgId).execute()).length,
    ).toBe(20);
  });

  test("Continue with single sign-on: the first sign-in makes the member with the default role", async () => {
    const visitor = new TestBrowser(t);
    await visitor.get("/signin/sso");
    let r = await visitor.post("/signin/sso", { email: "someone@nowhere.test" });
    expect(r.status).toBe(422);
    shows(r.html, "not set up for that email");

    const email = `ana@${domainOf(a.email)}`;
    idp.accounts.set("ana", { email, email_verified: true, name: "Ana" });
    r = await ssoSignIn(visitor, email, "ana");
    expect([r.status, r.location]).toEqual([303, "/home"]);
    const user = await t.app.db
      .selectFrom("users")
      .selectAll()
      .where("email", "=", email)
      .executeTakeFirstOrThrow();
    expect(user.password_hash).toBeNull();
    const member = await t.app.db
      .selectFrom("members")
      .select("role")
      .where("org_id", "=", a.orgId)
      .where("user_id", "=", user.id)
      .executeTakeFirstOrThrow();
    expect(member.role).toBe("editor");
    const home = await visitor.follow(r);
    expect(home.status).toBe(200);
    const session = await t.app.db
      .selectFrom("web_sessions")
      .select(["sso_org_id"])
      .where("user_id", "=", user.id)
      .where("revoked_at", "is", null)
      .executeTakeFirstOrThrow();
    expect(session.sso_org_id).toBe(a.orgId);
    const audit = await t.app.db
      .selectFrom("audit_events")
      .select(["action", "detail"])
      .where("org_id", "=", a.orgId)
      .where("action", "=", "sso.sign_in")
      .executeTakeFirstOrThrow();
    expect(JSON.parse(audit.detail!)).toMatchObject({ subject: "ana", joined: true, account_created: true });
    // Not an owner: the settings page refuses.
    expect((await visitor.get("/org/sso")).status).toBe(403);
  });

  test("every refusal: used or unknown state, unverified or missing email, another domain, wrong nonce, audience or lifetime, provider down", async () => {
    const email = `bo@${domainOf(a.email)}`;
    const br = new TestBrowser(t);
    // The callback answered twice: the state is spent.
    idp.accounts.set("bo", { email, email_verified: true });
    await br.get("/signin/sso");
    const leaving = await br.post("/signin/sso", { email });
    const to = /href="([^"]+)" id="continue"|id="continue" href="([^"]+)"/.exec(leaving.html)!;
    const back = await idp.signIn((to[1] ?? to[2])!.replace(/&amp;/g, "&"), "bo");
    expect((await br.get(`${back.pathname}${back.search}`)).status).toBe(303);
    let r = await br.get(`${back.pathname}${back.search}`);
    expect(r.status).toBe(400);
    shows(r.html, "took too long or was already used");
    r = await br.get("/signin/sso/callback?code=x&state=forged");
    expect(r.status).toBe(400);

    const refused = async (account: string, setup: () => void, status: number, text: string) => {
      setup();
      const x = new TestBrowser(t);
      const page = await ssoSignIn(x, email, account);
      expect(page.status).toBe(status);
      shows(page.html, text);
    };
    await refused(
      "unverified",
      () => idp.accounts.set("unverified", { email, email_verified: false }),
      403,
      "does not say your email address is verified",
    );
    await refused("nomail", () => idp.accounts.set("nomail", {}), 403, "gave no email address");
    await refused(
      "elsewhere",
      () => idp.accounts.set("elsewhere", { email: "bo@elsewhere.test", email_verified: true }),
      403,
      "not in a domain your org verified",
    );
    await refused(
      "bo",
      () =>
        idp.tamper((c) => {
          c.nonce = "not-the-nonce";
        }),
      400,
      "answer was not accepted",
    );
    await refused(
      "bo",
      () =>
        idp.tamper((c) => {
          c.aud = "another-client";
        }),
      400,
      "answer was not accepted",
    );
    await refused(
      "bo",
      () =>
        idp.tamper((c) => {
          c.exp = Math.floor(Date.now() / 1000) - 3600;
          c.iat = (c.exp as number) - 60;
        }),
      400,
      "answer was not accepted",
    );
    // A signature by another key.
    await refused(
      "bo",
      () =>
        idp.tamper((c) => {
          c.iss = "http://127.0.0.1:1";
        }),
      400,
      "answer was not accepted",
    );
    // Nobody was made a member by a refused sign-in.
    const made = await t.app.db
      .selectFrom("users")
      .select("email")
      .where("email", "=", "bo@elsewhere.test")
      .execute();
    expect(made).toEqual([]);

    idp.setDown(true);
    try {
      const x = new TestBrowser(t);
      await x.get("/signin/sso");
      r = await x.post("/signin/sso", { email });
      expect(r.status).toBe(503);
      shows(r.html, "could not be reached");
    } finally {
      idp.setDown(false);
    }
  });

  test("requiring it: needs a provider, a domain and an SSO session; then passwords, reset links and CLI approvals are refused", async () => {
    // The other org has domains but no provider.
    const other = new TestBrowser(t);
    await other.signIn(b.email, PASSWORD);
    await other.get("/org/sso");
    let r = await other.post("/org/sso/require", { require: "on" });
    expect(r.status).toBe(409);
    shows(r.html, "Connect the org");
    // A third org connects the provider but verifies no domain.
    const c = await tenant(t.app, "Third");
    const third = new TestBrowser(t);
    await third.signIn(c.email, PASSWORD);
    await third.get("/org/sso");
    expect((await connect(third, {})).status).toBe(303);
    r = await third.post("/org/sso/require", { require: "on" });
    expect(r.status).toBe(409);
    shows(r.html, "Verify at least one domain first.");
    // The owner is in a password session.
    await owner.get("/org/sso");
    r = await owner.post("/org/sso/require", { require: "on" });
    expect(r.status).toBe(403);
    shows(r.html, "Sign in with single sign-on once before requiring it");
    // Through single sign-on, as the owner's own account (their email is in the verified domain).
    idp.accounts.set("owner", { email: a.email, email_verified: true });
    const sso = new TestBrowser(t);
    expect((await ssoSignIn(sso, a.email, "owner")).location).toBe("/home");
    await sso.get("/org/sso");
    expect((await sso.post("/org/sso/require", { require: "on" })).status).toBe(303);
    const org = await t.app.db
      .selectFrom("orgs")
      .select("require_sso")
      .where("id", "=", a.orgId)
      .executeTakeFirstOrThrow();
    expect(org.require_sso).toBe(1);

    // The provider and the last verified domain stay.
    await sso.get("/org/sso");
    r = await sso.post("/org/sso/provider/remove", {});
    expect(r.status).toBe(409);
    shows(r.html, "stop requiring it before removing the provider");
    r = await sso.post(`/org/sso/domains/${await domainId(a.orgId, domainOf(a.email))}/remove`, {});
    expect(r.status).toBe(409);
    shows(r.html, "its last verified domain stays");

    // Password sign-in is refused for a person whose only org requires it.
    const pw = new TestBrowser(t);
    r = await pw.signIn(a.email, PASSWORD);
    expect(r.status).toBe(403);
    shows(r.html, "Your org requires single sign-on");
    // A reset link is refused too (one made before the org required single sign-on).
    const { sha256hex } = await import("../../../src/crypto/hash.ts");
    const { resetPasswordWithLink } = await import("../../../src/domain/identity/passwords/service.ts");
    await t.app.db
      .insertInto("password_resets")
      .values({
        id: "pwreset_01m8c00000000000000000000a",
        user_id: a.userId,
        token_hash: sha256hex("password_reset:tok-1"),
        expires_at: Date.now() + 600_000,
        used_at: null,
        created_at: Date.now(),
      })
      .execute();
    const reset = await resetPasswordWithLink(t.app, {
      token: "tok-1",
      password: "another long password",
    }).catch((e) => e);
    expect([reset.status, reset.code]).toEqual([403, "sso_required"]);
    // The old password session no longer opens the org.
    r = await owner.get("/org");
    expect(r.status).toBe(403);
    shows(r.html, "sign in through it to open the org");

    // A CLI approval from a session that did not come through it is refused; from the SSO session it works.
    const started = await t.request("POST", "/v1/auth/device", { body: { device_name: "laptop" } });
    const userCode = started.body.user_code as string;
    const glass = new TestBrowser(t);
    await glass.get("/signin/break-glass");
    r = await glass.follow(await glass.post("/signin/break-glass", { email: a.email, password: PASSWORD }));
    expect(r.status).toBe(200);
    await glass.get("/device");
    r = await glass.post("/device/approve", { user_code: userCode });
    expect(r.status).toBe(403);
    shows(r.html, "Your org requires single sign-on: sign in through it");
    await sso.get("/device");
    r = await sso.post("/device/approve", { user_code: userCode });
    expect(r.status).toBe(200);
    const token = await t.request("POST", "/v1/auth/device/token", {
      body: { device_code: started.body.device_code },
    });
    expect(token.status).toBe(200);
    expect((await t.request("GET", "/v1/me", { key: token.body.access_token })).status).toBe(200);

    // The break-glass sign-in opened the org and is in its audit log.
    expect((await glass.get("/org")).status).toBe(200);
    const audit = await t.app.db
      .selectFrom("audit_events")
      .select(["action", "user_id"])
      .where("org_id", "=", a.orgId)
      .where("action", "=", "sso.break_glass")
      .execute();
    expect(audit).toEqual([{ action: "sso.break_glass", user_id: a.userId }]);
    // Break-glass is for owners: the other org's owner (whose org does not require it) is refused.
    const notOwner = new TestBrowser(t);
    await notOwner.get("/signin/break-glass");
    r = await notOwner.post("/signin/break-glass", { email: b.email, password: PASSWORD });
    expect(r.status).toBe(403);
    shows(r.html, "Break-glass sign-in is for owners");

    // Stopping the requirement lets the provider go again.
    expect((await sso.post("/org/sso/require", { require: "off" })).status).toBe(303);
    expect((await pw.signIn(a.email, PASSWORD)).status).toBe(200);
  });
});

describe("single sign-on domains, parsed", () => {
  test("a domain is lowercased, its trailing dot dropped; other shapes are domain_invalid", async () => {
    const { parseDomain } = await import("../../../src/domain/identity/sso/domains.ts");
    expect(parseDomain(" Example.COM. ")).toBe("example.com");
    for (const bad of ["example", "-a.com", "a..com", "exa mple.com", "1.2.3.4", "", "a_b.com"])
      expect(() => parseDomain(bad)).toThrow();
  });
});
