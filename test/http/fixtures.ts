// For the access test: how to make an object each /v1 route with path parameters can address, in org A's test
// mode. A feature that adds a route with parameters adds its entry here (the access test fails without one).
import type { TestApp } from "../helpers/app.ts";
import { key, type Tenant } from "../helpers/factories.ts";

export interface Fixture {
  /** Path parameters that name an object of org A in test mode. */
  params: Record<string, string>;
  /** A body that passes validation, so the lookup decides. */
  body?: unknown;
  /** True when the object belongs to one mode (a live key must not see it). */
  modeScoped: boolean;
}

type Make = (t: TestApp, a: Tenant) => Promise<Fixture>;

export const fixtures: Record<string, Make> = {
  "POST /v1/api_keys/:id/roll": async (t, a) => ({ params: { id: await keyId(t, a) }, modeScoped: true }),
  "POST /v1/api_keys/:id/revoke": async (t, a) => ({ params: { id: await keyId(t, a) }, modeScoped: true }),
  "GET /v1/brands/:id": async (_t, a) => ({ params: { id: a.brandId }, modeScoped: false }),
  "POST /v1/brands/:id": async (_t, a) => ({
    params: { id: a.brandId },
    body: { name: "Renamed" },
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
};

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

async function keyId(t: TestApp, a: Tenant): Promise<string> {
  const secret = await key(t.app, a.orgId, { name: "fixture" });
  const me = await t.request("GET", "/v1/me", { key: secret });
  return me.body.api_key.id;
}
