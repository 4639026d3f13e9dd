// The billing hand-off token, checked by a verifier written here from the specification's text alone (not svc's
// code): "v1." + payload + "." + signature, both base64url without padding; payload JSON with org, external_ref,
// user, email, role, iat, exp; HMAC-SHA256 over "v1." + payload keyed with SVC_BILLING_LINK_KEY; valid five
// minutes; compared in constant time; each token accepted once.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { createHmac, timingSafeEqual } from "node:crypto";
import { adminActor } from "../../../src/domain/actor.ts";
import { billingLink } from "../../../src/domain/billing/handoff.ts";
import { scopesOfRole } from "../../../src/domain/scopes.ts";
import { FakeClock } from "../../../src/lib/clock.ts";
import { type TestApp, testApp } from "../../helpers/app.ts";
import { describeEachDialect } from "../../helpers/db.ts";
import { type Tenant, tenant } from "../../helpers/factories.ts";

const KEY = "k".repeat(16) + "billing-hand-off-key-0123456789";

/** A billing system's receiver, from the specification. */
function receiver(key: string, now: () => number) {
  const seen = new Set<string>();
  return (token: string): { ok: true; payload: Record<string, unknown> } | { ok: false; why: string } => {
    const parts = token.split(".");
    if (parts.length !== 3 || parts[0] !== "v1") return { ok: false, why: "format" };
    const [, payload, signature] = parts as [string, string, string];
    if (/[=+/]/.test(payload + signature)) return { ok: false, why: "format" };
    const want = createHmac("sha256", key).update(`v1.${payload}`).digest();
    const got = Buffer.from(signature, "base64url");
    if (got.length !== want.length || !timingSafeEqual(got, want)) return { ok: false, why: "signature" };
    const p = JSON.parse(Buffer.from(payload, "base64url").toString("utf8"));
    if (typeof p.exp !== "number" || p.exp <= now() / 1000) return { ok: false, why: "expired" };
    if (seen.has(token)) return { ok: false, why: "replayed" };
    seen.add(token);
    return { ok: true, payload: p };
  };
}

describeEachDialect("billing hand-off", (dialect) => {
  const clock = new FakeClock();
  let t: TestApp;
  let a: Tenant;
  beforeAll(async () => {
    t = await testApp(dialect, {
      clock,
      env: { SVC_BILLING_URL: "https://billing.example.com/svc?from=app", SVC_BILLING_LINK_KEY: KEY },
    });
    a = await tenant(t.app, "Paying");
    await t.app.db.updateTable("orgs").set({ external_ref: "cus_42" }).where("id", "=", a.orgId).execute();
  });
  afterAll(() => t.close());

  const owner = () => ({
    ...adminActor(a.orgId, "test", scopesOfRole("owner")),
    userId: a.userId,
    kind: "user" as const,
  });

  test("an owner's link carries a token the billing system accepts once, within five minutes", async () => {
    const link = new URL(await billingLink(t.app, owner()));
    expect(link.origin + link.pathname).toBe("https://billing.example.com/svc");
    expect(link.searchParams.get("from")).toBe("app");
    const token = link.searchParams.get("token")!;
    const accept = receiver(KEY, () => clock.now());
    const r = accept(token);
    expect(r.ok).toBe(true);
    const p = (r as { payload: Record<string, unknown> }).payload;
    expect(Object.keys(p).sort()).toEqual(["email", "exp", "external_ref", "iat", "org", "role", "user"]);
    expect(p).toMatchObject({
      org: a.orgId,
      external_ref: "cus_42",
      user: a.userId,
      email: a.email,
      role: "owner",
    });
    expect((p.exp as number) - (p.iat as number)).toBe(300);
    expect(accept(token)).toEqual({ ok: false, why: "replayed" });
  });

  test("a tampered, expired or wrongly keyed token is rejected", async () => {
    const token = new URL(await billingLink(t.app, owner())).searchParams.get("token")!;
    const [v, payload, sig] = token.split(".") as [string, string, string];
    const p = JSON.parse(Buffer.from(payload, "base64url").toString());
    const forged = `${v}.${Buffer.from(JSON.stringify({ ...p, role: "owner", org: "org_other" })).toString("base64url")}.${sig}`;
    expect(receiver(KEY, () => clock.now())(forged)).toEqual({ ok: false, why: "signature" });
    expect(receiver("another-key-of-at-least-32-characters!!", () => clock.now())(token)).toEqual({
      ok: false,
      why: "signature",
    });
    clock.advance(301_000);
    expect(receiver(KEY, () => clock.now())(token)).toEqual({ ok: false, why: "expired" });
  });

  test("only owners get a link", async () => {
    const admin = { ...owner(), role: "admin" as const };
    await expect(billingLink(t.app, admin)).rejects.toMatchObject({ code: "forbidden" });
  });
});
