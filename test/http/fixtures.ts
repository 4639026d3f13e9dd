// For the access test: how to make an object each /v1 route with path parameters can address, in org A's test
// mode. A feature that adds a route with parameters adds its entry here (the access test fails without one).

import { adminActor } from "../../src/domain/actor.ts";
import { createInvitation } from "../../src/domain/identity/invitations/service.ts";
import { scopesOfRole } from "../../src/domain/scopes.ts";
import type { TestApp } from "../helpers/app.ts";
import { key, member, type Tenant } from "../helpers/factories.ts";
import { jpeg, upload } from "../helpers/media.ts";
import { testEndpoint, testEvent } from "../helpers/webhooks.ts";

export interface Fixture {
  /** Path parameters that name an object of org A in test mode. */
  params: Record<string, string>;
  /** A body that passes validation, so the lookup decides. */
  body?: unknown;
  /** True when the object belongs to one mode (a live key must not see it). */
  modeScoped: boolean;
  /**
   * What org A's own request answers when it cannot succeed in this test's install (a send with no SMTP): the
   * object was found, and the answer says why nothing more happened.
   */
  ownAnswer?: [number, string];
}

type Make = (t: TestApp, a: Tenant) => Promise<Fixture>;

export const fixtures: Record<string, Make> = {
  "GET /v1/members/:id": async (t, a) => ({ params: { id: await memberId(t, a) }, modeScoped: false }),
  "POST /v1/members/:id": async (t, a) => ({
    params: { id: await memberId(t, a) },
    body: { role: "viewer" },
    modeScoped: false,
  }),
  "DELETE /v1/members/:id": async (t, a) => ({ params: { id: await memberId(t, a) }, modeScoped: false }),
  // A new member makes a notification for A's owner (someone joined); notifications belong to a person, not a mode.
  "POST /v1/notifications/:id/read": async (t, a) => {
    await memberId(t, a);
    const n = await t.app.db
      .selectFrom("notifications")
      .select("id")
      .where("user_id", "=", a.userId)
      .orderBy("id", "desc")
      .executeTakeFirstOrThrow();
    return { params: { id: n.id }, modeScoped: false };
  },
  "DELETE /v1/invitations/:id": async (t, a) => {
    const inv = await createInvitation(t.app, adminActor(a.orgId, "test", scopesOfRole("owner")), {
      email: `invited-${++members}@example.com`,
      role: "viewer",
    });
    return { params: { id: inv.id }, modeScoped: false };
  },
  "POST /v1/api_keys/:id/roll": async (t, a) => ({ params: { id: await keyId(t, a) }, modeScoped: true }),
  "POST /v1/api_keys/:id/revoke": async (t, a) => ({ params: { id: await keyId(t, a) }, modeScoped: true }),
  "GET /v1/brands/:id": async (_t, a) => ({ params: { id: a.brandId }, modeScoped: false }),
  "POST /v1/brands/:id": async (_t, a) => ({
    params: { id: a.brandId },
    body: { name: "Renamed" },
    modeScoped: false,
  }),
  "POST /v1/brands/:id/email_theme": async (_t, a) => ({
    params: { id: a.brandId },
    body: { footer: "Sent by Acme" },
    modeScoped: false,
  }),
  "GET /v1/templates/:id": async (t, a) => ({ params: { id: await templateId(t, a) }, modeScoped: false }),
  "POST /v1/templates/:id": async (t, a) => ({
    params: { id: await templateId(t, a) },
    body: { name: "Renamed" },
    modeScoped: false,
  }),
  "DELETE /v1/templates/:id": async (t, a) => ({ params: { id: await templateId(t, a) }, modeScoped: false }),
  "POST /v1/templates/:id/versions": async (t, a) => ({
    params: { id: await templateId(t, a) },
    body: { variables: { type: "object" }, examples: [{}], body: "Version two" },
    modeScoped: false,
  }),
  "GET /v1/developer_apps/:id": async (t, a) => ({ params: { id: await appId(t, a) }, modeScoped: false }),
  "POST /v1/developer_apps/:id": async (t, a) => ({
    params: { id: await appId(t, a) },
    body: { name: `Renamed app ${++apps}` },
    modeScoped: false,
  }),
  "DELETE /v1/developer_apps/:id": async (t, a) => ({ params: { id: await appId(t, a) }, modeScoped: false }),
  "GET /v1/channels/:id": async (t, a) => ({ params: { id: await channelId(t, a) }, modeScoped: true }),
  "POST /v1/channels/:id": async (t, a) => ({
    params: { id: await channelId(t, a) },
    body: { status: "disabled" },
    modeScoped: true,
  }),
  "DELETE /v1/channels/:id": async (t, a) => ({ params: { id: await channelId(t, a) }, modeScoped: true }),
  "POST /v1/channels/:id/reconnect": async (t, a) => ({
    params: { id: await channelId(t, a) },
    body: { fields: { handle: "renewed" } },
    modeScoped: true,
  }),
  "GET /v1/ad_accounts/:id": async (t, a) => ({ params: { id: await adAccountId(t, a) }, modeScoped: true }),
  "DELETE /v1/ad_accounts/:id": async (t, a) => ({
    params: { id: await adAccountId(t, a) },
    modeScoped: true,
  }),
  "GET /v1/analytics_sources/:id": async (t, a) => ({
    params: { id: await analyticsSourceId(t, a) },
    modeScoped: true,
  }),
  "DELETE /v1/analytics_sources/:id": async (t, a) => ({
    params: { id: await analyticsSourceId(t, a) },
    modeScoped: true,
  }),
  "GET /v1/posts/:id": async (t, a) => ({ params: { id: (await post(t, a)).id }, modeScoped: true }),
  "POST /v1/posts/:id/delete_published": async (t, a) => {
    const p = await post(t, a);
    // Published on the sandbox, as the worker leaves it: the owner's own request then deletes it.
    await t.app.db
      .updateTable("post_targets")
      .set({
        status: "published",
        published_at: Date.now(),
        remote_parts: JSON.stringify([{ index: 0, remote_id: "sandbox:fixture", remote_url: null }]),
      })
      .where("post_id", "=", p.id)
      .execute();
    return { params: { id: p.id }, modeScoped: true };
  },
  "POST /v1/posts/:id": async (t, a) => ({
    params: { id: (await post(t, a)).id },
    body: { content: { body: "Edited." } },
    modeScoped: true,
  }),
  "POST /v1/posts/:id/cancel": async (t, a) => ({ params: { id: (await post(t, a)).id }, modeScoped: true }),
  "POST /v1/posts/:id/reschedule": async (t, a) => ({
    params: { id: (await post(t, a)).id },
    body: { publish_at: new Date(Date.now() + 7200_000).toISOString() },
    modeScoped: true,
  }),
  "POST /v1/posts/:id/approve": async (t, a) => ({
    params: { id: (await post(t, a, { pending: true })).id },
    modeScoped: true,
  }),
  "POST /v1/posts/:id/reject": async (t, a) => ({
    params: { id: (await post(t, a, { pending: true })).id },
    modeScoped: true,
  }),
  "POST /v1/post_targets/:id/retry": async (t, a) => ({
    params: { id: (await post(t, a, { failed: true })).targets[0].id },
    modeScoped: true,
  }),
  "POST /v1/post_targets/:id/mark_published": async (t, a) => ({
    params: { id: (await post(t, a, { failed: true })).targets[0].id },
    body: { permalink: "https://bsky.app/profile/x/post/1" },
    modeScoped: true,
  }),
  "GET /v1/post_targets/:id/attempts": async (t, a) => ({
    params: { id: (await post(t, a)).targets[0].id },
    modeScoped: true,
  }),
  "GET /v1/post_targets/:id/engagement": async (t, a) => ({
    params: { id: (await post(t, a)).targets[0].id },
    modeScoped: true,
  }),
  "GET /v1/events/:id": async (t, a) => ({
    params: { id: (await testEvent(t.app, a)).id },
    modeScoped: true,
  }),
  "GET /v1/media/:id": async (t, a) => ({ params: { id: await mediaId(t, a) }, modeScoped: true }),
  "POST /v1/media/:id": async (t, a) => ({
    params: { id: await mediaId(t, a) },
    body: { alt: "Renamed" },
    modeScoped: true,
  }),
  "DELETE /v1/media/:id": async (t, a) => ({ params: { id: await mediaId(t, a) }, modeScoped: true }),
  "GET /v1/review_links/:id": async (t, a) => ({
    params: { id: await reviewLinkId(t, a) },
    modeScoped: true,
  }),
  "POST /v1/review_links/:id/withdraw": async (t, a) => ({
    params: { id: await reviewLinkId(t, a) },
    modeScoped: true,
  }),
  "GET /v1/mail_accounts/:id": async (t, a) => ({
    params: { id: await mailAccountId(t, a) },
    modeScoped: true,
  }),
  "POST /v1/mail_accounts/:id": async (t, a) => ({
    params: { id: await mailAccountId(t, a) },
    body: { from_name: "Renamed" },
    modeScoped: true,
  }),
  "DELETE /v1/mail_accounts/:id": async (t, a) => ({
    params: { id: await mailAccountId(t, a) },
    modeScoped: true,
  }),
  "GET /v1/mail_accounts/:id/audiences": async (t, a) => ({
    params: { id: await mailAccountId(t, a) },
    modeScoped: true,
  }),
  "GET /v1/newsletters/:id": async (t, a) => ({ params: { id: await issueId(t, a) }, modeScoped: true }),
  "POST /v1/newsletters/:id": async (t, a) => ({
    params: { id: await issueId(t, a) },
    body: { subject: "Renamed" },
    modeScoped: true,
  }),
  "GET /v1/newsletters/:id/preview": async (t, a) => ({
    params: { id: await issueId(t, a) },
    modeScoped: true,
  }),
  "POST /v1/newsletters/:id/schedule": async (t, a) => ({
    params: { id: await issueId(t, a) },
    body: { send_at: new Date(Date.now() + 86400_000).toISOString() },
    modeScoped: true,
  }),
  "POST /v1/newsletters/:id/unschedule": async (t, a) => ({
    params: { id: await issueId(t, a, { scheduled: true }) },
    modeScoped: true,
  }),
  "POST /v1/newsletters/:id/cancel": async (t, a) => ({
    params: { id: await issueId(t, a) },
    modeScoped: true,
  }),
  "POST /v1/newsletters/:id/approve": async (t, a) => ({
    params: { id: await issueId(t, a, { pending: true }) },
    modeScoped: true,
  }),
  "POST /v1/newsletters/:id/reject": async (t, a) => ({
    params: { id: await issueId(t, a, { pending: true }) },
    modeScoped: true,
  }),
  // The access test's install has no SMTP: the sandbox's test send answers mail_unavailable once the issue and
  // its mail account were found.
  "POST /v1/newsletters/:id/test": async (t, a) => ({
    params: { id: await issueId(t, a) },
    body: { mail_account: await mailAccountId(t, a), to: ["someone@example.com"] },
    modeScoped: true,
    ownAnswer: [503, "mail_unavailable"],
  }),
  "GET /v1/webhook_endpoints/:id": async (t, a) => ({
    params: { id: (await testEndpoint(t, a)).id },
    modeScoped: true,
  }),
  "POST /v1/webhook_endpoints/:id": async (t, a) => ({
    params: { id: (await testEndpoint(t, a)).id },
    body: { description: "Renamed" },
    modeScoped: true,
  }),
  "DELETE /v1/reports/share_links/:id": async (t, a) => {
    const r = await t.request("POST", "/v1/reports/share_links", {
      key: a.testKey,
      body: { brand: a.brandId },
    });
    return { params: { id: r.body.id }, modeScoped: true };
  },
  "GET /v1/brands/:id/report_recipients": async (_t, a) => ({ params: { id: a.brandId }, modeScoped: false }),
  "POST /v1/brands/:id/report_recipients": async (_t, a) => ({
    params: { id: a.brandId },
    body: { email: `client-${crypto.randomUUID()}@example.com` },
    modeScoped: false,
  }),
  "DELETE /v1/brands/:id/report_recipients/:email": async (t, a) => {
    const email = `gone-${crypto.randomUUID()}@example.com`;
    await t.request("POST", `/v1/brands/${a.brandId}/report_recipients`, { key: a.testKey, body: { email } });
    return { params: { id: a.brandId, email }, modeScoped: false };
  },
  "DELETE /v1/webhook_endpoints/:id": async (t, a) => ({
    params: { id: (await testEndpoint(t, a)).id },
    modeScoped: true,
  }),
  "POST /v1/webhook_endpoints/:id/roll_secret": async (t, a) => ({
    params: { id: (await testEndpoint(t, a)).id },
    modeScoped: true,
  }),
  "GET /v1/webhook_endpoints/:id/deliveries": async (t, a) => ({
    params: { id: (await testEndpoint(t, a)).id },
    modeScoped: true,
  }),
  "POST /v1/webhook_deliveries/:id/resend": async (t, a) => {
    const ep = await testEndpoint(t, a);
    const ev = await testEvent(t.app, a);
    const list = await t.request("GET", `/v1/webhook_endpoints/${ep.id}/deliveries`, { key: a.testKey });
    const d = list.body.data.find((x: { event: string }) => x.event === ev.id);
    return { params: { id: d.id }, modeScoped: true };
  },
};

let members = 0;
/** A fresh editor in org A. */
const memberId = (t: TestApp, a: Tenant) =>
  member(t.app, a.orgId, `fixture-${++members}@example.com`, "editor");

let templates = 0;
async function templateId(t: TestApp, a: Tenant): Promise<string> {
  const r = await t.request("POST", "/v1/templates", {
    key: a.testKey,
    body: {
      brand: a.brandId,
      key: `fixture-${++templates}`,
      variables: { type: "object" },
      examples: [{}],
      body: "Hello",
    },
  });
  if (r.status !== 201) throw new Error(`template fixture: ${JSON.stringify(r.body)}`);
  return r.body.id;
}

/** A fresh sandbox channel of org A in test mode. */
async function channelId(t: TestApp, a: Tenant): Promise<string> {
  const r = await t.request("POST", "/v1/channels", {
    key: a.testKey,
    body: { brand: a.brandId, provider: "sandbox" },
  });
  return r.body.id;
}

let apps = 0;
/** An org app of A's (developer apps belong to the org, not to a mode). */
async function appId(t: TestApp, a: Tenant): Promise<string> {
  const r = await t.request("POST", "/v1/developer_apps", {
    key: a.testKey,
    body: {
      provider: "x",
      name: `Fixture app ${++apps}`,
      client_id: "fixture-client",
      client_secret: "s3cret",
    },
  });
  return r.body.id;
}

async function keyId(t: TestApp, a: Tenant): Promise<string> {
  const secret = await key(t.app, a.orgId, { name: "fixture" });
  const me = await t.request("GET", "/v1/me", { key: secret });
  return me.body.api_key.id;
}

/**
 * A post of org A in test mode, an hour ahead, made by a key of its own so that org A's test key may review it.
 * `pending`: the brand requires approval. `failed`: its target has failed (as the worker would leave it).
 */
async function post(t: TestApp, a: Tenant, o: { pending?: boolean; failed?: boolean } = {}) {
  const author = await key(t.app, a.orgId, { name: "author" });
  if (o.pending)
    await t.app.db
      .updateTable("brands")
      .set({ approval_policy: "required_for_all" })
      .where("id", "=", a.brandId)
      .execute();
  const r = await t.request("POST", "/v1/posts", {
    key: author,
    body: {
      brand: a.brandId,
      content: { body: "Fixture post" },
      publish_at: new Date(Date.now() + 3600_000).toISOString(),
    },
  });
  if (o.pending)
    await t.app.db
      .updateTable("brands")
      .set({ approval_policy: "none" })
      .where("id", "=", a.brandId)
      .execute();
  if (r.status !== 201) throw new Error(`post fixture: ${JSON.stringify(r.body)}`);
  if (o.failed) {
    await t.app.db
      .updateTable("post_targets")
      .set({ status: "failed", error_code: "rejected" })
      .where("post_id", "=", r.body.id)
      .execute();
  }
  return r.body;
}

async function mediaId(t: TestApp, a: Tenant): Promise<string> {
  const r = await upload(t, a.testKey, { brand: a.brandId, file: { bytes: await jpeg(8, 8) } });
  return r.body.id;
}

let adAccounts = 0;
async function adAccountId(t: TestApp, a: Tenant): Promise<string> {
  const r = await t.request("POST", "/v1/ad_accounts", {
    key: a.testKey,
    body: { brand: a.brandId, network: "sandbox", fields: { account_name: `Fixture ${++adAccounts}` } },
  });
  return r.body.id;
}

let sites = 0;
async function analyticsSourceId(t: TestApp, a: Tenant): Promise<string> {
  const r = await t.request("POST", "/v1/analytics_sources", {
    key: a.testKey,
    body: {
      brand: a.brandId,
      provider: "sandbox",
      goals: ["Signup"],
      fields: { site: `site${++sites}.example` },
    },
  });
  return r.body.id;
}

/** A client review link of A's brand in test mode, made through the API. */
async function reviewLinkId(t: TestApp, a: Tenant): Promise<string> {
  const r = await t.request("POST", "/v1/review_links", {
    key: a.testKey,
    body: { brand: a.brandId, name: "Fixture client" },
  });
  return r.body.id as string;
}

let mailAccounts = 0;
/** A sandbox mail account of A's brand in test mode. */
async function mailAccountId(t: TestApp, a: Tenant): Promise<string> {
  const r = await t.request("POST", "/v1/mail_accounts", {
    key: a.testKey,
    body: {
      brand: a.brandId,
      provider: "sandbox",
      from_name: "News",
      from_email: "news@example.com",
      fields: { account: `fixture-${++mailAccounts}` },
    },
  });
  if (r.status !== 201) throw new Error(`mail account fixture: ${JSON.stringify(r.body)}`);
  return r.body.id;
}

/**
 * A newsletter issue of org A in test mode through a sandbox mail account, made by a key of its own (so A's test
 * key may review it). `scheduled`: a day ahead; `pending`: scheduled while the brand requires approval.
 */
async function issueId(
  t: TestApp,
  a: Tenant,
  o: { scheduled?: boolean; pending?: boolean } = {},
): Promise<string> {
  const author = await key(t.app, a.orgId, { name: "newsletter author" });
  await t.request("POST", `/v1/brands/${a.brandId}/email_theme`, {
    key: a.testKey,
    body: { postal_address: "1 Main Street" },
  });
  const acct = await mailAccountId(t, a);
  const r = await t.request("POST", "/v1/newsletters", {
    key: author,
    body: {
      brand: a.brandId,
      subject: "Fixture issue",
      body: "Hello",
      deliveries: [{ mail_account: acct, audiences: ["everyone"] }],
    },
  });
  if (r.status !== 201) throw new Error(`issue fixture: ${JSON.stringify(r.body)}`);
  if (o.scheduled || o.pending) {
    if (o.pending)
      await t.app.db
        .updateTable("brands")
        .set({ approval_policy: "required_for_all" })
        .where("id", "=", a.brandId)
        .execute();
    const s = await t.request("POST", `/v1/newsletters/${r.body.id}/schedule`, {
      key: author,
      body: { send_at: new Date(Date.now() + 86400_000).toISOString() },
    });
    if (o.pending)
      await t.app.db
        .updateTable("brands")
        .set({ approval_policy: "none" })
        .where("id", "=", a.brandId)
        .execute();
    if (s.status !== 200) throw new Error(`issue fixture schedule: ${JSON.stringify(s.body)}`);
  }
  return r.body.id;
}
