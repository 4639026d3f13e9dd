// The dashboard offers YouTube and TikTok as sign-in networks in live mode, from the registry: a Connect button
// each on the Channels page (and no credentials form for YouTube, whose only field is its privacy option), and on
// the Connect page each network's redirect URI beside the developer app form.
import { afterAll, beforeAll, expect, test } from "bun:test";
import type { TestApp } from "../../helpers/app.ts";
import { TestBrowser, webApp } from "../../helpers/browser.ts";
import { describeEachDialect } from "../../helpers/db.ts";
import { type Tenant, tenant } from "../../helpers/factories.ts";

const PASSWORD = "correct horse battery staple";

describeEachDialect("dashboard: the video networks", (dialect) => {
  let t: TestApp;
  let a: Tenant;
  beforeAll(async () => {
    t = await webApp(dialect);
    a = await tenant(t.app, "Video Org");
  });
  afterAll(() => t.close());

  test("live Channels page: Connect with YouTube and with TikTok; no credentials form for YouTube; Connect page redirect URIs", async () => {
    const live = new TestBrowser(t);
    await live.signIn(a.email, PASSWORD);
    await live.get("/home");
    await live.post("/mode", { livemode: "true", back: "/channels" });
    const page = await live.get("/channels");
    expect(page.status).toBe(200);
    for (const p of ["youtube", "tiktok"]) expect(page.html).toContain(`id="signin-${p}"`);
    expect(page.html).toContain("Connect with YouTube");
    expect(page.html).toContain("Connect with TikTok");
    expect(page.html).not.toContain("Connect with YouTube credentials");
    expect(page.html).not.toContain('name="fields.privacy"');
    const connect = await live.get("/connect");
    expect(connect.status).toBe(200);
    for (const p of ["youtube", "tiktok"]) {
      expect(connect.html).toContain(`id="network-${p}"`);
      // The redirect URI, with break opportunities after each slash.
      expect(connect.html).toContain(`connect/<wbr/>${p}/<wbr/>callback`);
      expect(connect.html).toContain(`<option value="${p}">`);
    }
  });

  test("developer apps for YouTube and TikTok are registered through the API like any sign-in network's", async () => {
    for (const provider of ["youtube", "tiktok"]) {
      const r = await t.request("POST", "/v1/developer_apps", {
        key: a.liveKey,
        body: { provider, name: `${provider} app`, client_id: `${provider}-id`, client_secret: "s3cret" },
      });
      expect(r.status).toBe(201);
      expect(r.body).toMatchObject({
        provider,
        provided_by: "org",
        redirect_uri: `http://localhost:8080/connect/${provider}/callback`,
      });
      expect(JSON.stringify(r.body)).not.toContain("s3cret");
    }
  });
});
