// Drafts and editing before publishing (issue "post lifecycle"): a draft is saved with its rule problems shown,
// takes no slot and is never claimed; it is scheduled by an edit (draft: false) or a reschedule, checked then as a
// create is. POST /v1/posts/{id} changes what it names, re-checks everything (422 lists every problem and writes
// nothing), keeps the targets of channels it keeps, writes post.updated with previous_attributes and an audit
// row with before and after; a post with an attempt is post_not_editable; an edit needing approval sends an
// approved post back to pending_approval (freeing a next_slot slot); other orgs and the other mode see nothing.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { claimTargets } from "../../../src/queue/publish/claim.ts";
import { describeEachDialect } from "../../helpers/db.ts";
import { key } from "../../helpers/factories.ts";
import { schemaErrors } from "../../helpers/schemas.ts";
import { personToken } from "../../http/api/v1/template-helpers.ts";
import {
  at,
  auditRows,
  brandWithChannel,
  codes,
  counts,
  createPost,
  events,
  getPost,
  HOUR,
  iso,
  mustPost,
  otherTenant,
  START,
  setBrand,
  setTargets,
  slotsOf,
  type World,
  world,
} from "./helpers.ts";

const now = at(START); // Monday 5 January 2026, 10:00 UTC
const LONG = "x".repeat(400); // over Bluesky's 300 graphemes
const SLOTS = [
  { weekday: "monday", time: "12:00" },
  { weekday: "tuesday", time: "12:00" },
];

describeEachDialect("drafts and editing before publishing", (dialect) => {
  let w: World;
  beforeAll(async () => {
    w = await world(dialect);
  });
  afterAll(() => w.t.close());

  const edit = (id: string, body: Record<string, unknown>, k = w.a.testKey, headers = {}) =>
    w.t.request("POST", `/v1/posts/${id}`, { key: k, body, headers });
  const draft = (body: Record<string, unknown>, brand = w.a.brandId) =>
    mustPost(w.t, w.a.testKey, { brand, draft: true, ...body });
  /** Claims everything due far ahead: a draft must never be among it. */
  const claimAll = async () => (await claimTargets(w.t.app, 100, now + 400 * 24 * HOUR)).map((c) => c.target);
  const releaseClaims = async () => {
    await w.t.app.db.deleteFrom("channel_locks").execute();
  };

  test("a draft is saved with its rule problems shown, needs no time, takes no slot and is never claimed", async () => {
    const p = await draft({ content: { body: LONG } });
    expect(schemaErrors("Post", p)).toBe("");
    expect(p.status).toBe("draft");
    expect(p.publish_at).toBeNull();
    expect(p.problems.map((x: { code: string }) => x.code)).toContain("too_long");
    expect(p.targets.map((t: { status: string }) => t.status)).toEqual(["draft"]);
    expect(await slotsOf(w.t, p.id)).toEqual([]);
    expect((await claimAll()).map((t) => t.post_id)).not.toContain(p.id);
    // Listed and filtered like other posts.
    const list = await w.t.request("GET", "/v1/posts?status=draft", { key: w.a.testKey });
    expect(list.status).toBe(200);
    expect(list.body.data.map((x: { id: string }) => x.id)).toContain(p.id);
    expect(list.body.data.every((x: { status: string }) => x.status === "draft")).toBe(true);
  });

  test("a draft with no text yet is kept, its problems listed; a wrong field type is still refused", async () => {
    const p = await draft({});
    expect(p.problems.map((x: { code: string }) => x.code)).toEqual(["content_missing"]);
    expect(p.targets).toEqual([]);
    const bad = await createPost(w.t, w.a.testKey, { brand: w.a.brandId, draft: "yes" });
    expect(bad.status).toBe(400);
  });

  test("scheduling a draft checks every rule (422, nothing written); fixed, it is queued and announced", async () => {
    const p = await draft({ content: { body: LONG }, publish_at: iso(now + 3 * HOUR) });
    expect(p.publish_at).toBe(iso(now + 3 * HOUR));
    const before = await counts(w.t, w.a.orgId);
    const refused = await edit(p.id, { draft: false });
    expect(refused.status).toBe(422);
    expect(codes(refused)).toEqual([`too_long channels.${w.channel}`]);
    expect(await counts(w.t, w.a.orgId)).toEqual(before);
    expect((await getPost(w.t, w.a.testKey, p.id)).status).toBe("draft");

    const ok = await edit(p.id, { draft: false, content: { body: "Short and sweet." } });
    expect(ok.status).toBe(200);
    expect(schemaErrors("Post", ok.body)).toBe("");
    expect([ok.body.status, ok.body.publish_at, ok.body.problems]).toEqual([
      "scheduled",
      iso(now + 3 * HOUR),
      [],
    ]);
    expect(ok.body.targets[0].id).toBe(p.targets[0].id);
    expect(ok.body.targets[0].status).toBe("queued");
    expect(ok.body.targets[0].parts).toEqual(["Short and sweet."]);
    const evs = await events(w.t, w.a.orgId, p.id);
    const updated = evs.find((e) => e.type === "post.updated")!;
    expect(updated.data.object.status).toBe("scheduled");
    expect(updated.data.previous_attributes!.status).toBe("draft");
  });

  test("a reschedule gives a draft its time and schedules it; cancel discards a draft", async () => {
    const p = await draft({ content: { body: "Later." } });
    const r = await w.t.request("POST", `/v1/posts/${p.id}/reschedule`, {
      key: w.a.testKey,
      body: { publish_at: iso(now + 5 * HOUR) },
    });
    expect(r.status).toBe(200);
    expect([r.body.status, r.body.publish_at, r.body.targets[0].status]).toEqual([
      "scheduled",
      iso(now + 5 * HOUR),
      "queued",
    ]);
    const gone = await draft({ content: { body: "Never mind." } });
    const c = await w.t.request("POST", `/v1/posts/${gone.id}/cancel`, { key: w.a.testKey });
    expect(c.status).toBe(200);
    expect([c.body.status, c.body.targets[0].status]).toEqual(["canceled", "canceled"]);
    const empty = await draft({});
    const c2 = await w.t.request("POST", `/v1/posts/${empty.id}/cancel`, { key: w.a.testKey });
    expect([c2.status, c2.body.status]).toEqual([200, "canceled"]);
    expect((await edit(empty.id, { content: { body: "Back?" } })).body.code).toBe("post_not_editable");
  });

  test("an edit changes only what it names, keeps the target, and is recorded with before and after", async () => {
    const p = await mustPost(w.t, w.a.testKey, {
      brand: w.a.brandId,
      content: { body: "First words." },
      publish_at: iso(now + 2 * HOUR),
      metadata: { campaign: "spring" },
    });
    const r = await edit(p.id, { content: { body: "Better words." } });
    expect(r.status).toBe(200);
    expect(schemaErrors("Post", r.body)).toBe("");
    expect(r.body.targets.map((t: { id: string }) => t.id)).toEqual(
      p.targets.map((t: { id: string }) => t.id),
    );
    expect(r.body.targets[0].parts).toEqual(["Better words."]);
    expect([r.body.status, r.body.publish_at, r.body.metadata]).toEqual([
      "scheduled",
      iso(now + 2 * HOUR),
      { campaign: "spring" },
    ]);
    const ev = (await events(w.t, w.a.orgId, p.id)).filter((e) => e.type === "post.updated");
    expect(ev).toHaveLength(1);
    const prev = ev[0]!.data.previous_attributes!;
    expect(prev.content).toEqual({ body: "First words." });
    expect(prev.publish_at).toBeUndefined();
    const [row] = (await auditRows(w.t, w.a.orgId, "post.update")).filter((a) => a.target === p.id);
    expect(row!.detail.before.content).toEqual({ body: "First words." });
    expect(row!.detail.after.content).toEqual({ body: "Better words." });
    // A new time moves it like a reschedule; the deadline follows.
    const moved = await edit(p.id, { publish_at: iso(now + 4 * HOUR) });
    expect([moved.body.publish_at, moved.body.publish_by, moved.body.targets[0].parts]).toEqual([
      iso(now + 4 * HOUR),
      iso(now + 28 * HOUR),
      ["Better words."],
    ]);
  });

  test("an edit that breaks rules is refused with every problem and writes nothing", async () => {
    const p = await mustPost(w.t, w.a.testKey, {
      brand: w.a.brandId,
      content: { body: "Fine." },
      publish_at: iso(now + 2 * HOUR),
    });
    const before = await counts(w.t, w.a.orgId);
    const r = await edit(p.id, {
      content: { body: LONG },
      media: ["media_01jzzzzzzzzzzzzzzzzzzzzzzz"],
      publish_at: "soon",
    });
    expect(r.status).toBe(422);
    expect(codes(r).map((c) => c.split(" ")[0])).toEqual(
      expect.arrayContaining(["too_long", "media_missing", "publish_at_invalid"]),
    );
    expect(await counts(w.t, w.a.orgId)).toEqual(before);
    expect((await getPost(w.t, w.a.testKey, p.id)).targets[0].parts).toEqual(["Fine."]);
  });

  test("channels: a kept channel keeps its target, a dropped one loses it, a new one gains one", async () => {
    const second = await w.t.request("POST", "/v1/channels", {
      key: w.a.testKey,
      body: { brand: w.a.brandId, provider: "sandbox", emulates: "mastodon" },
    });
    expect(second.status).toBe(201);
    const p = await mustPost(w.t, w.a.testKey, {
      brand: w.a.brandId,
      content: { body: "Where?" },
      channels: [w.channel],
      publish_at: iso(now + 2 * HOUR),
    });
    const both = await edit(p.id, { channels: [w.channel, second.body.id] });
    expect(both.status).toBe(200);
    expect(both.body.targets.map((t: { channel: string }) => t.channel).sort()).toEqual(
      [w.channel, second.body.id].sort(),
    );
    expect(both.body.targets.find((t: { channel: string }) => t.channel === w.channel).id).toBe(
      p.targets[0].id,
    );
    const only = await edit(p.id, { channels: [second.body.id] });
    expect(only.body.targets.map((t: { channel: string }) => t.channel)).toEqual([second.body.id]);
    // The second channel goes back to where it was, so the other tests see one channel.
    await w.t.request("POST", `/v1/channels/${second.body.id}/disable`, { key: w.a.testKey });
    await w.t.app.db
      .updateTable("channels")
      .set({ status: "disabled" })
      .where("id", "=", second.body.id)
      .execute();
  });

  test("a post with a publish attempt, or finished, is post_not_editable (409)", async () => {
    const p = await mustPost(w.t, w.a.testKey, {
      brand: w.a.brandId,
      content: { body: "Tried." },
      publish_at: iso(now + 2 * HOUR),
    });
    await setTargets(w.t, p.id, { attempts: 1, status: "failed" });
    const r = await edit(p.id, { content: { body: "Too late." } });
    expect([r.status, r.body.code]).toEqual([409, "post_not_editable"]);
    const q = await mustPost(w.t, w.a.testKey, {
      brand: w.a.brandId,
      content: { body: "Gone." },
      publish_at: iso(now + 2 * HOUR),
    });
    await w.t.request("POST", `/v1/posts/${q.id}/cancel`, { key: w.a.testKey });
    expect((await edit(q.id, { content: { body: "Back?" } })).body.code).toBe("post_not_editable");
  });

  test("other orgs and the other mode cannot see or edit the post", async () => {
    const p = await draft({ content: { body: "Mine." } });
    const other = await otherTenant(w.t);
    const r = await edit(p.id, { content: { body: "Theirs." } }, other.a.testKey);
    expect([r.status, r.body.code]).toEqual([404, "resource_missing"]);
    const live = await edit(p.id, { content: { body: "Live." } }, w.a.liveKey);
    expect([live.status, live.body.code]).toEqual([404, "resource_missing"]);
    expect((await getPost(w.t, w.a.testKey, p.id)).targets[0].parts).toEqual(["Mine."]);
  });

  test("an edit with an idempotency key is done once", async () => {
    const p = await draft({ content: { body: "Once." } });
    const h = { "Idempotency-Key": `edit-${p.id}` };
    const a = await edit(p.id, { content: { body: "Twice?" } }, w.a.testKey, h);
    const b = await edit(p.id, { content: { body: "Twice?" } }, w.a.testKey, h);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(b.body).toEqual(a.body);
    expect((await events(w.t, w.a.orgId, p.id)).filter((e) => e.type === "post.updated")).toHaveLength(1);
  });

  test("the worker's claim and an edit: whichever commits first wins, the old text never goes out after an accepted edit", async () => {
    // Claim first: the edit is refused and what was claimed is the text as it was.
    const a = await mustPost(w.t, w.a.testKey, { brand: w.a.brandId, content: { body: "Old A." } });
    await releaseClaims();
    const claimed = await claimAll();
    expect(claimed.find((t) => t.post_id === a.id)?.parts).toBe(JSON.stringify(["Old A."]));
    const late = await edit(a.id, { content: { body: "New A." } });
    expect([late.status, late.body.code]).toEqual([409, "post_not_editable"]);
    await setTargets(w.t, a.id, { status: "canceled" });
    await releaseClaims();

    // Edit first: the claim reads the new text.
    const b = await mustPost(w.t, w.a.testKey, { brand: w.a.brandId, content: { body: "Old B." } });
    expect((await edit(b.id, { content: { body: "New B." } })).status).toBe(200);
    const got = (await claimAll()).find((t) => t.post_id === b.id);
    expect(got?.parts).toBe(JSON.stringify(["New B."]));
    await setTargets(w.t, b.id, { status: "canceled" });
    await releaseClaims();

    // At the same moment, many times: either the edit is refused, or the claim (now or later) has the new text.
    for (let i = 0; i < 12; i++) {
      const p = await mustPost(w.t, w.a.testKey, { brand: w.a.brandId, content: { body: `Old ${i}.` } });
      const [e, c] = await Promise.all([
        edit(p.id, { content: { body: `New ${i}.` } }),
        claimTargets(w.t.app, 100, now + HOUR),
      ]);
      const mine =
        c.find((x) => x.target.post_id === p.id)?.target ??
        (await claimAll()).find((t) => t.post_id === p.id);
      expect(mine).toBeDefined();
      if (e.status === 200) expect(mine!.parts).toBe(JSON.stringify([`New ${i}.`]));
      else {
        expect([e.status, e.body.code]).toEqual([409, "post_not_editable"]);
        expect(mine!.parts).toBe(JSON.stringify([`Old ${i}.`]));
      }
      await setTargets(w.t, p.id, { status: "canceled" });
      await releaseClaims();
    }
  });
});

describeEachDialect("an edit on a brand that requires approval", (dialect) => {
  let w: World;
  let approver: string;
  let admin: string;
  let brand: string;
  beforeAll(async () => {
    w = await world(dialect);
    approver = await key(w.t.app, w.a.orgId, { name: "approver", scopes: ["posts:read", "posts:approve"] });
    admin = await personToken(w.t.app, w.a.orgId, "admin");
    ({ brand } = await brandWithChannel(w.t, w.a.testKey, { name: "Careful", slug: "careful" }));
    await setBrand(w.t, w.a.testKey, brand, {
      timezone: "UTC",
      slots: SLOTS,
      approval_policy: "required_for_editors_and_keys",
    });
  });
  afterAll(() => w.t.close());

  test("an approved next_slot post edited by a key waits for approval again and frees its slot", async () => {
    const p = await mustPost(w.t, w.a.testKey, {
      brand,
      content: { body: "Check me." },
      publish_at: "next_slot",
    });
    expect(p.status).toBe("pending_approval");
    const ok = await w.t.request("POST", `/v1/posts/${p.id}/approve`, { key: approver, body: {} });
    expect([ok.status, ok.body.status, ok.body.publish_at]).toEqual([
      200,
      "scheduled",
      "2026-01-05T12:00:00.000Z",
    ]);
    expect(await slotsOf(w.t, p.id)).toEqual(["2026-01-05T12:00:00.000Z"]);

    const r = await w.t.request("POST", `/v1/posts/${p.id}`, {
      key: w.a.testKey,
      body: { content: { body: "Checked? Changed." } },
    });
    expect(r.status).toBe(200);
    expect([r.body.status, r.body.publish_at, r.body.approval.reviewed_by_key]).toEqual([
      "pending_approval",
      null,
      null,
    ]);
    expect(r.body.targets[0].status).toBe("held");
    expect(await slotsOf(w.t, p.id)).toEqual([]);
    const types = (await events(w.t, w.a.orgId, p.id)).map((e) => e.type);
    expect(types.slice(-2)).toEqual(["post.updated", "approval.requested"]);
    // Approved again, it takes the next free slot.
    const again = await w.t.request("POST", `/v1/posts/${p.id}/approve`, { key: approver, body: {} });
    expect([again.body.status, again.body.publish_at]).toEqual(["scheduled", "2026-01-05T12:00:00.000Z"]);
  });

  test("an admin's edit needs no approval: the approved post stays scheduled", async () => {
    const p = await mustPost(w.t, w.a.testKey, {
      brand,
      content: { body: "Admin fix." },
      publish_at: iso(now + 3 * HOUR),
    });
    await w.t.request("POST", `/v1/posts/${p.id}/approve`, { key: approver, body: {} });
    const r = await w.t.request("POST", `/v1/posts/${p.id}`, {
      key: admin,
      body: { content: { body: "Fixed." } },
    });
    expect([r.status, r.body.status, r.body.targets[0].status]).toEqual([200, "scheduled", "queued"]);
  });
});
