// Input the pipeline refuses for every route alike, before any route or database sees it (the same way on SQLite
// and Postgres): text no database stores (NUL, lone surrogates) in body, query and path; numbers JSON cannot carry
// back; JSON nested too deep for a recursive walk; fields sent to a route that takes none; bodies not sent as
// JSON; a rule's parameter_invalid is 400 like a wrong type's; query integers are digits only. And HSTS when the
// base URL is https.
import { afterAll, beforeAll, expect, test } from "bun:test";
import type * as v from "valibot";
import { createOperatorKey } from "../../src/domain/identity/auth/operator.ts";
import { MAX_JSON_DEPTH } from "../../src/domain/input.ts";
import { v1Routes } from "../../src/http/api/v1/index.ts";
import { RateLimiter } from "../../src/http/ratelimit.ts";
import { type TestApp, testApp } from "../helpers/app.ts";
import { describeEachDialect } from "../helpers/db.ts";
import { type Tenant, tenant } from "../helpers/factories.ts";

/** The route's path with every parameter filled in (the refusals come before any lookup). */
const filled = (path: string) => path.replace(/:[a-z_]+/g, "x_1");
type Shape = { entries?: Record<string, unknown>; options?: Shape[] };
/** The first field of a body schema (of its first shape, where a body may take several, such as a media upload). */
const firstField = (schema: v.GenericSchema): string => {
  const s = schema as unknown as Shape;
  return Object.keys(s.entries ?? s.options![0]!.entries!)[0]!;
};
const nested = (depth: number) => `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`;

describeEachDialect("bad input, refused alike on every route", (dialect) => {
  let t: TestApp;
  let a: Tenant;
  let operator: string;
  beforeAll(async () => {
    t = await testApp(dialect);
    operator = (await createOperatorKey(t.app, "input")).secret;
    // These tests send far more than one burst with one key; the limiter is tested elsewhere.
    t.http.ctx.limiter = new RateLimiter(1e9, 1e9);
    a = await tenant(t.app);
  });
  afterAll(() => t.close());

  const send = (
    method: string,
    path: string,
    raw?: string,
    contentType: string | null = "application/json",
  ) =>
    t.http
      .handle(
        new Request(`http://localhost${path}`, {
          method,
          headers: {
            // The operator API takes the operator's key; every other route an org's.
            authorization: `Bearer ${path.startsWith("/v1/operator/") ? operator : a.testKey}`,
            ...(contentType === null ? {} : { "content-type": contentType }),
          },
          ...(raw === undefined ? {} : { body: raw }),
        }),
      )
      .then(async (r) => ({
        status: r.status,
        body: (await r.json()) as Record<string, unknown>,
        headers: r.headers,
      }));
  const refusal = (r: { status: number; body: Record<string, unknown> }) => [
    r.status,
    r.body.code,
    r.body.param,
  ];
  const brandCount = async () =>
    Number(
      (
        await t.app.db
          .selectFrom("brands")
          .select((eb) => eb.fn.countAll().as("n"))
          .where("org_id", "=", a.orgId)
          .executeTakeFirstOrThrow()
      ).n,
    );

  test("NUL and lone surrogates in any body field of any route: 400 parameter_invalid naming the field", async () => {
    const withBody = v1Routes.filter((r) => r.method !== "GET" && r.body);
    expect(withBody.length).toBeGreaterThan(15);
    for (const r of withBody) {
      const field = firstField(r.body!);
      for (const bad of ['"a\\u0000b"', '"\\ud800"', '"x\\udc00y"']) {
        const res = await send(r.method, filled(r.path), `{"${field}":${bad}}`);
        expect([r.path, ...refusal(res)]).toEqual([r.path, 400, "parameter_invalid", field]);
      }
    }
    // Nested values and object keys (metadata keys are stored as they are).
    const inMeta = await send("POST", "/v1/posts", '{"brand":"x","metadata":{"k\\u0000":"v"}}');
    expect(refusal(inMeta)).toEqual([400, "parameter_invalid", "metadata.k\u0000"]);
    const inList = await send(
      "POST",
      "/v1/webhook_endpoints",
      '{"url":"https://e.com","enabled_events":["\\u0000"]}',
    );
    expect(refusal(inList)).toEqual([400, "parameter_invalid", "enabled_events.0"]);
    // A surrogate pair is a character like any other.
    const emoji = await send("POST", "/v1/brands", '{"name":"Brand \\ud83d\\ude00"}');
    expect([emoji.status, emoji.body.name]).toEqual([201, "Brand 😀"]);
  });

  test("NUL in query values and names, and in path parameters", async () => {
    // (A URL cannot carry a lone surrogate: invalid UTF-8 in it decodes to U+FFFD, which is storable.)
    for (const q of ["q=a%00b", "brand=%00", "status=%00", "metadata[k%00]=v"]) {
      const r = await send("GET", `/v1/posts?${q}`);
      expect([q, r.status, r.body.code]).toEqual([q, 400, "parameter_invalid"]);
    }
    expect(refusal(await send("GET", "/v1/posts?q=a%00b"))).toEqual([400, "parameter_invalid", "q"]);
    for (const path of ["/v1/brands/a%00b", "/v1/posts/post_%00", "/v1/webhook_endpoints/%00/roll_secret"]) {
      const r = await send(path.endsWith("secret") ? "POST" : "GET", path);
      expect([path, r.status, r.body.code, r.body.param]).toEqual([path, 400, "parameter_invalid", "id"]);
    }
  });

  test("numbers out of JSON's range (1e309) and a rule's parameter_invalid (1.5) are 400 like a wrong type", async () => {
    const me = (await send("GET", "/v1/me")).body as { api_key: { id: string } };
    const path = `/v1/api_keys/${me.api_key.id}/roll`;
    for (const raw of [
      '{"overlap_hours":1e309}',
      '{"overlap_hours":1.5}',
      '{"overlap_hours":169}',
      '{"overlap_hours":"2"}',
    ]) {
      expect([raw, ...refusal(await send("POST", path, raw))]).toEqual([
        raw,
        400,
        "parameter_invalid",
        "overlap_hours",
      ]);
    }
    const deep = await send(
      "POST",
      "/v1/brands",
      '{"name":"N","slots":[{"weekday":"monday","time":-1e309}]}',
    );
    expect(refusal(deep)).toEqual([400, "parameter_invalid", "slots.0.time"]);
  });

  test("JSON nested 50,000 deep in variables or data: 400 before any recursive walk", async () => {
    const variables = await send(
      "POST",
      "/v1/templates/preview",
      `{"body":"x","variables":${nested(50_000)}}`,
    );
    expect(refusal(variables)).toEqual([400, "parameter_invalid", "variables"]);
    const data = await send(
      "POST",
      "/v1/posts",
      `{"brand":"${a.brandId}","template":"t","data":${nested(50_000)}}`,
    );
    expect(refusal(data)).toEqual([400, "parameter_invalid", "data"]);
    const arrays = await send("POST", "/v1/posts", `{"data":${"[".repeat(400_000)}${"]".repeat(400_000)}}`);
    expect(refusal(arrays)).toEqual([400, "parameter_invalid", "data"]);
    // The limit, not a lower one, decides: just under it the route's own rules answer.
    const under = await send(
      "POST",
      "/v1/posts",
      `{"brand":"${a.brandId}","data":${nested(MAX_JSON_DEPTH - 2)}}`,
    );
    expect(under.status).not.toBe(500);
    expect(under.body.code === "parameter_invalid" && under.body.param === "data").toBe(false);
  });

  test("routes that take no body refuse any field (parameter_unknown)", async () => {
    const bodyless = v1Routes.filter((r) => r.method !== "GET" && !r.body);
    expect(bodyless.map((r) => r.path)).toContain("/v1/posts/:id/cancel");
    for (const r of bodyless) {
      const res = await send(r.method, filled(r.path), '{"force":true}');
      expect([r.method, r.path, ...refusal(res)]).toEqual([
        r.method,
        r.path,
        400,
        "parameter_unknown",
        "force",
      ]);
    }
    // Empty bodies, and `{}`, are still fine (the lookup answers).
    const me = (await send("GET", "/v1/me")).body as { api_key: { id: string } };
    expect((await send("POST", "/v1/posts/post_01ke00000000000000000000/cancel", "{}")).body.code).toBe(
      "resource_missing",
    );
    expect((await send("POST", "/v1/posts/post_01ke00000000000000000000/cancel")).body.code).toBe(
      "resource_missing",
    );
    expect(me.api_key.id).toMatch(/^key_/);
  });

  test("a body not sent as JSON is refused (json_invalid) and writes nothing", async () => {
    const before = await brandCount();
    const plain = await send("POST", "/v1/brands", '{"name":"Plain Text"}', "text/plain");
    expect(refusal(plain)).toEqual([400, "json_invalid", "Content-Type"]);
    const form = await send("POST", "/v1/brands", "name=Form", "application/x-www-form-urlencoded");
    expect(refusal(form)).toEqual([400, "json_invalid", "Content-Type"]);
    const multipart = await send("POST", "/v1/brands", '{"name":"M"}', "multipart/form-data; boundary=x");
    expect(refusal(multipart)).toEqual([400, "json_invalid", "Content-Type"]);
    expect(await brandCount()).toBe(before);
    // JSON with a charset, a +json type, or no Content-Type at all (as curl and most clients send) are JSON.
    expect(
      (await send("POST", "/v1/brands", '{"name":"Charset"}', "application/json; charset=utf-8")).status,
    ).toBe(201);
    expect(
      (await send("POST", "/v1/brands", '{"name":"Merge"}', "application/merge-patch+json")).status,
    ).toBe(201);
    expect((await send("POST", "/v1/brands", '{"name":"Bare"}', null)).status).toBe(201);
  });

  test("query integers are digits only: limit=1e2, 0x10, 5.0 and ' 5' are parameter_invalid", async () => {
    for (const limit of ["1e2", "0x10", "5.0", "%205", "-1", "0", "101"]) {
      const r = await send("GET", `/v1/brands?limit=${limit}`);
      expect([limit, ...refusal(r)]).toEqual([limit, 400, "parameter_invalid", "limit"]);
    }
    expect((await send("GET", "/v1/brands?limit=100")).status).toBe(200);
  });

  test("HSTS only when the base URL is https, on every answer", async () => {
    expect((await send("GET", "/v1/me")).headers.get("strict-transport-security")).toBeNull();
    const https = await testApp(dialect, {
      url: t.dbUrl,
      env: { SVC_MASTER_KEYS: t.masterKeys, SVC_BASE_URL: "https://svc.example.com" },
    });
    try {
      for (const [path, key] of [
        ["/v1/me", a.testKey],
        ["/v1/me", undefined],
        ["/v1/nothing", a.testKey],
        ["/healthz", undefined],
      ] as const) {
        const r = await https.request("GET", path, key ? { key } : {});
        expect([path, r.headers.get("strict-transport-security")]).toEqual([path, "max-age=63072000"]);
      }
    } finally {
      await https.close();
    }
  });
});
