// A channel naming its own server (a Mastodon instance, a Bluesky PDS) at an address svc may not reach is refused
// at connect, and the refusal names SVC_ALLOW_PRIVATE_NETWORKS, the setting that would allow it.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { type TestApp, testApp } from "../../helpers/app.ts";
import { describeEachDialect } from "../../helpers/db.ts";
import { type Tenant, tenant } from "../../helpers/factories.ts";

describeEachDialect("a network server at a non-public address", (dialect) => {
  let t: TestApp;
  let a: Tenant;
  beforeAll(async () => {
    t = await testApp(dialect);
    a = await tenant(t.app);
  });
  afterAll(() => t.close());

  const connect = (provider: string, fields: Record<string, string>) =>
    t.request("POST", "/v1/channels", { key: a.liveKey, body: { brand: a.brandId, provider, fields } });

  for (const [provider, server, fields] of [
    ["mastodon", "http://localhost:9", { instance: "http://localhost:9", access_token: "token" }],
    ["mastodon", "http://10.1.2.3", { instance: "http://10.1.2.3", access_token: "token" }],
    [
      "bluesky",
      "http://127.0.0.1:9",
      { identifier: "me.test", app_password: "a-b-c-d", service: "http://127.0.0.1:9" },
    ],
  ] as const) {
    test(`${provider} at ${server} is connect_failed naming the setting; nothing is saved`, async () => {
      const r = await connect(provider, fields);
      expect([r.status, r.body.code]).toEqual([422, "connect_failed"]);
      expect(r.body.errors[0].message).toContain("non-public address");
      expect(r.body.errors[0].message).toContain("SVC_ALLOW_PRIVATE_NETWORKS");
      const list = await t.request("GET", "/v1/channels", { key: a.liveKey });
      expect(list.body.data).toEqual([]);
    });
  }
});
