// Newsletter issues: drafts with deliveries, every input code, the rendered email (theme, postal address,
// unsubscribe placeholder, UTM tags, library images by never-expiring newsletter links, script neutralised),
// schedule / move / unschedule / cancel, the brand's approval policy with no self-approval, events, a mail account
// in use, and org and mode isolation. Brevo is reached through its stand-in (validated against its description).
import { afterAll, beforeAll, expect, test } from "bun:test";
import type { TestApp } from "../../helpers/app.ts";
import { describeEachDialect } from "../../helpers/db.ts";
import { key, type Tenant, tenant } from "../../helpers/factories.ts";
import { jpeg, upload } from "../../helpers/media.ts";
import { networkApp } from "../../helpers/networks.ts";
import { schemaErrors } from "../../helpers/schema.ts";
import { type BrevoStandIn, startBrevo } from "../../stand-ins/brevo.ts";
import { expectClean } from "../../stand-ins/server.ts";

const ahead = (ms: number) => new Date(Date.now() + ms).toISOString();
const HOUR = 3600_000;
const DAY = 24 * HOUR;

describeEachDialect("newsletter issues", (dialect) => {
  let t: TestApp;
  let a: Tenant;
  let other: Tenant;
  let brevo: BrevoStandIn;
  let acct: string;
  let author: string;
  beforeAll(async () => {
    brevo = await startBrevo();
    t = await networkApp(dialect, { brevo: brevo.url });
    a = await tenant(t.app);
    other = await tenant(t.app);
    author = await key(t.app, a.orgId, { name: "author", scopes: ["newsletters:read", "newsletters:write"] });
    const r = await post("/v1/mail_accounts", {
      brand: a.brandId,
      provider: "sandbox",
      from_name: "Acme",
      from_email: "news@acme.example",
      default_audiences: ["everyone"],
    });
    acct = r.body.id;
    await post(`/v1/brands/${a.brandId}`, { utm_domains: ["acme.example"] });
    await post(`/v1/brands/${a.brandId}/email_theme`, {
      accent: "#1a4d8f",
      postal_address: "Acme Ltd, 1 Main Street, London",
      footer: "You signed up at acme.example",
    });
  });
  afterAll(async () => {
    brevo.stop();
    await t.close();
  });

  function post(path: string, body?: unknown, k = a.testKey) {
    return t.request("POST", path, { key: k, body: body ?? {} });
  }
  const get = (path: string, k = a.testKey) => t.request("GET", path, { key: k });
  const draft = (extra: Record<string, unknown> = {}, k = author) =>
    post(
      "/v1/newsletters",
      {
        brand: a.brandId,
        subject: "March news",
        body: "# Hello\n\nRead [more](https://acme.example/blog).",
        deliveries: [{ mail_account: acct }],
        ...extra,
      },
      k,
    );

  test("a draft with a delivery (the account's default audiences); get, list, event", async () => {
    const r = await draft({ preview_text: "What changed in March" });
    expect(r.status).toBe(201);
    expect(schemaErrors("Newsletter", r.body)).toBeNull();
    expect(r.body.id).toMatch(/^nl_[0-9a-z]{26}$/);
    expect(r.body).toMatchObject({
      object: "newsletter",
      brand: a.brandId,
      livemode: false,
      status: "draft",
      subject: "March news",
      preview_text: "What changed in March",
      send_at: null,
    });
    expect(r.body.deliveries).toHaveLength(1);
    expect(r.body.deliveries[0]).toMatchObject({
      mail_account: acct,
      provider: "sandbox",
      audiences: ["everyone"],
      status: "draft",
      campaign_id: null,
    });
    expect(r.body.deliveries[0].id).toMatch(/^nldel_/);
    expect((await get(`/v1/newsletters/${r.body.id}`)).body).toEqual(r.body);
    const list = await get(`/v1/newsletters?brand=${a.brandSlug}&status=draft`);
    expect(schemaErrors("NewsletterList", list.body)).toBeNull();
    expect(list.body.data.map((n: { id: string }) => n.id)).toContain(r.body.id);
    expect((await get("/v1/newsletters?status=bogus")).status).toBe(400);
    const ev = await get("/v1/events?type=newsletter.created");
    expect(
      ev.body.data.some((e: { data: { object: { id: string } } }) => e.data.object.id === r.body.id),
    ).toBe(true);
  });

  test("content codes: subject, preview text, body (empty, over 100,000 bytes, not the brand's image)", async () => {
    const code = async (extra: Record<string, unknown>) => {
      const r = await draft(extra);
      return [r.status, r.body.code, r.body.param];
    };
    expect(await code({ subject: "" })).toEqual([422, "subject_invalid", "subject"]);
    expect(await code({ subject: "s".repeat(201) })).toEqual([422, "subject_invalid", "subject"]);
    expect((await draft({ subject: "s".repeat(200) })).status).toBe(201);
    expect(await code({ preview_text: "p".repeat(201) })).toEqual([
      422,
      "preview_text_too_long",
      "preview_text",
    ]);
    expect(await code({ body: "  \n " })).toEqual([422, "body_invalid", "body"]);
    // 100,000 bytes is the limit in bytes, not characters: 50,001 two-byte letters are over it.
    expect(await code({ body: "é".repeat(50_001) })).toEqual([422, "body_invalid", "body"]);
    expect((await draft({ body: "é".repeat(50_000) })).status).toBe(201);
    const theirs = await upload(t, other.testKey, {
      brand: other.brandId,
      file: { bytes: await jpeg(8, 8) },
    });
    expect(await code({ body: `![x](${theirs.body.id})` })).toEqual([422, "body_invalid", "body"]);
  });

  test("delivery codes: unknown account, duplicate, audiences missing or unknown, account needing reauth", async () => {
    const code = async (deliveries: unknown, k = author) => {
      const r = await draft({ deliveries }, k);
      return [r.status, r.body.code, r.body.param];
    };
    const theirs = await post(
      "/v1/mail_accounts",
      { brand: other.brandId, provider: "sandbox", from_name: "O", from_email: "o@o.example" },
      other.testKey,
    );
    expect(await code([{ mail_account: theirs.body.id }])).toEqual([
      422,
      "mail_account_unknown",
      "deliveries.0.mail_account",
    ]);
    expect(await code([{ mail_account: "mailacct_nope" }])).toEqual([
      422,
      "mail_account_unknown",
      "deliveries.0.mail_account",
    ]);
    expect(await code([{ mail_account: acct }, { mail_account: acct }])).toEqual([
      422,
      "delivery_duplicate",
      "deliveries.1.mail_account",
    ]);
    const bare = await post("/v1/mail_accounts", {
      brand: a.brandId,
      provider: "sandbox",
      from_name: "Acme",
      from_email: "news@acme.example",
      fields: { account: "no-defaults" },
    });
    expect(await code([{ mail_account: bare.body.id }])).toEqual([
      422,
      "audience_missing",
      "deliveries.0.audiences",
    ]);
    expect(await code([{ mail_account: bare.body.id, audiences: ["trial", "gone"] }])).toEqual([
      422,
      "audience_unknown",
      "deliveries.0.audiences.1",
    ]);
    expect((await draft({ deliveries: [{ mail_account: bare.body.id, audiences: ["trial"] }] })).status).toBe(
      201,
    );

    // Live mode: a Brevo account whose key was revoked (found when its audiences were read) takes no issue.
    const b = brevo.addAccount({ email: "client@shop.example", lists: ["All"] });
    const live = await post(
      "/v1/mail_accounts",
      {
        brand: a.brandId,
        provider: "brevo",
        from_name: "Shop",
        from_email: "news@shop.example",
        fields: { api_key: b.apiKey },
        default_audiences: [String(b.lists[0]!.id)],
      },
      a.liveKey,
    );
    expect(live.status).toBe(201);
    b.revoked = true;
    expect((await get(`/v1/mail_accounts/${live.body.id}/audiences`, a.liveKey)).body.code).toBe(
      "mail_account_needs_reauth",
    );
    expect(await code([{ mail_account: live.body.id }], a.liveKey)).toEqual([
      422,
      "mail_account_needs_reauth",
      "deliveries.0.mail_account",
    ]);
    // The test-mode account is not in live mode.
    expect(await code([{ mail_account: acct }], a.liveKey)).toEqual([
      422,
      "mail_account_unknown",
      "deliveries.0.mail_account",
    ]);
    b.revoked = false;
    expectClean(brevo);
  });

  test("preview: theme, postal address, unsubscribe placeholder, UTM tags, newsletter image links; script neutralised", async () => {
    const img = await upload(t, a.testKey, { brand: a.brandId, file: { bytes: await jpeg(30, 20) } });
    const body = [
      "# Big news",
      "",
      "See [the blog](https://acme.example/blog#top) and [elsewhere](https://other.example/x).",
      "",
      `![A photo](${img.body.id})`,
      "",
      '<script>alert("x")</script> <img src=x onerror="alert(1)"> [click](javascript:alert(1))',
    ].join("\n");
    const r = await post("/v1/newsletters/preview", {
      brand: a.brandSlug,
      subject: "S",
      preview_text: "Pre",
      body,
    });
    expect(r.status).toBe(200);
    expect(schemaErrors("NewsletterPreview", r.body)).toBeNull();
    const { html, text } = r.body;
    expect(r.body.provider).toBe("sandbox");
    expect(html).toContain("Acme Ltd, 1 Main Street, London");
    expect(html).toContain("You signed up at acme.example");
    expect(html).toContain('href="{{unsubscribe_url}}"');
    expect(html).toContain("#1a4d8f");
    expect(html).toContain(">Pre</div>");
    expect(html).toContain(
      "https://acme.example/blog?utm_source=sandbox&amp;utm_medium=email&amp;utm_campaign=nl_00000000000000000000000000&amp;utm_content=link-1#top",
    );
    // Only the brand's UTM domains are tagged.
    expect(html).toContain('href="https://other.example/x"');
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toMatch(/<img[^>]*onerror/i);
    expect(html).not.toMatch(/href="javascript:/i);
    expect(html).toContain("&lt;script&gt;");
    expect(text).toContain("the blog (https://acme.example/blog?utm_source=sandbox");
    expect(text).toContain("Unsubscribe: {{unsubscribe_url}}");
    expect(text).toContain("Acme Ltd, 1 Main Street, London");
    expect(r.body.images).toEqual([img.body.id]);

    // The image link never expires and opens the image for newsletters only.
    const src = /<img src="([^"]+)"/.exec(html)![1]!.replaceAll("&amp;", "&");
    expect(src).toContain(`/v1/media/${img.body.id}/content?for=newsletter&signature=`);
    expect(src).not.toContain("expires");
    const path = src.replace("http://localhost:8080", "");
    const fetched = await t.request("GET", path);
    expect(fetched.status).toBe(200);
    const forged = await t.request("GET", path.replace("for=newsletter", "for=bluesky"));
    expect(forged.status).toBe(404);
    const otherMedia = await t.request(
      "GET",
      path.replace(
        img.body.id,
        (await upload(t, a.testKey, { brand: a.brandId, file: { bytes: await jpeg(8, 8) } })).body.id,
      ),
    );
    expect(otherMedia.status).toBe(404);

    // A saved issue's preview carries its own ID as the campaign.
    const d = await draft({ body });
    const p = await get(`/v1/newsletters/${d.body.id}/preview`);
    expect(p.body.html).toContain(`utm_campaign=${d.body.id}&amp;utm_content=link-1`);
    expect(p.body.html).not.toMatch(/<script/i);
  });

  test("update while draft; schedule, move, unschedule, cancel, with events", async () => {
    const d = await draft();
    const id = d.body.id;
    const u = await post(
      `/v1/newsletters/${id}`,
      { subject: "April news", deliveries: [{ mail_account: acct, audiences: ["customers"] }] },
      author,
    );
    expect(u.status).toBe(200);
    expect(u.body.subject).toBe("April news");
    expect(u.body.deliveries[0].audiences).toEqual(["customers"]);

    for (const bad of [ahead(60_000), ahead(367 * DAY), "tomorrow", "2026-13-01T00:00:00Z"]) {
      const r = await post(`/v1/newsletters/${id}/schedule`, { send_at: bad }, author);
      expect([r.status, r.body.code, r.body.param]).toEqual([422, "send_at_invalid", "send_at"]);
    }
    const sendAt = ahead(3 * DAY);
    const s = await post(`/v1/newsletters/${id}/schedule`, { send_at: sendAt }, author);
    expect(s.status).toBe(200);
    expect(s.body.status).toBe("scheduled");
    expect(s.body.send_at).toBe(new Date(sendAt).toISOString());
    expect(s.body.deliveries[0].status).toBe("queued");
    const changed = await post(`/v1/newsletters/${id}`, { subject: "Too late" }, author);
    expect([changed.status, changed.body.code]).toEqual([409, "issue_not_draft"]);
    const moved = await post(`/v1/newsletters/${id}/schedule`, { send_at: ahead(4 * DAY) }, author);
    expect(moved.body.status).toBe("scheduled");

    const back = await post(`/v1/newsletters/${id}/unschedule`, {}, author);
    expect(back.body).toMatchObject({ status: "draft", send_at: null });
    expect(back.body.deliveries[0].status).toBe("draft");
    const again = await post(`/v1/newsletters/${id}/unschedule`, {}, author);
    expect([again.status, again.body.code]).toEqual([409, "issue_not_scheduled"]);

    const c = await post(`/v1/newsletters/${id}/cancel`, {}, author);
    expect(c.body.status).toBe("canceled");
    expect(c.body.deliveries[0].status).toBe("canceled");
    const c2 = await post(`/v1/newsletters/${id}/cancel`, {}, author);
    expect([c2.status, c2.body.code]).toEqual([409, "issue_not_cancelable"]);
    const s2 = await post(`/v1/newsletters/${id}/schedule`, { send_at: ahead(DAY) }, author);
    expect([s2.status, s2.body.code]).toEqual([409, "issue_not_schedulable"]);

    const types = (await get("/v1/events?limit=100")).body.data
      .filter((e: { data: { object: { id: string } } }) => e.data.object.id === id)
      .map((e: { type: string }) => e.type)
      .reverse();
    expect(types).toEqual([
      "newsletter.created",
      "newsletter.updated",
      "newsletter.scheduled",
      "newsletter.rescheduled",
      "newsletter.unscheduled",
      "newsletter.canceled",
    ]);
  });

  test("scheduling needs the brand's postal address and a delivery", async () => {
    const noDeliveries = await draft({ deliveries: [] });
    const r = await post(`/v1/newsletters/${noDeliveries.body.id}/schedule`, { send_at: ahead(DAY) }, author);
    expect([r.status, r.body.code]).toEqual([422, "deliveries_missing"]);
    await post(`/v1/brands/${a.brandId}/email_theme`, { postal_address: "" });
    const withDelivery = await draft();
    const p = await post(`/v1/newsletters/${withDelivery.body.id}/schedule`, { send_at: ahead(DAY) }, author);
    expect([p.status, p.body.code]).toEqual([422, "postal_address_missing"]);
    await post(`/v1/brands/${a.brandId}/email_theme`, { postal_address: "Acme Ltd, 1 Main Street, London" });
    expect(
      (await post(`/v1/newsletters/${withDelivery.body.id}/schedule`, { send_at: ahead(DAY) }, author))
        .status,
    ).toBe(200);
  });

  test("approval: the brand's policy holds the issue; no self-approval; approve schedules, reject returns to draft", async () => {
    await post(`/v1/brands/${a.brandId}`, { approval_policy: "required_for_all" });
    try {
      const d = await draft({}, a.testKey);
      const s = await post(`/v1/newsletters/${d.body.id}/schedule`, { send_at: ahead(2 * DAY) });
      expect(s.body.status).toBe("pending_approval");
      expect(s.body.approval.required).toBe(true);
      expect(s.body.deliveries[0].status).toBe("held");
      const self = await post(`/v1/newsletters/${d.body.id}/approve`, {});
      expect([self.status, self.body.code]).toEqual([403, "forbidden"]);
      const noScope = await post(`/v1/newsletters/${d.body.id}/approve`, {}, author);
      expect([noScope.status, noScope.body.code]).toEqual([403, "scope_missing"]);
      const reviewer = await key(t.app, a.orgId, {
        name: "reviewer",
        scopes: ["posts:approve", "newsletters:read"],
      });
      const ok = await post(`/v1/newsletters/${d.body.id}/approve`, { note: "Looks good" }, reviewer);
      expect(ok.status).toBe(200);
      expect(ok.body.status).toBe("scheduled");
      expect(ok.body.approval).toMatchObject({ required: true, note: "Looks good" });
      expect(ok.body.deliveries[0].status).toBe("queued");
      const twice = await post(`/v1/newsletters/${d.body.id}/approve`, {}, reviewer);
      expect([twice.status, twice.body.code]).toEqual([409, "issue_not_pending"]);

      const d2 = await draft({}, a.testKey);
      await post(`/v1/newsletters/${d2.body.id}/schedule`, { send_at: ahead(2 * DAY) });
      const no = await post(`/v1/newsletters/${d2.body.id}/reject`, { note: "Fix the subject" }, reviewer);
      expect(no.body).toMatchObject({ status: "draft", send_at: null });
      expect(no.body.approval.note).toBe("Fix the subject");
      const rejectDraft = await post(`/v1/newsletters/${d2.body.id}/reject`, {}, reviewer);
      expect([rejectDraft.status, rejectDraft.body.code]).toEqual([409, "issue_not_pending"]);
      const types = (await get("/v1/events?limit=100")).body.data.map((e: { type: string }) => e.type);
      expect(types).toEqual(
        expect.arrayContaining([
          "newsletter.approval_requested",
          "newsletter.approved",
          "newsletter.rejected",
        ]),
      );
    } finally {
      await post(`/v1/brands/${a.brandId}`, { approval_policy: "none" });
    }
  });

  test("a mail account an unfinished issue uses cannot be deleted: 409 mail_account_in_use", async () => {
    const m = await post("/v1/mail_accounts", {
      brand: a.brandId,
      provider: "sandbox",
      from_name: "Acme",
      from_email: "news@acme.example",
      default_audiences: ["trial"],
      fields: { account: "in-use" },
    });
    const d = await draft({ deliveries: [{ mail_account: m.body.id }] });
    const del = await t.request("DELETE", `/v1/mail_accounts/${m.body.id}`, { key: a.testKey });
    expect([del.status, del.body.code]).toEqual([409, "mail_account_in_use"]);
    await post(`/v1/newsletters/${d.body.id}/cancel`, {}, author);
    const del2 = await t.request("DELETE", `/v1/mail_accounts/${m.body.id}`, { key: a.testKey });
    expect(del2.status).toBe(200);
    expect((await get(`/v1/newsletters/${d.body.id}`)).body.deliveries).toEqual([]);
  });

  test("isolation: another org and the other mode see no issue; scopes", async () => {
    const d = await draft();
    const id = d.body.id;
    for (const k of [other.testKey, a.liveKey]) {
      expect((await get(`/v1/newsletters/${id}`, k)).status).toBe(404);
      expect((await get(`/v1/newsletters/${id}/preview`, k)).status).toBe(404);
      expect((await post(`/v1/newsletters/${id}`, { subject: "x" }, k)).status).toBe(404);
      expect((await post(`/v1/newsletters/${id}/schedule`, { send_at: ahead(DAY) }, k)).status).toBe(404);
      expect((await post(`/v1/newsletters/${id}/cancel`, {}, k)).status).toBe(404);
      const list = await get("/v1/newsletters", k);
      expect(list.body.data.map((n: { id: string }) => n.id)).not.toContain(id);
    }
    expect(
      (await post("/v1/newsletters", { brand: a.brandId, subject: "x", body: "y" }, other.testKey)).status,
    ).toBe(404);
    const reader = await key(t.app, a.orgId, { name: "nl reader", scopes: ["newsletters:read"] });
    expect((await get(`/v1/newsletters/${id}`, reader)).status).toBe(200);
    const w = await draft({}, reader);
    expect([w.status, w.body.code]).toEqual([403, "scope_missing"]);
  });
});
