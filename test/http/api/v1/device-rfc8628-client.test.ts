// The device endpoints driven by an independent RFC 8628 client: openid-client's device authorization grant,
// configured with svc's endpoints as the authorization server's metadata, over a real HTTP server on 127.0.0.1.
// It starts a sign-in, polls while a person approves (or denies), and receives the user token.
import { afterAll, beforeAll, expect, test } from "bun:test";
import * as client from "openid-client";
import {
  approveDeviceAuthorization,
  denyDeviceAuthorization,
  findDeviceAuthorization,
} from "../../../../src/domain/identity/devices/service.ts";
import { type TestApp, testApp } from "../../../helpers/app.ts";
import { describeEachDialect } from "../../../helpers/db.ts";
import { type Tenant, tenant } from "../../../helpers/factories.ts";
import { personActor } from "../../../helpers/person.ts";

describeEachDialect("device sign-in with openid-client", (dialect) => {
  let t: TestApp;
  let a: Tenant;
  let server: ReturnType<typeof Bun.serve>;
  let config: client.Configuration;
  beforeAll(async () => {
    t = await testApp(dialect);
    a = await tenant(t.app, "RFC Org");
    server = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      fetch: (req, srv) => t.http.handle(req, srv.requestIP(req)?.address ?? null),
    });
    const base = `http://127.0.0.1:${server.port}`;
    config = new client.Configuration(
      {
        issuer: base,
        device_authorization_endpoint: `${base}/v1/auth/device`,
        token_endpoint: `${base}/v1/auth/device/token`,
      },
      "svc-cli",
      undefined,
      client.None(),
    );
    client.allowInsecureRequests(config);
  });
  afterAll(async () => {
    server.stop(true);
    await t.close();
  });

  test("approved while the client polls: it receives a working user token", async () => {
    const started = await client.initiateDeviceAuthorization(config, {
      device_name: "rfc-laptop",
      livemode: "false",
    });
    expect(started.user_code).toMatch(/^[A-Z]{4}-[A-Z]{4}$/);
    expect(started.interval).toBe(5);
    expect(started.expires_in).toBe(900);
    const owner = await personActor(t.app, a.userId, a.orgId);
    const seen = await findDeviceAuthorization(t.app, owner, started.user_code);
    expect(seen.ip).toBe("127.0.0.1");
    expect(seen.device_name).toBe("rfc-laptop");
    // The client's first poll comes after `interval` seconds; the first answer it sees is still pending when
    // the approval comes late, so approve after 6 s: the client has polled once (authorization_pending) by then.
    const polling = client.pollDeviceAuthorizationGrant(config, started);
    await Bun.sleep(6_000);
    await approveDeviceAuthorization(t.app, owner, {
      userCode: started.user_code,
      confirmedAt: Date.now(),
    });
    const tokens = await polling;
    expect(tokens.token_type).toBe("bearer");
    expect(tokens.access_token).toMatch(/^svc_user_/);
    const me = await t.request("GET", "/v1/me", { key: tokens.access_token });
    expect(me.status).toBe(200);
    expect(me.body.user.id).toBe(a.userId);
    expect(me.body.livemode).toBe(false);
  }, 30_000);

  test("denied: the client fails with the RFC's access_denied", async () => {
    const started = await client.initiateDeviceAuthorization(config, { device_name: "rfc-other" });
    const owner = await personActor(t.app, a.userId, a.orgId);
    await denyDeviceAuthorization(t.app, owner, { userCode: started.user_code });
    const err = await client.pollDeviceAuthorizationGrant(config, started).catch((e) => e);
    expect(err).toBeInstanceOf(client.ResponseBodyError);
    expect((err as client.ResponseBodyError).error).toBe("access_denied");
  }, 30_000);

  test("a bad device name: the client sees invalid_request", async () => {
    const err = await client
      .initiateDeviceAuthorization(config, { device_name: "x".repeat(101) })
      .catch((e) => e);
    expect(err).toBeInstanceOf(client.ResponseBodyError);
    expect((err as client.ResponseBodyError).error).toBe("invalid_request");
    expect((err as client.ResponseBodyError).cause).toMatchObject({ code: "device_name_invalid" });
  });
});
