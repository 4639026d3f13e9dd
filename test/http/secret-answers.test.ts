// A secret shown once rests nowhere in clear: under an Idempotency-Key, the stored answer of every route that
// shows one (new API key, rolled key, webhook endpoint, rolled webhook secret) is sealed with the org's data key,
// bound to its idempotency_keys row, and a retry still replays the secret. Which routes show one is a property
// of the route (secretOnce), checked here against the route table: a route added later whose answer has a
// `secret` and does not say so fails this test.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { sha256hex } from "../../src/crypto/hash.ts";
import { v1Routes, v1Schemas } from "../../src/http/api/v1/index.ts";
import type { RouteDef } from "../../src/http/route.ts";
import { createHttp } from "../../src/http/server.ts";
import { type TestApp, testApp } from "../helpers/app.ts";
import { describeEachDialect } from "../helpers/db.ts";
import { type Tenant, tenant, userToken } from "../helpers/factories.ts";

/** Answers whose `url` holds the secret (a client review link's address, shown once). */
const SECRET_URL = new Set(["ReviewLink"]);

/** Whether a component schema (or a list of them) has a `secret` property, following $ref. */
function hasSecret(name: string): boolean {
  const schema = v1Schemas[name] as { properties?: Record<string, unknown> } | undefined;
  const props = schema?.properties ?? {};
  if ("secret" in props || (SECRET_URL.has(name) && "url" in props)) return true;
  const data = props.data as { items?: { $ref?: string } } | undefined;
  const ref = data?.items?.$ref?.split("/").pop();
  return ref !== undefined && ref !== name && hasSecret(ref);
}

describe("the route table", () => {
  test("every route whose answer may carry a secret says whether it shows one (secretOnce true or false)", () => {
    const mayShow = v1Routes.filter((r) => r.method === "POST" && hasSecret(r.response));
    for (const r of mayShow) expect([r.path, typeof r.secretOnce]).toEqual([r.path, "boolean"]);
    const showing = mayShow.filter((r) => r.secretOnce).map((r) => r.path);
    expect(showing.sort()).toEqual([
      "/v1/api_keys",
      "/v1/api_keys/:id/roll",
      "/v1/api_keys/self/roll",
      "/v1/reports/share_links",
      "/v1/review_links",
      "/v1/webhook_endpoints",
      "/v1/webhook_endpoints/:id/roll_secret",
    ]);
    for (const r of v1Routes.filter((x) => x.secretOnce)) expect(hasSecret(r.response)).toBe(true);
  });
});

describeEachDialect("secrets in stored idempotent answers", (dialect) => {
  let t: TestApp;
  let a: Tenant;
  beforeAll(async () => {
    t = await testApp(dialect);
    a = await tenant(t.app);
  });
  afterAll(() => t.close());

  const storedBodies = async () =>
    (await t.app.db.selectFrom("idempotency_keys").select(["key", "response_body"]).execute()).map(
      (r) => [r.key, r.response_body ?? ""] as const,
    );

  /** Sends `body` twice under one Idempotency-Key: the replay shows the same secret; the table never does. */
  async function sealedOnce(path: string, body: unknown, credential = a.testKey) {
    const idem = `k-${path}-${Math.random()}`;
    const first = await t.request("POST", path, {
      key: credential,
      body,
      headers: { "Idempotency-Key": idem },
    });
    expect(first.status).toBeLessThan(300);
    const secret: string = first.body.secret;
    expect(secret).toMatch(/^(svc_test_|whsec_)/);
    const stored = (await storedBodies()).find(([k]) => k === idem);
    expect(stored).toBeDefined();
    expect(stored![1]).not.toContain(secret);
    expect(stored![1].startsWith("v1:")).toBe(true);
    const again = await t.request("POST", path, {
      key: credential,
      body,
      headers: { "Idempotency-Key": idem },
    });
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect([again.status, again.body.secret, again.body.id]).toEqual([first.status, secret, first.body.id]);
    return first.body;
  }

  test("POST /v1/api_keys, the key roll routes, webhook endpoint create and roll_secret", async () => {
    const made = await sealedOnce("/v1/api_keys", { name: "sealed", scopes: ["posts:read"] });
    await sealedOnce(`/v1/api_keys/${made.id}/roll`, { overlap_hours: 1 });
    const other = await sealedOnce("/v1/api_keys", { name: "rolls itself", scopes: ["posts:read"] });
    await sealedOnce("/v1/api_keys/self/roll", { overlap_hours: 1 }, other.secret);
    const ep = await sealedOnce("/v1/webhook_endpoints", { url: "https://example.com/hook" });
    await sealedOnce(`/v1/webhook_endpoints/${ep.id}/roll_secret`, { overlap_hours: 1 });
    // Nothing in the table looks like a credential or a signing secret.
    for (const [, body] of await storedBodies()) expect(body).not.toMatch(/svc_(test|live)_|whsec_/);
  });

  test("POST /v1/review_links: the link's address is sealed in the stored answer and replayed", async () => {
    const idem = `review-${Math.random()}`;
    const body = { brand: a.brandId, name: "Sealed client" };
    const send = () =>
      t.request("POST", "/v1/review_links", { key: a.testKey, body, headers: { "Idempotency-Key": idem } });
    const first = await send();
    expect(first.status).toBe(201);
    const token = new URL(first.body.url).pathname.split("/").pop()!;
    expect(token).toMatch(/^svc_review_/);
    const stored = (await storedBodies()).find(([k]) => k === idem)!;
    expect(stored[1]).not.toContain(token);
    expect(stored[1].startsWith("v1:")).toBe(true);
    const again = await send();
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect([again.body.id, again.body.url]).toEqual([first.body.id, first.body.url]);
    for (const [, b] of await storedBodies()) expect(b).not.toContain("svc_review_");
  });

  test("a sealed answer is bound to its row: moved to another key it does not open", async () => {
    const idem = `bound-${Math.random()}`;
    const body = { name: "bound", scopes: ["posts:read"] };
    const first = await t.request("POST", "/v1/api_keys", {
      key: a.testKey,
      body,
      headers: { "Idempotency-Key": idem },
    });
    expect(first.status).toBe(201);
    await t.app.db
      .updateTable("idempotency_keys")
      .set({ key: `${idem}-moved` })
      .where("key", "=", idem)
      .execute();
    const moved = await t.request("POST", "/v1/api_keys", {
      key: a.testKey,
      body,
      headers: { "Idempotency-Key": `${idem}-moved` },
    });
    expect(moved.status).toBe(500);
    expect(JSON.stringify(moved.body)).not.toContain(first.body.secret);
  });

  test("a route that forgets to say it shows a secret still stores none in clear", async () => {
    const forgetful: RouteDef = {
      method: "POST",
      path: "/v1/forgetful",
      tag: "Test",
      summary: "shows a secret without saying so",
      response: "Deleted",
      handler: async () => ({ id: "x_1", secret: "whsec_forgotten" }),
    };
    const http = createHttp(t.app, [forgetful]);
    const send = () =>
      http.handle(
        new Request("http://localhost/v1/forgetful", {
          method: "POST",
          headers: { authorization: `Bearer ${a.testKey}`, "idempotency-key": "forgetful-1" },
        }),
      );
    expect(((await (await send()).json()) as { secret: string }).secret).toBe("whsec_forgotten");
    const stored = (await storedBodies()).find(([k]) => k === "forgetful-1")!;
    expect(stored[1]).not.toContain("whsec_forgotten");
    const again = await send();
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(((await again.json()) as { secret: string }).secret).toBe("whsec_forgotten");
  });

  test("at rest: keys and tokens as SHA-256 hashes, webhook secrets sealed", async () => {
    const k = (await t.request("POST", "/v1/api_keys", { key: a.testKey, body: { name: "hashed" } })).body;
    const row = await t.app.db
      .selectFrom("api_keys")
      .selectAll()
      .where("id", "=", k.id)
      .executeTakeFirstOrThrow();
    expect(row.hash).toBe(sha256hex(k.secret));
    expect(JSON.stringify(row)).not.toContain(k.secret);
    const tok = await userToken(t.app, a.userId);
    const trow = await t.app.db
      .selectFrom("user_tokens")
      .selectAll()
      .where("id", "=", tok.id)
      .executeTakeFirstOrThrow();
    expect(trow.hash).toBe(sha256hex(tok.secret));
    expect(JSON.stringify(trow)).not.toContain(tok.secret);
    const ep = (
      await t.request("POST", "/v1/webhook_endpoints", { key: a.testKey, body: { url: "https://e.com/h" } })
    ).body;
    const erow = await t.app.db
      .selectFrom("webhook_endpoints")
      .selectAll()
      .where("id", "=", ep.id)
      .executeTakeFirstOrThrow();
    expect(erow.secret.startsWith("v1:")).toBe(true);
    expect(JSON.stringify(erow)).not.toContain(ep.secret);
  });

  test("answers without a secret are stored as they are", async () => {
    const idem = `plain-${Math.random()}`;
    const r = await t.request("POST", "/v1/brands", {
      key: a.testKey,
      body: { name: "Plain Brand" },
      headers: { "Idempotency-Key": idem },
    });
    expect(r.status).toBe(201);
    const stored = (await storedBodies()).find(([k]) => k === idem)!;
    expect(JSON.parse(stored[1]).id).toBe(r.body.id);
  });
});
