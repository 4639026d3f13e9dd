// Client review links: created by a credential that may approve, the URL shown once and only the token's hash
// stored; listed, got and withdrawn in the caller's org and mode only. The signed-out page (no session, no
// cookie) shows the brand's pending posts per network, escaped, noindex; approving and rejecting through it is
// the link's decision (post review, audit row and event name the link, no member), with the page's form token and
// from this site only. Unknown, tampered, withdrawn and expired links get one answer; a suspended org's links
// open nothing, a read-only org's decide nothing; a link never reviews what its creator wrote, and dies with its
// creator's right to approve.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { sha256hex } from "../../../../src/crypto/hash.ts";
import { formToken } from "../../../../src/domain/review-links/token.ts";
import type { TestApp } from "../../../helpers/app.ts";
import { TestBrowser, webApp } from "../../../helpers/browser.ts";
import { describeEachDialect } from "../../../helpers/db.ts";
import { key, member, type Tenant, tenant, userToken } from "../../../helpers/factories.ts";
import { schemaErrors } from "../../../helpers/schema.ts";

const MARK = (what: string) => `<img src=x onerror=alert('${what}')><b>${what}</b>`;

describeEachDialect("client review links", (dialect) => {
  let t: TestApp;
  let a: Tenant;
  let shop: string;
  let channel: string;
  beforeAll(async () => {
    t = await webApp(dialect);
    a = await tenant(t.app);
    // Posts come from an integration key, so they wait under required_for_editors_and_keys.
    shop = await key(t.app, a.orgId, { name: "shop" });
    expect(
      (
        await t.request("POST", `/v1/brands/${a.brandId}`, {
          key: a.testKey,
          body: { approval_policy: "required_for_editors_and_keys" },
        })
      ).status,
    ).toBe(200);
    const c = await t.request("POST", "/v1/channels", {
      key: a.testKey,
      body: {
        brand: a.brandId,
        provider: "sandbox",
        emulates: "mastodon",
        fields: { display_name: "Review Mastodon", handle: "@rev@mastodon.social" },
      },
    });
    expect(c.status).toBe(201);
    channel = c.body.id;
  });
  afterAll(() => t.close());

  const pending = async (body: string, k = shop) => {
    const r = await t.request("POST", "/v1/posts", {
      key: k,
      body: { brand: a.brandId, channels: [channel], content: { body }, publish_at: "next_slot" },
    });
    expect(r.status).toBe(201);
    expect(r.body.status).toBe("pending_approval");
    return r.body.id as string;
  };
  const makeLink = async (k = a.testKey, body: Record<string, unknown> = {}) => {
    const r = await t.request("POST", "/v1/review_links", {
      key: k,
      body: { brand: a.brandId, name: "Acme marketing", ...body },
    });
    expect(r.status).toBe(201);
    return r.body as { id: string; url: string };
  };
  const tokenOf = (url: string) => new URL(url).pathname.split("/").pop()!;
  const pathOf = (url: string) => new URL(url).pathname;
  /** A signed-out visitor: no session cookie, no account. */
  const visitor = () => new TestBrowser(t);
  const formOf = (html: string) => /name="_form" value="([^"]+)"/.exec(html)?.[1] ?? "";
  const postStatus = async (id: string) =>
    (await t.request("GET", `/v1/posts/${id}`, { key: a.testKey })).body;

  test("create shows the URL once; only the token's hash is stored; get and list never show it; audited", async () => {
    const r = await t.request("POST", "/v1/review_links", {
      key: a.testKey,
      body: { brand: a.brandSlug, name: "Acme marketing" },
    });
    expect(r.status).toBe(201);
    expect(schemaErrors("ReviewLink", r.body)).toBeNull();
    expect(r.body.id).toMatch(/^rvl_[0-9a-z]{26}$/);
    expect(r.body.url).toMatch(/^http:\/\/localhost:8080\/review\/svc_review_[0-9A-Za-z]{32}$/);
    expect(r.body).toMatchObject({
      object: "review_link",
      brand: a.brandId,
      name: "Acme marketing",
      livemode: false,
      status: "active",
      withdrawn_at: null,
      last_used_at: null,
      created_by: null,
    });
    expect(r.body.created_by_key).toMatch(/^key_/);
    // 30 days unless told otherwise.
    expect(Date.parse(r.body.expires_at) - Date.parse(r.body.created_at)).toBe(30 * 86400_000);
    const token = tokenOf(r.body.url);
    const row = await t.app.db
      .selectFrom("review_links")
      .selectAll()
      .where("id", "=", r.body.id)
      .executeTakeFirstOrThrow();
    expect(row.token_hash).toBe(sha256hex(token));
    expect(JSON.stringify(row)).not.toContain(token);

    const one = await t.request("GET", `/v1/review_links/${r.body.id}`, { key: a.testKey });
    expect(one.status).toBe(200);
    expect(schemaErrors("ReviewLink", one.body)).toBeNull();
    expect(one.body.url).toBeUndefined();
    const list = await t.request("GET", `/v1/review_links?brand=${a.brandId}`, { key: a.testKey });
    expect(schemaErrors("ReviewLinkList", list.body)).toBeNull();
    expect(list.body.data.map((l: { id: string }) => l.id)).toContain(r.body.id);
    expect(JSON.stringify(list.body)).not.toContain(token);

    const audit = await t.request("GET", "/v1/audit_events?action=review_link.create", { key: a.testKey });
    const entry = audit.body.data.find((e: { target: string }) => e.target === r.body.id);
    expect(entry).toMatchObject({ action: "review_link.create", outcome: "success", review_link: null });
    expect(entry.api_key).toMatch(/^key_/);
  });

  test("refusals: expiry over 30 days or past, a missing name, a key without posts:approve", async () => {
    const late = new Date(Date.now() + 31 * 86400_000).toISOString();
    const r = await t.request("POST", "/v1/review_links", {
      key: a.testKey,
      body: { brand: a.brandId, name: "x", expires_at: late },
    });
    expect(r.status).toBe(422);
    expect(r.body.code).toBe("review_link_expiry_invalid");
    const past = await t.request("POST", "/v1/review_links", {
      key: a.testKey,
      body: { brand: a.brandId, name: "x", expires_at: "2020-01-01T00:00:00Z" },
    });
    expect(past.body.code).toBe("review_link_expiry_invalid");
    const noName = await t.request("POST", "/v1/review_links", {
      key: a.testKey,
      body: { brand: a.brandId },
    });
    expect(noName.status).toBe(400);
    expect(noName.body).toMatchObject({ code: "parameter_missing", param: "name" });
    const scoped = await t.request("POST", "/v1/review_links", {
      key: shop,
      body: { brand: a.brandId, name: "x" },
    });
    expect(scoped.status).toBe(403);
    expect(scoped.body.code).toBe("scope_missing");
    expect((await t.request("GET", "/v1/review_links", { key: shop })).body.code).toBe("scope_missing");
    const unknownBrand = await t.request("POST", "/v1/review_links", {
      key: a.testKey,
      body: { brand: "brand_00000000000000000000000000", name: "x" },
    });
    expect(unknownBrand.status).toBe(404);
  });

  test("org and mode isolation: another org's key and the live key see no such link", async () => {
    const link = await makeLink();
    const other = await tenant(t.app);
    for (const k of [other.testKey, a.liveKey]) {
      expect((await t.request("GET", `/v1/review_links/${link.id}`, { key: k })).status).toBe(404);
      expect((await t.request("POST", `/v1/review_links/${link.id}/withdraw`, { key: k })).status).toBe(404);
      const list = await t.request("GET", "/v1/review_links", { key: k });
      expect(list.body.data.map((l: { id: string }) => l.id)).not.toContain(link.id);
    }
    // Another org cannot make a link for this org's brand.
    const foreign = await t.request("POST", "/v1/review_links", {
      key: other.testKey,
      body: { brand: a.brandId, name: "x" },
    });
    expect(foreign.status).toBe(404);
    expect((await t.request("GET", `/v1/review_links/${link.id}`, { key: a.testKey })).body.status).toBe(
      "active",
    );
  });

  test("signed out: the page shows pending posts per network, escaped, noindex, no cookie", async () => {
    const id = await pending(MARK("client"));
    const link = await makeLink();
    const b = visitor();
    const page = await b.get(pathOf(link.url));
    expect(page.status).toBe(200);
    expect(page.headers.get("x-robots-tag")).toBe("noindex, nofollow");
    expect(page.headers.get("referrer-policy")).toBe("same-origin");
    expect(page.headers.get("cache-control")).toBe("no-store");
    expect(page.headers.getSetCookie()).toEqual([]);
    expect(page.html).toContain('<meta name="robots" content="noindex"/>');
    expect(page.html).toContain(`id="review-${id}"`);
    expect(page.html).toContain(`id="preview-${channel}"`);
    expect(page.html).toContain("Mastodon · sandbox");
    expect(page.html).not.toContain("<img src=x");
    expect(page.html).toContain("&lt;img src=x onerror=alert(&#39;client&#39;)&gt;");
    expect(page.html).toContain("Acme marketing");
  });

  test("approve and reject through the link are the link's, follow the brand's rules, and are audited", async () => {
    const first = await pending("Approve me");
    const second = await pending("Reject me");
    const link = await makeLink();
    const b = visitor();
    const page = await b.get(pathOf(link.url));
    const form = formOf(page.html);
    expect(form.length).toBeGreaterThan(20);

    const ok = await b.post(`${pathOf(link.url)}/posts/${first}/approve`, { _form: form });
    expect(ok.status).toBe(303);
    expect(ok.location).toBe(`${pathOf(link.url)}?approved=${first}`);
    expect((await b.follow(ok)).html).toContain("Approved. Thank you.");
    const approved = await postStatus(first);
    expect(approved.status).toBe("scheduled");
    // Approving took the brand's next free slot, as a member's approval does.
    expect(approved.publish_at).not.toBeNull();
    expect(approved.approval).toMatchObject({
      reviewed_by: null,
      reviewed_by_key: null,
      reviewed_by_link: link.id,
      note: null,
    });

    const no = await b.post(`${pathOf(link.url)}/posts/${second}/reject`, {
      _form: form,
      note: MARK("note"),
    });
    expect(no.status).toBe(303);
    const rejected = await postStatus(second);
    expect(rejected.status).toBe("rejected");
    expect(rejected.approval).toMatchObject({ reviewed_by_link: link.id, note: MARK("note") });
    expect(rejected.targets.every((x: { status: string }) => x.status === "canceled")).toBe(true);

    const audit = await t.request("GET", "/v1/audit_events?action=post.", { key: a.testKey });
    for (const [action, target] of [
      ["post.approve", first],
      ["post.reject", second],
    ] as const) {
      const e = audit.body.data.find(
        (x: { action: string; target: string }) => x.action === action && x.target === target,
      );
      expect(schemaErrors("AuditEvent", e)).toBeNull();
      expect(e).toMatchObject({
        review_link: link.id,
        user: null,
        api_key: null,
        user_token: null,
        operator: null,
      });
    }
    const events = await t.request("GET", "/v1/events", { key: a.testKey });
    const approvedEvent = events.body.data.find(
      (e: { type: string; data: { object: { id: string } } }) =>
        e.type === "post.approved" && e.data.object.id === first,
    );
    expect(approvedEvent.data.object.approval.reviewed_by_link).toBe(link.id);
    expect(
      events.body.data.some(
        (e: { type: string; data: { object: { id: string } } }) =>
          e.type === "post.rejected" && e.data.object.id === second,
      ),
    ).toBe(true);
    expect(
      (await t.request("GET", `/v1/review_links/${link.id}`, { key: a.testKey })).body.last_used_at,
    ).not.toBeNull();

    // Decided already: post_not_pending beside the post, nothing changed.
    const again = await b.post(`${pathOf(link.url)}/posts/${first}/reject`, { _form: form });
    expect(again.status).toBe(409);
    expect(again.html).toContain("post_not_pending");
    expect((await postStatus(first)).status).toBe("scheduled");
  });

  test("a form without the page's token, or from another site, changes nothing", async () => {
    const id = await pending("Guarded");
    const link = await makeLink();
    const b = visitor();
    const form = formOf((await b.get(pathOf(link.url))).html);
    const path = `${pathOf(link.url)}/posts/${id}/approve`;
    const missing = await b.post(path, {});
    expect(missing.status).toBe(403);
    expect(missing.html).toContain("out of date");
    // Another link's token does not do either.
    const otherLink = await makeLink();
    const otherForm = formOf((await b.get(pathOf(otherLink.url))).html);
    expect((await b.post(path, { _form: otherForm })).status).toBe(403);
    const cross = await b.post(path, { _form: form }, { site: "cross-site" });
    expect(cross.status).toBe(403);
    expect((await postStatus(id)).status).toBe("pending_approval");
  });

  test("unknown, tampered, withdrawn and expired links get one answer; withdraw is audited", async () => {
    const link = await makeLink();
    const token = tokenOf(link.url);
    const b = visitor();
    const last = token.at(-1) === "a" ? "b" : "a";
    const tampered = await b.get(`/review/${token.slice(0, -1)}${last}`);
    const unknown = await b.get("/review/svc_review_00000000000000000000000000000000");
    const junk = await b.get("/review/not-a-token");
    expect(tampered.status).toBe(404);
    const w = await t.request("POST", `/v1/review_links/${link.id}/withdraw`, { key: a.testKey });
    expect(w.status).toBe(200);
    expect(w.body).toMatchObject({ status: "withdrawn" });
    expect(w.body.withdrawn_at).not.toBeNull();
    // Twice is the same answer.
    expect(
      (await t.request("POST", `/v1/review_links/${link.id}/withdraw`, { key: a.testKey })).body.withdrawn_at,
    ).toBe(w.body.withdrawn_at);
    const withdrawn = await b.get(pathOf(link.url));

    const old = await makeLink();
    await t.app.db
      .updateTable("review_links")
      .set({ expires_at: Date.now() - 1000 })
      .where("id", "=", old.id)
      .execute();
    const expired = await b.get(pathOf(old.url));
    expect((await t.request("GET", `/v1/review_links/${old.id}`, { key: a.testKey })).body.status).toBe(
      "expired",
    );

    const text = (html: string) => /id="review-invalid"><p>([^<]*)</.exec(html)?.[1];
    for (const p of [tampered, unknown, junk, withdrawn, expired]) {
      expect(p.status).toBe(404);
      expect(text(p.html)).toBe(text(tampered.html));
      expect(p.html).not.toContain("Acme marketing");
    }
    const audit = await t.request("GET", "/v1/audit_events?action=review_link.withdraw", { key: a.testKey });
    expect(audit.body.data.filter((e: { target: string }) => e.target === link.id).length).toBe(1);
  });

  test("mode and brand isolation: a link sees and decides only its brand's posts in its own mode", async () => {
    const testPost = await pending("Test mode only");
    // A live link (a live key made it) shows nothing of test mode, and cannot decide a test post.
    const liveLink = await makeLink(a.liveKey);
    const lb = visitor();
    const livePage = await lb.get(pathOf(liveLink.url));
    expect(livePage.status).toBe(200);
    expect(livePage.html).not.toContain(testPost);
    expect(livePage.html).toContain('id="review-empty"');
    expect(livePage.html).not.toContain('id="review-test-mode"');
    const l = await lb.post(`${pathOf(liveLink.url)}/posts/${testPost}/approve`, {
      // The page has no form to take it from (nothing waits in live mode): the token it would carry.
      _form: await formToken(t.app, liveLink.id),
    });
    expect(l.status).toBe(404);
    expect((await postStatus(testPost)).status).toBe("pending_approval");
    const otherBrand = await t.request("POST", "/v1/brands", {
      key: a.testKey,
      body: { name: "Other brand" },
    });
    const link = await makeLink();
    const b = visitor();
    const page = await b.get(pathOf(link.url));
    const form = formOf(page.html);
    expect(page.html).toContain(testPost);
    expect(otherBrand.status).toBe(201);
    const oc = await t.request("POST", "/v1/channels", {
      key: a.testKey,
      body: { brand: otherBrand.body.id, provider: "sandbox", fields: { display_name: "Other" } },
    });
    await t.request("POST", `/v1/brands/${otherBrand.body.id}`, {
      key: a.testKey,
      body: { approval_policy: "required_for_all" },
    });
    const foreign = await t.request("POST", "/v1/posts", {
      key: shop,
      body: {
        brand: otherBrand.body.id,
        channels: [oc.body.id],
        content: { body: "Other brand" },
        publish_at: "next_slot",
      },
    });
    expect(foreign.body.status).toBe("pending_approval");
    expect(page.html).not.toContain(foreign.body.id);
    const r = await b.post(`${pathOf(link.url)}/posts/${foreign.body.id}/approve`, { _form: form });
    expect(r.status).toBe(404);
    expect((await postStatus(foreign.body.id)).status).toBe("pending_approval");
  });

  test("suspended org: nothing opens; read-only: the page shows, decisions are refused", async () => {
    const id = await pending("Status");
    const link = await makeLink();
    const b = visitor();
    const form = formOf((await b.get(pathOf(link.url))).html);
    await t.app.db.updateTable("orgs").set({ status: "read_only" }).where("id", "=", a.orgId).execute();
    try {
      const page = await b.get(pathOf(link.url));
      expect(page.status).toBe(200);
      expect(page.html).toContain('id="review-read-only"');
      const r = await b.post(`${pathOf(link.url)}/posts/${id}/approve`, { _form: form });
      expect(r.status).toBe(403);
      expect(r.html).toContain("read-only");
      await t.app.db
        .updateTable("orgs")
        .set({ status: "suspended", status_note: "Invoice 42 unpaid" })
        .where("id", "=", a.orgId)
        .execute();
      const s = await b.get(pathOf(link.url));
      expect(s.status).toBe(403);
      expect(s.html).toContain("suspended");
      // The operator's note is for the org's members, not its clients.
      expect(s.html).not.toContain("Invoice 42");
      expect(s.html).not.toContain(`review-${id}`);
      expect((await b.post(`${pathOf(link.url)}/posts/${id}/approve`, { _form: form })).status).toBe(403);
    } finally {
      await t.app.db
        .updateTable("orgs")
        .set({ status: "active", status_note: null })
        .where("id", "=", a.orgId)
        .execute();
    }
    expect((await postStatus(id)).status).toBe("pending_approval");
  });

  test("a link never reviews what its creator wrote, and dies with its creator's right to approve", async () => {
    // An admin (a person, through a user token) writes a post under required_for_all and makes a link.
    await t.request("POST", `/v1/brands/${a.brandId}`, {
      key: a.testKey,
      body: { approval_policy: "required_for_all" },
    });
    try {
      const adminId = await member(t.app, a.orgId, `admin-${Date.now()}@example.com`, "admin");
      const tok = (await userToken(t.app, adminId)).secret;
      const own = await pending("My own post", tok);
      const theirs = await pending("Someone else's");
      const link = await makeLink(tok);
      expect(
        (await t.request("GET", `/v1/review_links/${link.id}`, { key: a.testKey })).body.created_by,
      ).toBe(adminId);
      const b = visitor();
      const page = await b.get(pathOf(link.url));
      expect(page.html).toContain(`id="review-${own}-theirs"`);
      expect(page.html).not.toContain(`/posts/${own}/approve`);
      expect(page.html).toContain(`/posts/${theirs}/approve`);
      const form = formOf(page.html);
      const r = await b.post(`${pathOf(link.url)}/posts/${own}/approve`, { _form: form });
      expect(r.status).toBe(403);
      expect(r.html).toContain("another admin reviews it");
      expect((await postStatus(own)).status).toBe("pending_approval");

      // Made an editor: the link no longer opens (the same answer as an unknown link).
      await t.app.db
        .updateTable("members")
        .set({ role: "editor" })
        .where("org_id", "=", a.orgId)
        .where("user_id", "=", adminId)
        .execute();
      const dead = await b.get(pathOf(link.url));
      expect(dead.status).toBe(404);
      expect(dead.html).toContain("does not work");

      // A key's link dies with the key.
      const approver = await key(t.app, a.orgId, {
        name: "approver",
        scopes: ["posts:approve", "posts:read"],
      });
      const keyLink = await makeLink(approver);
      expect((await b.get(pathOf(keyLink.url))).status).toBe(200);
      const keys = await t.request("GET", "/v1/api_keys?limit=100", { key: a.testKey });
      const approverId = keys.body.data.find((k: { name: string }) => k.name === "approver").id;
      expect((await t.request("POST", `/v1/api_keys/${approverId}/revoke`, { key: a.testKey })).status).toBe(
        200,
      );
      expect((await b.get(pathOf(keyLink.url))).status).toBe(404);
    } finally {
      await t.request("POST", `/v1/brands/${a.brandId}`, {
        key: a.testKey,
        body: { approval_policy: "required_for_editors_and_keys" },
      });
    }
  });
});
