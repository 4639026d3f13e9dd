// Approvals (reference §6): which posts wait for a person (brand policy, template override, who is asking), what
// a pending post holds (its targets held, no slot while it has no time), approve taking the next free slot in
// approval order, reject canceling, and every refusal: the creating key, a key without posts:approve, a post no
// longer pending, no slot before publish_by, every slot taken.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { describeEachDialect } from "../../helpers/db.ts";
import { key } from "../../helpers/factories.ts";
import { schemaErrors } from "../../helpers/schemas.ts";
import { personToken } from "../../http/api/v1/template-helpers.ts";
import {
  at,
  auditRows,
  brandWithChannel,
  createPost,
  eventTypes,
  getPost,
  HOUR,
  iso,
  mustPost,
  START,
  setBrand,
  slotsOf,
  type World,
  world,
} from "./helpers.ts";

const now = at(START); // Monday 5 January 2026, 10:00 UTC
const SLOTS = [
  { weekday: "monday", time: "12:00" },
  { weekday: "tuesday", time: "12:00" },
  { weekday: "wednesday", time: "12:00" },
];

describeEachDialect("approvals", (dialect) => {
  let w: World;
  let approver: string; // a second key that may approve (never the one that created the post)
  let approverId: string;
  let writer: string; // a key without posts:approve
  let admin: string; // people, by user token
  let editor: string;
  let owner: string;
  beforeAll(async () => {
    w = await world(dialect);
    approver = await key(w.t.app, w.a.orgId, { name: "approver", scopes: ["posts:read", "posts:approve"] });
    approverId = (await w.t.request("GET", "/v1/me", { key: approver })).body.api_key.id;
    writer = await key(w.t.app, w.a.orgId, { name: "writer", scopes: ["posts:read", "posts:write"] });
    admin = await personToken(w.t.app, w.a.orgId, "admin");
    editor = await personToken(w.t.app, w.a.orgId, "editor");
    owner = await personToken(w.t.app, w.a.orgId, "owner");
    await setBrand(w.t, w.a.testKey, w.a.brandId, {
      timezone: "UTC",
      slots: SLOTS,
      approval_policy: "required_for_editors_and_keys",
    });
  });
  afterAll(() => w.t.close());

  const post = (credential: string, body: Record<string, unknown> = {}, brand = w.a.brandId) =>
    createPost(w.t, credential, { brand, content: { body: "Needs a look." }, ...body });
  const approve = (id: string, credential = approver, body: Record<string, unknown> = {}) =>
    w.t.request("POST", `/v1/posts/${id}/approve`, { key: credential, body });
  const reject = (id: string, credential = approver, body: Record<string, unknown> = {}) =>
    w.t.request("POST", `/v1/posts/${id}/reject`, { key: credential, body });
  const statusOf = async (credential: string, body: Record<string, unknown> = {}, brand?: string) => {
    const r = await post(credential, body, brand);
    expect(r.status).toBe(201);
    return [r.body.status, r.body.approval.required, r.body.targets[0].status];
  };

  test("brand policy decides: none, required_for_editors_and_keys, required_for_all", async () => {
    const none = await brandWithChannel(w.t, w.a.testKey, { name: "Open", approval_policy: "none" });
    expect(await statusOf(w.a.testKey, {}, none.brand)).toEqual(["scheduled", false, "queued"]);
    expect(await statusOf(editor, {}, none.brand)).toEqual(["scheduled", false, "queued"]);

    // required_for_editors_and_keys: keys and editors wait, admins and owners do not.
    expect(await statusOf(w.a.testKey)).toEqual(["pending_approval", true, "held"]);
    expect(await statusOf(editor)).toEqual(["pending_approval", true, "held"]);
    expect(await statusOf(admin)).toEqual(["scheduled", false, "queued"]);
    expect(await statusOf(owner)).toEqual(["scheduled", false, "queued"]);

    const all = await brandWithChannel(w.t, w.a.testKey, {
      name: "Strict",
      approval_policy: "required_for_all",
    });
    expect(await statusOf(admin, {}, all.brand)).toEqual(["pending_approval", true, "held"]);
    expect(await statusOf(owner, {}, all.brand)).toEqual(["pending_approval", true, "held"]);
  });

  test("a template's approval overrides the brand: required always, not_required never", async () => {
    const open = await brandWithChannel(w.t, w.a.testKey, { name: "Open T", approval_policy: "none" });
    const strict = await brandWithChannel(w.t, w.a.testKey, {
      name: "Strict T",
      approval_policy: "required_for_all",
    });
    const template = (brand: string, k: string, approval: string) =>
      w.t.request("POST", "/v1/templates", {
        key: owner,
        body: {
          brand,
          key: k,
          approval,
          variables: { type: "object", properties: { n: { type: "string" } }, required: ["n"] },
          examples: [{ n: "1" }],
          body: "Number {{.n}}",
        },
      });
    expect((await template(open.brand, "gated", "required")).status).toBe(201);
    expect((await template(strict.brand, "trusted", "not_required")).status).toBe(201);
    expect((await template(strict.brand, "plain", "inherit")).status).toBe(201);
    const use = (k: string, brand: string, credential = w.a.testKey) =>
      statusOf(credential, { content: undefined, template: k, data: { n: "7" } }, brand);
    expect(await use("gated", open.brand)).toEqual(["pending_approval", true, "held"]);
    expect(await use("gated", open.brand, owner)).toEqual(["pending_approval", true, "held"]);
    expect(await use("trusted", strict.brand)).toEqual(["scheduled", false, "queued"]);
    expect(await use("plain", strict.brand)).toEqual(["pending_approval", true, "held"]);
  });

  test("one event per fact: waiting for approval is approval.requested alone, the name the spec gives", async () => {
    const post = await mustPost(w.t, w.a.testKey, { brand: w.a.brandId, content: { body: "Once" } });
    expect(post.status).toBe("pending_approval");
    const types = await eventTypes(w.t, w.a.orgId, post.id);
    expect(types.filter((t) => t.includes("approval"))).toEqual(["approval.requested"]);
    // The second name is gone from the event types, so no endpoint waits for an event that never comes.
    const hook = await w.t.request("POST", "/v1/webhook_endpoints", {
      key: w.a.testKey,
      body: { url: "https://example.com/hook", enabled_events: ["post.approval_requested"] },
    });
    expect([hook.status, hook.body.code]).toEqual([422, "event_type_invalid"]);
  });

  test("a pending next_slot post holds its targets and no slot; it asks for approval in events", async () => {
    const r = await post(w.a.testKey, { publish_at: "next_slot" });
    expect(r.status).toBe(201);
    expect(schemaErrors("Post", r.body)).toBe("");
    expect(r.body).toMatchObject({
      status: "pending_approval",
      publish_at: null,
      publish_by: null,
      slot: true,
      approval: { required: true, reviewed_by: null, reviewed_by_key: null, reviewed_at: null, note: null },
    });
    expect(r.body.targets[0]).toMatchObject({ status: "held", next_attempt_at: null, publish_by: null });
    expect(await slotsOf(w.t, r.body.id)).toEqual([]);
    expect(await eventTypes(w.t, w.a.orgId, r.body.id)).toEqual(["post.created", "approval.requested"]);
    const audit = (await auditRows(w.t, w.a.orgId, "post.create")).find((x) => x.target === r.body.id);
    expect(audit?.detail).toEqual({ channels: 1, approval: true });
    // Free slots stay free: a next_slot post of an admin takes the first one.
    const adminPost = await mustPost(w.t, admin, {
      brand: w.a.brandId,
      content: { body: "x" },
      publish_at: "next_slot",
    });
    expect(adminPost.publish_at).toBe("2026-01-05T12:00:00.000Z");
    await w.t.request("POST", `/v1/posts/${adminPost.id}/cancel`, { key: w.a.testKey });
    await w.t.request("POST", `/v1/posts/${r.body.id}/cancel`, { key: w.a.testKey });
  });

  test("approve takes the next free slot in approval order: B approved first gets the earlier slot", async () => {
    const a = await mustPost(w.t, w.a.testKey, {
      brand: w.a.brandId,
      content: { body: "A" },
      publish_at: "next_slot",
    });
    const b = await mustPost(w.t, w.a.testKey, {
      brand: w.a.brandId,
      content: { body: "B" },
      publish_at: "next_slot",
    });
    w.clock.advance(HOUR); // 11:00
    const rb = await approve(b.id, approver, { note: "Ship it." });
    expect(rb.status).toBe(200);
    expect(schemaErrors("Post", rb.body)).toBe("");
    expect(rb.body).toMatchObject({
      status: "scheduled",
      publish_at: "2026-01-05T12:00:00.000Z",
      publish_by: "2026-01-06T12:00:00.000Z",
      slot: true,
      approval: {
        required: true,
        reviewed_by: null,
        reviewed_by_key: approverId,
        reviewed_at: iso(now + HOUR),
        note: "Ship it.",
      },
    });
    expect(rb.body.targets[0]).toMatchObject({
      status: "queued",
      next_attempt_at: "2026-01-05T12:00:00.000Z",
      publish_by: "2026-01-06T12:00:00.000Z",
    });
    const ra = await approve(a.id);
    expect(ra.body.publish_at).toBe("2026-01-06T12:00:00.000Z");
    expect(await slotsOf(w.t, b.id)).toEqual(["2026-01-05T12:00:00.000Z"]);
    expect(await slotsOf(w.t, a.id)).toEqual(["2026-01-06T12:00:00.000Z"]);
    expect(await eventTypes(w.t, w.a.orgId, b.id)).toEqual([
      "post.created",
      "approval.requested",
      "post.approved",
    ]);
    const audit = (await auditRows(w.t, w.a.orgId, "post.approve")).find((x) => x.target === b.id);
    expect([audit?.api_key_id, audit?.detail]).toEqual([approverId, { note: "Ship it." }]);
    // A person approves too, and is named as the reviewer.
    const c = await mustPost(w.t, w.a.testKey, {
      brand: w.a.brandId,
      content: { body: "C" },
      publish_at: "next_slot",
    });
    const rc = await approve(c.id, admin);
    expect(rc.status).toBe(200);
    expect(rc.body.publish_at).toBe("2026-01-07T12:00:00.000Z");
    expect(rc.body.approval.reviewed_by).toMatch(/^user_/);
    expect(rc.body.approval.reviewed_by_key).toBeNull();
    for (const p of [a, b, c]) await w.t.request("POST", `/v1/posts/${p.id}/cancel`, { key: w.a.testKey });
    w.clock.set(now);
  });

  test("a pending post with its own time keeps it when approved", async () => {
    const when = iso(now + 5 * HOUR);
    const p = await mustPost(w.t, w.a.testKey, {
      brand: w.a.brandId,
      content: { body: "t" },
      publish_at: when,
    });
    expect([p.status, p.publish_at, p.targets[0].status]).toEqual(["pending_approval", when, "held"]);
    const r = await approve(p.id);
    expect([r.status, r.body.publish_at, r.body.slot]).toEqual([200, when, false]);
    expect(r.body.targets[0]).toMatchObject({ status: "queued", next_attempt_at: when });
  });

  test("the creating key is forbidden; a key without posts:approve is scope_missing", async () => {
    const p = await mustPost(w.t, w.a.testKey, { brand: w.a.brandId, content: { body: "mine" } });
    const self = await approve(p.id, w.a.testKey);
    expect([self.status, self.body.code]).toEqual([403, "forbidden"]);
    const selfReject = await reject(p.id, w.a.testKey);
    expect([selfReject.status, selfReject.body.code]).toEqual([403, "forbidden"]);
    const noScope = await approve(p.id, writer);
    expect([noScope.status, noScope.body.code]).toEqual([403, "scope_missing"]);
    // An editor lacks the role.
    const ed = await approve(p.id, editor);
    expect([ed.status, ed.body.code]).toEqual([403, "forbidden"]);
    expect((await getPost(w.t, w.a.testKey, p.id)).status).toBe("pending_approval");
  });

  test("post_not_pending (409) approving twice or rejecting an approved post", async () => {
    const p = await mustPost(w.t, w.a.testKey, { brand: w.a.brandId, content: { body: "twice" } });
    expect((await approve(p.id)).status).toBe(200);
    const again = await approve(p.id);
    expect([again.status, again.body.code]).toEqual([409, "post_not_pending"]);
    const rej = await reject(p.id);
    expect([rej.status, rej.body.code]).toEqual([409, "post_not_pending"]);
    // A post that never needed approval is not pending either.
    const open = await mustPost(w.t, admin, { brand: w.a.brandId, content: { body: "open" } });
    expect((await approve(open.id)).body.code).toBe("post_not_pending");
  });

  test("reject: the post is rejected, its targets canceled and its slot freed", async () => {
    // An exact slot time: a pending post with a time holds that slot until it is rejected.
    const p = await mustPost(w.t, w.a.testKey, {
      brand: w.a.brandId,
      content: { body: "no" },
      publish_at: "2026-01-12T12:00:00Z",
    });
    expect([p.status, p.slot]).toEqual(["pending_approval", true]);
    expect(await slotsOf(w.t, p.id)).toEqual(["2026-01-12T12:00:00.000Z"]);
    const r = await reject(p.id, approver, { note: "Off brand." });
    expect(r.status).toBe(200);
    expect(schemaErrors("Post", r.body)).toBe("");
    expect(r.body).toMatchObject({
      status: "rejected",
      approval: { reviewed_by_key: approverId, note: "Off brand.", reviewed_at: START },
    });
    expect(r.body.targets.map((x: { status: string }) => x.status)).toEqual(["canceled"]);
    expect(await slotsOf(w.t, p.id)).toEqual([]);
    expect(await eventTypes(w.t, w.a.orgId, p.id)).toEqual([
      "post.created",
      "approval.requested",
      "post.rejected",
    ]);
    // Rejected is final: nothing is left to cancel or approve.
    expect((await w.t.request("POST", `/v1/posts/${p.id}/cancel`, { key: w.a.testKey })).body.code).toBe(
      "post_not_cancelable",
    );
    expect((await approve(p.id)).body.code).toBe("post_not_pending");
    // The freed slot can be taken again.
    const q = await mustPost(w.t, admin, {
      brand: w.a.brandId,
      content: { body: "yes" },
      publish_at: "2026-01-12T12:00:00Z",
    });
    expect(await slotsOf(w.t, q.id)).toEqual(["2026-01-12T12:00:00.000Z"]);
  });

  test("no_slot_before_publish_by (409) leaves the post pending and holding nothing", async () => {
    const deadline = iso(now + HOUR); // every slot is at least two hours away
    const p = await mustPost(w.t, w.a.testKey, {
      brand: w.a.brandId,
      content: { body: "soon" },
      publish_at: "next_slot",
      publish_by: deadline,
    });
    expect([p.publish_at, p.publish_by]).toEqual([null, deadline]);
    const r = await approve(p.id);
    expect(r.status).toBe(409);
    expect(r.body).toMatchObject({ code: "no_slot_before_publish_by", param: "publish_by" });
    expect(r.body.details.next_slot).toMatch(/^2026-01-\d\dT12:00:00.000Z$/);
    const after = await getPost(w.t, w.a.testKey, p.id);
    expect([after.status, after.publish_at, after.approval.reviewed_at]).toEqual([
      "pending_approval",
      null,
      null,
    ]);
    expect(after.targets[0].status).toBe("held");
    expect(await slotsOf(w.t, p.id)).toEqual([]);
    expect(await eventTypes(w.t, w.a.orgId, p.id)).not.toContain("post.approved");
  });

  test("slots_full (409) on approve leaves the post pending", async () => {
    const b = await brandWithChannel(w.t, w.a.testKey, {
      name: "Full Weekly",
      timezone: "UTC",
      slots: [{ weekday: "thursday", time: "08:00" }],
    });
    for (let i = 0; i < 8; i++)
      await mustPost(w.t, w.a.testKey, {
        brand: b.brand,
        content: { body: `f${i}` },
        publish_at: "next_slot",
      });
    await setBrand(w.t, w.a.testKey, b.brand, { approval_policy: "required_for_all" });
    const p = await mustPost(w.t, w.a.testKey, {
      brand: b.brand,
      content: { body: "late" },
      publish_at: "next_slot",
    });
    expect([p.status, p.publish_at]).toEqual(["pending_approval", null]);
    const r = await approve(p.id);
    expect([r.status, r.body.code]).toEqual([409, "slots_full"]);
    const after = await getPost(w.t, w.a.testKey, p.id);
    expect([after.status, after.publish_at, after.targets[0].status]).toEqual([
      "pending_approval",
      null,
      "held",
    ]);
    // A week later the window has moved and approval succeeds with the new slot.
    w.clock.set("2026-01-09T00:00:00Z");
    const ok = await approve(p.id);
    expect([ok.status, ok.body.publish_at]).toEqual([200, "2026-03-05T08:00:00.000Z"]);
    w.clock.set(now);
  });
});
