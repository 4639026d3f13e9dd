// The requester does not review their own post (interface.md: approval is for "admins and owners, not the
// requester"; reference §6: a key cannot review a post it created): an owner or admin who wrote a post that waits
// is refused (403 forbidden) on every surface (the API with their CLI token, the dashboard), another admin
// approves it, and a post one of the org's keys made is reviewed by any person who may approve.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { TestBrowser } from "../../helpers/browser.ts";
import { describeEachDialect } from "../../helpers/db.ts";
import { userToken } from "../../helpers/factories.ts";
import { personToken } from "../../http/api/v1/template-helpers.ts";
import { mustPost, setBrand, type World, world } from "./helpers.ts";

describeEachDialect("the requester does not review", (dialect) => {
  let w: World;
  let owner: { id: string; secret: string };
  let admin: string;
  beforeAll(async () => {
    w = await world(dialect);
    owner = await userToken(w.t.app, w.a.userId);
    admin = await personToken(w.t.app, w.a.orgId, "admin");
    await setBrand(w.t, w.a.testKey, w.a.brandId, {
      timezone: "UTC",
      slots: [{ weekday: "wednesday", time: "12:00" }],
      approval_policy: "required_for_all",
    });
  });
  afterAll(() => w.t.close());

  const review = (id: string, credential: string, verb = "approve") =>
    w.t.request("POST", `/v1/posts/${id}/${verb}`, { key: credential, body: {} });

  test("an owner's own post: refused to them by API and dashboard, approved by another admin", async () => {
    const mine = await mustPost(w.t, owner.secret, {
      brand: w.a.brandId,
      content: { body: "Mine to write, not to approve." },
      publish_at: "next_slot",
    });
    expect(mine.status).toBe("pending_approval");
    for (const verb of ["approve", "reject"]) {
      const r = await review(mine.id, owner.secret, verb);
      expect([r.status, r.body.code]).toEqual([403, "forbidden"]);
    }

    const b = new TestBrowser(w.t);
    await b.signIn(w.a.email, "correct horse battery staple");
    const page = await b.get("/approvals");
    expect(page.html).toContain(`id="approval-${mine.id}-mine"`);
    expect(page.html).not.toContain(`action="/approvals/${mine.id}/approve"`);
    // The form sent anyway (a page kept open from before) is refused the same way, with nothing changed.
    const forced = await b.post(`/approvals/${mine.id}/approve`, {});
    expect(forced.status).toBe(403);
    expect(forced.html).toContain("another admin or owner reviews it");
    expect((await w.t.request("GET", `/v1/posts/${mine.id}`, { key: w.a.testKey })).body.status).toBe(
      "pending_approval",
    );

    const ok = await review(mine.id, admin);
    expect(ok.status).toBe(200);
    expect(ok.body.status).toBe("scheduled");
  });

  test("a post a key made is reviewed by the person who owns the org", async () => {
    const byKey = await mustPost(w.t, w.a.testKey, {
      brand: w.a.brandId,
      content: { body: "From the shop's key." },
      publish_at: "next_slot",
    });
    expect(byKey.status).toBe("pending_approval");
    const b = new TestBrowser(w.t);
    await b.signIn(w.a.email, "correct horse battery staple");
    const page = await b.get("/approvals");
    expect(page.html).toContain(`action="/approvals/${byKey.id}/approve"`);
    const r = await review(byKey.id, owner.secret);
    expect(r.status).toBe(200);
  });
});
