// The /v1 conventions every route shares: auth codes, problem details, request IDs, unknown fields, bodies,
// pagination, idempotency, 404/405 and security headers.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { FakeClock } from "../../src/lib/clock.ts";
import { type TestApp, testApp } from "../helpers/app.ts";
import { describeEachDialect } from "../helpers/db.ts";
import { type Tenant, tenant } from "../helpers/factories.ts";

describeEachDialect("/v1 conventions", (dialect) => {
  let t: TestApp;
  let a: Tenant;
  beforeAll(async () => {
    t = await testApp(dialect);
    a = await tenant(t.app);
  });
  afterAll(() => t.close());

  test("GET /v1/me names the org and mode of the key", async () => {
    const r = await t.request("GET", "/v1/me", { key: a.testKey });
    expect(r.status).toBe(200);
    expect(r.body.object).toBe("me");
    expect(r.body.livemode).toBe(false);
    expect(r.body.org.id).toBe(a.orgId);
    expect(r.body.api_key.hint).toBe(`…${a.testKey.slice(-4)}`);
    expect(r.headers.get("request-id")).toMatch(/^req_[0-9a-z]{26}$/);
    expect(r.headers.get("cache-control")).toBe("no-store");
    expect(r.headers.get("x-content-type-options")).toBe("nosniff");
    expect(r.headers.get("x-frame-options")).toBe("DENY");
    expect(r.headers.get("referrer-policy")).toBe("same-origin");
    expect(r.headers.get("ratelimit-limit")).toBe("100");
    const live = await t.request("GET", "/v1/me", { key: a.liveKey });
    expect(live.body.livemode).toBe(true);
  });

  test("credential problems answer 401 with their codes and WWW-Authenticate", async () => {
    const none = await t.request("GET", "/v1/me");
    expect(none.status).toBe(401);
    expect(none.body.code).toBe("api_key_missing");
    expect(none.headers.get("www-authenticate")).toBe('Bearer realm="svc"');
    expect(none.headers.get("content-type")).toBe("application/problem+json");
    expect(none.body.request_id).toBe(none.headers.get("request-id"));
    expect(none.body.doc_url).toContain("#api_key_missing");

    const malformed = await t.request("GET", "/v1/me", { key: "nope" });
    expect(malformed.body.code).toBe("api_key_invalid");
    // Right shape, wrong checksum: refused without a lookup.
    const flipped = a.testKey.slice(0, -1) + (a.testKey.endsWith("A") ? "B" : "A");
    expect((await t.request("GET", "/v1/me", { key: flipped })).body.code).toBe("api_key_invalid");
  });

  test("problem details for unknown routes and methods", async () => {
    const r = await t.request("GET", "/v1/nothing", { key: a.testKey });
    expect(r.status).toBe(404);
    expect(r.body.code).toBe("route_unknown");
    const m = await t.request("DELETE", "/v1/brands", { key: a.testKey });
    expect(m.status).toBe(405);
    expect(m.body.code).toBe("method_not_allowed");
    expect(m.headers.get("allow")).toBe("GET, POST");
  });

  test("bodies: bad JSON, non-objects, unknown fields, wrong types, too large, not UTF-8", async () => {
    const bad = await t.request("POST", "/v1/brands", { key: a.testKey, raw: "{nope" });
    expect([bad.status, bad.body.code]).toEqual([400, "json_invalid"]);
    const arr = await t.request("POST", "/v1/brands", { key: a.testKey, raw: "[1]" });
    expect(arr.body.code).toBe("json_invalid");
    const unknown = await t.request("POST", "/v1/brands", {
      key: a.testKey,
      body: { name: "X", colour: "red" },
    });
    expect([unknown.status, unknown.body.code, unknown.body.param]).toEqual([
      400,
      "parameter_unknown",
      "colour",
    ]);
    const type = await t.request("POST", "/v1/brands", { key: a.testKey, body: { name: 5 } });
    expect([type.status, type.body.code, type.body.param]).toEqual([400, "parameter_invalid", "name"]);
    const missing = await t.request("POST", "/v1/brands", { key: a.testKey, body: {} });
    expect([missing.status, missing.body.code, missing.body.param]).toEqual([
      400,
      "parameter_missing",
      "name",
    ]);
    const huge = await t.request("POST", "/v1/brands", {
      key: a.testKey,
      raw: JSON.stringify({ name: "x".repeat(1024 * 1024) }),
    });
    expect([huge.status, huge.body.code]).toEqual([400, "body_too_large"]);
    const res = await t.http.handle(
      new Request("http://localhost/v1/brands", {
        method: "POST",
        headers: { authorization: `Bearer ${a.testKey}` },
        body: new Uint8Array([0x7b, 0xff, 0xfe, 0x7d]),
      }),
    );
    expect(((await res.json()) as { code: string }).code).toBe("body_unreadable");
  });

  test("bodies with a declared length: read whole, still held to 1 MiB and to UTF-8", async () => {
    const send = (body: string | Uint8Array, length: number) =>
      t.http.handle(
        new Request("http://localhost/v1/brands", {
          method: "POST",
          headers: {
            authorization: `Bearer ${a.testKey}`,
            "content-type": "application/json",
            "content-length": String(length),
          },
          body,
        }),
      );
    const name = JSON.stringify({ name: "Declared Length" });
    const ok = await send(name, Buffer.byteLength(name));
    expect(ok.status).toBe(201);
    expect(((await ok.json()) as { name: string }).name).toBe("Declared Length");
    const declaredOver = await send(name, 1024 * 1024 + 1);
    expect(((await declaredOver.json()) as { code: string }).code).toBe("body_too_large");
    // An in-process Request can carry more than it declares: the limit holds for what it carries.
    const carriedOver = await send(JSON.stringify({ name: "x".repeat(1024 * 1024) }), 10);
    expect(((await carriedOver.json()) as { code: string }).code).toBe("body_too_large");
    const notUtf8 = await send(new Uint8Array([0x7b, 0xff, 0xfe, 0x7d]), 4);
    expect(((await notUtf8.json()) as { code: string }).code).toBe("body_unreadable");
    const empty = await send("", 0);
    expect(((await empty.json()) as { code: string; param: string }).param).toBe("name");
  });

  test("unknown query parameters are refused", async () => {
    const r = await t.request("GET", "/v1/brands?colour=red", { key: a.testKey });
    expect([r.status, r.body.code, r.body.param]).toEqual([400, "parameter_unknown", "colour"]);
  });

  test("a 422 lists every broken rule", async () => {
    const r = await t.request("POST", "/v1/brands", {
      key: a.testKey,
      body: {
        name: "",
        slug: "Not A Slug",
        timezone: "Mars/Olympus",
        approval_policy: "sometimes",
        utm_domains: ["not a host"],
      },
    });
    expect(r.status).toBe(422);
    expect(r.body.errors.map((e: { code: string }) => e.code).sort()).toEqual(
      [
        "approval_policy_invalid",
        "name_invalid",
        "slug_invalid",
        "timezone_invalid",
        "utm_domain_invalid",
      ].sort(),
    );
  });

  test("cursor pagination walks both ways with no overlap", async () => {
    for (let i = 0; i < 5; i++)
      expect(
        (await t.request("POST", "/v1/brands", { key: a.testKey, body: { name: `Page ${i}` } })).status,
      ).toBe(201);
    const first = await t.request("GET", "/v1/brands?limit=2", { key: a.testKey });
    expect(first.body.object).toBe("list");
    expect(first.body.url).toBe("/v1/brands");
    expect(first.body.data.map((b: { name: string }) => b.name)).toEqual(["Page 4", "Page 3"]);
    expect(first.body.has_more).toBe(true);
    const second = await t.request("GET", `/v1/brands?limit=2&starting_after=${first.body.data[1].id}`, {
      key: a.testKey,
    });
    expect(second.body.data.map((b: { name: string }) => b.name)).toEqual(["Page 2", "Page 1"]);
    const back = await t.request("GET", `/v1/brands?limit=2&ending_before=${second.body.data[0].id}`, {
      key: a.testKey,
    });
    expect(back.body.data.map((b: { name: string }) => b.name)).toEqual(["Page 4", "Page 3"]);
    const both = await t.request(
      "GET",
      `/v1/brands?starting_after=${first.body.data[0].id}&ending_before=${first.body.data[1].id}`,
      { key: a.testKey },
    );
    expect([both.status, both.body.code]).toEqual([400, "parameter_conflict"]);
    const wrongType = await t.request("GET", `/v1/brands?starting_after=${a.orgId}`, { key: a.testKey });
    expect([wrongType.status, wrongType.body.code]).toEqual([400, "parameter_invalid"]);
    const badLimit = await t.request("GET", "/v1/brands?limit=101", { key: a.testKey });
    expect(badLimit.body.code).toBe("parameter_invalid");
  });

  test("Idempotency-Key replays a success and refuses a different body", async () => {
    const h = { "Idempotency-Key": "brand-create-1" };
    const one = await t.request("POST", "/v1/brands", {
      key: a.testKey,
      body: { name: "Idem" },
      headers: h,
    });
    expect(one.status).toBe(201);
    const two = await t.request("POST", "/v1/brands", {
      key: a.testKey,
      body: { name: "Idem" },
      headers: h,
    });
    expect(two.status).toBe(201);
    expect(two.headers.get("idempotent-replayed")).toBe("true");
    expect(two.body.id).toBe(one.body.id);
    const other = await t.request("POST", "/v1/brands", {
      key: a.testKey,
      body: { name: "Idem 2" },
      headers: h,
    });
    expect([other.status, other.body.code]).toEqual([409, "idempotency_key_reused"]);
    const long = await t.request("POST", "/v1/brands", {
      key: a.testKey,
      body: { name: "Idem 3" },
      headers: { "Idempotency-Key": "x".repeat(256) },
    });
    expect([long.status, long.body.code]).toEqual([422, "idempotency_key_invalid"]);
    // A failed request does not keep its key.
    const h2 = { "Idempotency-Key": "fails-first" };
    expect(
      (await t.request("POST", "/v1/brands", { key: a.testKey, body: { name: "" }, headers: h2 })).status,
    ).toBe(422);
    expect(
      (await t.request("POST", "/v1/brands", { key: a.testKey, body: { name: "Fixed" }, headers: h2 }))
        .status,
    ).toBe(201);
  });

  test("a running claim answers idempotency_key_in_use", async () => {
    const { claim } = await import("../../src/domain/idempotency/service.ts");
    const { fingerprintOf } = await import("../../src/domain/idempotency/service.ts");
    const me = await t.request("GET", "/v1/me", { key: a.testKey });
    await claim(
      t.app,
      me.body.api_key.id,
      "busy",
      fingerprintOf("POST", "/v1/brands", JSON.stringify({ name: "Busy" })),
    );
    const r = await t.request("POST", "/v1/brands", {
      key: a.testKey,
      body: { name: "Busy" },
      headers: { "Idempotency-Key": "busy" },
    });
    expect([r.status, r.body.code]).toEqual([409, "idempotency_key_in_use"]);
  });

  test("rate limit: burst of 100, then 429 with Retry-After, refilled at 25 per second", async () => {
    const clock = new FakeClock();
    const t2 = await testApp(dialect, { clock });
    try {
      const b = await tenant(t2.app);
      let last = await t2.request("GET", "/v1/me", { key: b.testKey });
      expect(Number(last.headers.get("ratelimit-remaining"))).toBe(99);
      for (let i = 0; i < 99; i++) last = await t2.request("GET", "/v1/me", { key: b.testKey });
      expect(last.status).toBe(200);
      expect(last.headers.get("ratelimit-reset")).toBe("4");
      const over = await t2.request("GET", "/v1/me", { key: b.testKey });
      expect([over.status, over.body.code]).toEqual([429, "rate_limited"]);
      expect(over.headers.get("retry-after")).toBe("1");
      // Another key has its own bucket.
      expect((await t2.request("GET", "/v1/me", { key: b.liveKey })).status).toBe(200);
      clock.advance(1000);
      for (let i = 0; i < 25; i++)
        expect((await t2.request("GET", "/v1/me", { key: b.testKey })).status).toBe(200);
      expect((await t2.request("GET", "/v1/me", { key: b.testKey })).status).toBe(429);
    } finally {
      await t2.close();
    }
  });

  test("healthz, readyz and the OpenAPI document need no credential", async () => {
    expect((await t.request("GET", "/healthz")).status).toBe(200);
    expect((await t.request("GET", "/readyz")).body.status).toBe("ready");
    const doc = await t.http.handle(new Request("http://localhost/v1/openapi.yaml"));
    expect(doc.headers.get("content-type")).toBe("application/yaml");
    expect(await doc.text()).toContain("openapi: 3.1.0");
  });
});
