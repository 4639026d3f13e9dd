// Unknown fields are listed all at once in one 400 `parameter_unknown` (valibot stops at an object's first), each
// with a "did you mean" where a known name is close: in bodies (nested objects too), queries, routes that take no
// body, and MCP tool arguments, whose problems carry the request's real ID.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import * as v from "valibot";
import { closestName, parse } from "../../src/domain/validate.ts";
import { ServiceError } from "../../src/lib/errors.ts";
import { type TestApp, testApp } from "../helpers/app.ts";
import { describeEachDialect } from "../helpers/db.ts";
import { type Tenant, tenant } from "../helpers/factories.ts";

const listed = (body: { errors: { param: string; message: string }[] }) =>
  body.errors.map((e) => `${e.param}: ${e.message}`);

describe("closestName", () => {
  test("a typo, a swap, a case slip or a missing letter finds the name; an unrelated word does not", () => {
    const known = ["brand", "channels", "publish_at", "publish_by", "metadata", "content"];
    expect(closestName("brnd", known)).toBe("brand");
    expect(closestName("chanels", known)).toBe("channels");
    expect(closestName("Brand", known)).toBe("brand");
    expect(closestName("publishat", known)).toBe("publish_at");
    expect(closestName("metdata", known)).toBe("metadata");
    expect(closestName("foo", known)).toBeUndefined();
    expect(closestName("x", known)).toBeUndefined();
    expect(closestName("brand", [])).toBeUndefined();
  });

  test("parse lists every unknown field of every object, each at its path", () => {
    const schema = v.strictObject({
      name: v.string(),
      inner: v.optional(v.strictObject({ body: v.string(), fit: v.optional(v.string()) })),
      list: v.optional(v.array(v.strictObject({ id: v.string() }))),
    });
    let err: ServiceError | undefined;
    try {
      parse(schema, {
        name: "n",
        nmae: 1,
        zzz: 2,
        inner: { bdy: "x", body: "y", fitt: 1 },
        list: [{ id: "a", idd: 1 }],
      });
    } catch (e) {
      err = e as ServiceError;
    }
    expect(err).toBeInstanceOf(ServiceError);
    expect([err!.status, err!.code]).toEqual([400, "parameter_unknown"]);
    expect(err!.errors!.map((p) => `${p.param}: ${p.message}`).sort()).toEqual(
      [
        "inner.bdy: Unknown parameter inner.bdy. Did you mean body?",
        "inner.fitt: Unknown parameter inner.fitt. Did you mean fit?",
        "list.0.idd: Unknown parameter list.0.idd. Did you mean id?",
        "nmae: Unknown parameter nmae. Did you mean name?",
        "zzz: Unknown parameter zzz.",
      ].sort(),
    );
  });
});

describeEachDialect("unknown parameters over /v1 and MCP", (dialect) => {
  let t: TestApp;
  let a: Tenant;
  beforeAll(async () => {
    t = await testApp(dialect);
    a = await tenant(t.app);
  });
  afterAll(() => t.close());

  test("a body with several unknown fields lists them all in one 400", async () => {
    const r = await t.request("POST", "/v1/brands", {
      key: a.testKey,
      body: { name: "Acme", slug: "acme-x", timezon: "UTC", colour: "red", utm_domain: ["a.com"] },
    });
    expect([r.status, r.body.code, r.body.param]).toEqual([400, "parameter_unknown", "timezon"]);
    expect(r.body.detail).toBe("Unknown parameters: timezon, colour, utm_domain.");
    expect(listed(r.body)).toEqual([
      "timezon: Unknown parameter timezon. Did you mean timezone?",
      "colour: Unknown parameter colour.",
      "utm_domain: Unknown parameter utm_domain. Did you mean utm_domains?",
    ]);
    expect(r.body.doc_url).toEndWith("#parameter_unknown");
  });

  test("one unknown field keeps its one-line answer, with the hint", async () => {
    const r = await t.request("POST", "/v1/posts", {
      key: a.testKey,
      body: { brand: a.brandId, content: { body: "x" }, publish_att: "now" },
    });
    expect([r.status, r.body.param, r.body.detail]).toEqual([
      400,
      "publish_att",
      "Unknown parameter publish_att. Did you mean publish_at?",
    ]);
  });

  test("nested objects are read whole too", async () => {
    const r = await t.request("POST", "/v1/posts/preview", {
      key: a.testKey,
      body: { brand: a.brandId, content: { bdy: "x", fitt: {}, body: "y" } },
    });
    expect(r.status).toBe(400);
    expect(listed(r.body)).toEqual([
      "content.bdy: Unknown parameter content.bdy. Did you mean body?",
      "content.fitt: Unknown parameter content.fitt. Did you mean fit?",
    ]);
  });

  test("query parameters: every unknown one, with the route's names as hints", async () => {
    const r = await t.request("GET", "/v1/posts?limt=5&brnd=x&limit=2&zz=1", { key: a.testKey });
    expect([r.status, r.body.code]).toEqual([400, "parameter_unknown"]);
    expect(listed(r.body)).toEqual([
      "limt: Unknown query parameter limt. Did you mean limit?",
      "brnd: Unknown query parameter brnd. Did you mean brand?",
      "zz: Unknown query parameter zz.",
    ]);
  });

  test("a route that takes no body names every field sent", async () => {
    const r = await t.request("POST", "/v1/posts/post_01ke00000000000000000000/cancel", {
      key: a.testKey,
      body: { force: true, now: 1 },
    });
    expect([r.status, r.body.code, r.body.param]).toEqual([400, "parameter_unknown", "force"]);
    expect(listed(r.body)).toEqual(["force: Unknown parameter force.", "now: Unknown parameter now."]);
  });

  test("MCP tool arguments: all unknown ones at once, and the problem carries the request's real ID", async () => {
    const r = await t.request("POST", "/v1/mcp", {
      key: a.testKey,
      headers: { accept: "application/json, text/event-stream" },
      body: {
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: { name: "list_posts", arguments: { brnd: "x", limt: 5, q: "hi" } },
      },
    });
    expect(r.status).toBe(200);
    const result = r.body.result;
    expect(result.isError).toBe(true);
    const problem = JSON.parse(result.content[0].text);
    expect(problem.code).toBe("parameter_unknown");
    expect(listed(problem)).toEqual([
      "brnd: Unknown parameter brnd. Did you mean brand?",
      "limt: Unknown parameter limt. Did you mean limit?",
    ]);
    // Not "mcp": the ID of this POST /v1/mcp, as its Request-Id header says, so the log line can be found.
    expect(problem.request_id).toMatch(/^req_[0-9a-z]{26}$/);
    expect(problem.request_id).toBe(r.headers.get("request-id"));
    expect(problem.doc_url).toBe("http://localhost:8080/docs/errors#parameter_unknown");
  });
});
