// For the access test: how to make an object each /v1 route with path parameters can address, in org A's test
// mode. A feature that adds a route with parameters adds its entry here (the access test fails without one).
import type { TestApp } from "../helpers/app.ts";
import { key, type Tenant } from "../helpers/factories.ts";
import { testEndpoint, testEvent } from "../helpers/webhooks.ts";

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
  "GET /v1/events/:id": async (t, a) => ({
    params: { id: (await testEvent(t.app, a)).id },
    modeScoped: true,
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

async function keyId(t: TestApp, a: Tenant): Promise<string> {
  const secret = await key(t.app, a.orgId, { name: "fixture" });
  const me = await t.request("GET", "/v1/me", { key: secret });
  return me.body.api_key.id;
}
