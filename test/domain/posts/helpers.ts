// Shared by the posts tests: a tenant on a fake clock, shortcuts for the post routes, and direct reads of the
// tables a test checks (events are not readable over /v1 yet; rows are counted to prove a refusal wrote nothing).

import type { Dialect } from "../../../src/db/migration.ts";
import { RateLimiter } from "../../../src/http/ratelimit.ts";
import { FakeClock } from "../../../src/lib/clock.ts";
import { type TestApp, type TestResponse, testApp } from "../../helpers/app.ts";
import { type Tenant, tenant } from "../../helpers/factories.ts";

/** Monday 5 January 2026, 10:00 UTC (11:00 in Berlin): every test starts its clock here. */
export const START = "2026-01-05T10:00:00.000Z";
export const SECOND = 1000;
export const MIN = 60_000;
export const HOUR = 3600_000;
export const DAY = 86400_000;
export const iso = (ms: number) => new Date(ms).toISOString();
export const at = (s: string) => Date.parse(s);

export interface World {
  t: TestApp;
  a: Tenant;
  clock: FakeClock;
  /** The bootstrap channel of the tenant's brand: test-mode sandbox emulating Bluesky. */
  channel: string;
}

export async function world(dialect: Dialect, name?: string): Promise<World> {
  const clock = new FakeClock(Date.parse(START));
  const t = await testApp(dialect, { clock });
  // The rate limiter refills by the app's clock, which stands still here; these tests send far more than one
  // burst per key, so the limiter gets a bucket no test can empty (its own behaviour is tested elsewhere).
  t.http.ctx.limiter = new RateLimiter(1e9, 1e9);
  const a = await tenant(t.app, name);
  const list = await t.request("GET", "/v1/channels", { key: a.testKey });
  return { t, a, clock, channel: list.body.data[0].id };
}

/** Another tenant in the same install (its own org, brand, channel and keys). */
export async function otherTenant(t: TestApp, name?: string): Promise<{ a: Tenant; channel: string }> {
  const a = await tenant(t.app, name);
  const list = await t.request("GET", "/v1/channels", { key: a.testKey });
  return { a, channel: list.body.data[0].id };
}

export const createPost = (t: TestApp, key: string, body: Record<string, unknown>, headers = {}) =>
  t.request("POST", "/v1/posts", { key, body, headers });

/** A post that must be created: fails the test with the problem body otherwise. */
export async function mustPost(t: TestApp, key: string, body: Record<string, unknown>) {
  const r = await createPost(t, key, body);
  if (r.status !== 201) throw new Error(`create failed: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

export const getPost = async (t: TestApp, key: string, id: string) =>
  (await t.request("GET", `/v1/posts/${id}`, { key })).body;

/** `code param` of every problem of a 422, in order. */
export const codes = (r: TestResponse): string[] =>
  (r.body?.errors ?? []).map((e: { code: string; param?: string | null }) => `${e.code} ${e.param ?? ""}`);

/** The brand's slots and zone (and anything else), through the API as an admin would. */
export async function setBrand(t: TestApp, key: string, brand: string, body: Record<string, unknown>) {
  const r = await t.request("POST", `/v1/brands/${brand}`, { key, body });
  if (r.status !== 200) throw new Error(`brand update failed: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

/** A new brand with a test sandbox channel of its own (emulating `emulates`). */
export async function brandWithChannel(
  t: TestApp,
  key: string,
  body: Record<string, unknown>,
  emulates = "bluesky",
): Promise<{ brand: string; channel: string }> {
  const b = await t.request("POST", "/v1/brands", { key, body });
  if (b.status !== 201) throw new Error(`brand create failed: ${b.status} ${JSON.stringify(b.body)}`);
  const c = await t.request("POST", "/v1/channels", {
    key,
    body: { brand: b.body.id, provider: "sandbox", emulates },
  });
  if (c.status !== 201) throw new Error(`channel create failed: ${c.status} ${JSON.stringify(c.body)}`);
  return { brand: b.body.id, channel: c.body.id };
}

/** Event rows of an org, oldest first, optionally only those whose snapshot mentions `objectId`. */
export async function events(t: TestApp, orgId: string, objectId?: string) {
  let q = t.app.db.selectFrom("events").selectAll().where("org_id", "=", orgId);
  if (objectId) q = q.where("data", "like", `%${objectId}%`);
  const rows = await q.orderBy("seq").execute();
  return rows.map((e) => ({
    ...e,
    data: JSON.parse(e.data) as {
      object: Record<string, unknown>;
      previous_attributes?: Record<string, unknown>;
    },
  }));
}

export const eventTypes = async (t: TestApp, orgId: string, objectId?: string) =>
  (await events(t, orgId, objectId)).map((e) => e.type);

export async function auditRows(t: TestApp, orgId: string, action: string) {
  const rows = await t.app.db
    .selectFrom("audit_events")
    .selectAll()
    .where("org_id", "=", orgId)
    .where("action", "=", action)
    .orderBy("id")
    .execute();
  return rows.map((r) => ({ ...r, detail: r.detail === null ? null : JSON.parse(r.detail) }));
}

/** How many rows of posts, targets, slots and events the org has (slots are counted per brand of the org). */
export async function counts(t: TestApp, orgId: string) {
  const n = async (table: "posts" | "post_targets" | "events") =>
    Number(
      (
        await t.app.db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<number>().as("n"))
          .where("org_id", "=", orgId)
          .executeTakeFirstOrThrow()
      ).n,
    );
  const slots = Number(
    (
      await t.app.db
        .selectFrom("post_slots")
        .innerJoin("posts", "posts.id", "post_slots.post_id")
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .where("posts.org_id", "=", orgId)
        .executeTakeFirstOrThrow()
    ).n,
  );
  return { posts: await n("posts"), targets: await n("post_targets"), events: await n("events"), slots };
}

/** The slot rows a post holds, as ISO times. */
export async function slotsOf(t: TestApp, postId: string): Promise<string[]> {
  const rows = await t.app.db
    .selectFrom("post_slots")
    .select("slot_time")
    .where("post_id", "=", postId)
    .orderBy("slot_time")
    .execute();
  return rows.map((r) => iso(Number(r.slot_time)));
}

/** Sets columns of every target of a post directly: what the publish worker would have done. */
export async function setTargets(t: TestApp, postId: string, set: Record<string, unknown>) {
  await t.app.db.updateTable("post_targets").set(set).where("post_id", "=", postId).execute();
}
