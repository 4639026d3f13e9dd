// A rolled key is the same credential as the key it replaced (its lineage): it cannot approve or reject a post
// its predecessor created, it shares the rate limit and the Idempotency-Key store; and a key has at most one live
// successor at a time, so rolling cannot turn one credential into several live keys.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { adminActor } from "../../src/domain/actor.ts";
import { rollApiKey } from "../../src/domain/identity/api-keys/service.ts";
import { scopesOfRole } from "../../src/domain/scopes.ts";
import { RateLimiter } from "../../src/http/ratelimit.ts";
import { describeEachDialect } from "../helpers/db.ts";
import { key } from "../helpers/factories.ts";
import { createPost, setBrand, type World, world } from "./posts/helpers.ts";

describeEachDialect("API key lineage", (dialect) => {
  let w: World;
  let approver: string;
  beforeAll(async () => {
    w = await world(dialect);
    approver = await key(w.t.app, w.a.orgId, { name: "approver", scopes: ["posts:read", "posts:approve"] });
    await setBrand(w.t, w.a.testKey, w.a.brandId, { approval_policy: "required_for_all" });
  });
  afterAll(() => w.t.close());

  const req = (method: string, path: string, credential: string, body?: unknown, headers = {}) =>
    w.t.request(method, path, { key: credential, ...(body === undefined ? {} : { body }), headers });
  const idOf = async (credential: string) => (await req("GET", "/v1/me", credential)).body.api_key.id;
  /** A key that may write and approve posts, as a member would make it. */
  const author = (name: string) =>
    key(w.t.app, w.a.orgId, { name, scopes: ["posts:read", "posts:write", "posts:approve", "keys:write"] });
  const pending = async (credential: string) => {
    const r = await createPost(w.t, credential, {
      brand: w.a.brandId,
      content: { body: "Four eyes, please." },
      publish_at: new Date(w.clock.now() + 86400_000).toISOString(),
    });
    expect([r.status, r.body.status]).toEqual([201, "pending_approval"]);
    return r.body.id as string;
  };

  test("a post's creator cannot review it through a rolled successor, by any roll route", async () => {
    const k1 = await author("author");
    const post = await pending(k1);
    // Self roll, then a roll of the successor by a member (only a member may pass on posts:approve): the chain
    // stays one credential.
    const refused = async (keys: string[]) => {
      for (const k of keys) {
        for (const action of ["approve", "reject"]) {
          const r = await req("POST", `/v1/posts/${post}/${action}`, k, {});
          expect([action, r.status, r.body.code]).toEqual([action, 403, "forbidden"]);
        }
      }
    };
    const k2 = (await req("POST", "/v1/api_keys/self/roll", k1, { overlap_hours: 1 })).body.secret;
    await refused([k1, k2]);
    const owner = adminActor(w.a.orgId, "apikeys roll", scopesOfRole("owner"));
    const k3 = (await rollApiKey(w.t.app, owner, await idOf(k2), { overlap_hours: 1 })).secret!;
    await refused([k2, k3]);
    // The successor's own posts are its predecessor's too.
    const post2 = await pending(k3);
    expect((await req("POST", `/v1/posts/${post2}/approve`, k2, {})).status).toBe(403);
    // Another credential reviews as before.
    const ok = await req("POST", `/v1/posts/${post}/approve`, approver, {});
    expect([ok.status, ok.body.status]).toEqual([200, "scheduled"]);
  });

  test("at most one live successor: a second roll during the overlap is key_inactive (409)", async () => {
    const k1 = await author("roller");
    const first = await req("POST", "/v1/api_keys/self/roll", k1, { overlap_hours: 24 });
    expect(first.status).toBe(201);
    const again = await req("POST", "/v1/api_keys/self/roll", k1, { overlap_hours: 24 });
    expect([again.status, again.body.code, again.body.details?.rolled_to]).toEqual([
      409,
      "key_inactive",
      first.body.id,
    ]);
    const byId = await req("POST", `/v1/api_keys/${await idOf(k1)}/roll`, w.a.testKey, {});
    expect([byId.status, byId.body.code]).toEqual([409, "key_inactive"]);
    // The successor rolls on; once the successor is revoked the old key (still in its overlap) may roll again.
    const k2 = first.body.secret;
    expect((await req("POST", `/v1/api_keys/${first.body.id}/revoke`, w.a.testKey)).status).toBe(200);
    expect((await req("POST", "/v1/api_keys/self/roll", k1, {})).status).toBe(201);
    expect((await req("GET", "/v1/me", k2)).body.code).toBe("api_key_expired");
    const live = await w.t.app.db
      .selectFrom("api_keys")
      .select("id")
      .where("lineage_id", "=", await idOf(k1))
      .where("revoked_at", "is", null)
      .execute();
    expect(live.length).toBe(2); // the old key in its overlap and one successor
  });

  test("a lineage has at most two live keys: rolling the successor ends the first key's overlap", async () => {
    const k1 = await key(w.t.app, w.a.orgId, { name: "chain", scopes: ["posts:read"] });
    const k2 = (await req("POST", "/v1/api_keys/self/roll", k1, { overlap_hours: 24 })).body.secret;
    expect((await req("GET", "/v1/me", k1)).status).toBe(200);
    const k3 = (await req("POST", "/v1/api_keys/self/roll", k2, { overlap_hours: 24 })).body.secret;
    expect((await req("GET", "/v1/me", k1)).body.code).toBe("api_key_expired");
    expect((await req("GET", "/v1/me", k2)).status).toBe(200); // in its overlap
    expect((await req("GET", "/v1/me", k3)).status).toBe(200);
  });

  test("two rolls of one key at once: exactly one succeeds", async () => {
    // A key without administrative scopes, so another key may roll it by ID too.
    const k1 = await key(w.t.app, w.a.orgId, { name: "racer", scopes: ["posts:read"] });
    const id = await idOf(k1);
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        i % 2
          ? req("POST", "/v1/api_keys/self/roll", k1, {})
          : req("POST", `/v1/api_keys/${id}/roll`, w.a.testKey, {}),
      ),
    );
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([201, 409, 409, 409, 409, 409]);
    const successors = await w.t.app.db
      .selectFrom("api_keys")
      .select("id")
      .where("rolled_from", "=", id)
      .execute();
    expect(successors.length).toBe(1);
  });

  test("a rolled key shares its predecessor's rate limit and Idempotency-Key store", async () => {
    const k1 = await author("shared");
    const k2 = (await req("POST", "/v1/api_keys/self/roll", k1, { overlap_hours: 1 })).body.secret;
    const body = { brand: w.a.brandId, content: { body: "Once." } };
    const made = await createPost(w.t, k1, body, { "Idempotency-Key": "shared-1" });
    expect(made.status).toBe(201);
    const retried = await createPost(w.t, k2, body, { "Idempotency-Key": "shared-1" });
    expect([retried.status, retried.body.id]).toEqual([201, made.body.id]);
    expect(retried.headers.get("idempotent-replayed")).toBe("true");

    const limiter = w.t.http.ctx.limiter;
    w.t.http.ctx.limiter = new RateLimiter(0.001, 2);
    try {
      expect((await req("GET", "/v1/me", k1)).status).toBe(200);
      expect((await req("GET", "/v1/me", k1)).status).toBe(200);
      const third = await req("GET", "/v1/me", k2);
      expect([third.status, third.body.code]).toEqual([429, "rate_limited"]);
    } finally {
      w.t.http.ctx.limiter = limiter;
    }
  });
});
