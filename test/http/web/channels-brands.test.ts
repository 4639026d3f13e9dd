// The Channels and Brands pages in process: connecting a sandbox channel and renaming, disabling, checking and
// disconnecting it; a live credential form's problems beside its fields; developer apps; brands created, edited
// (a bad slot beside its day) and deleted after typing the name. Another org's and the other mode's IDs look
// missing, a cross-site or stale form changes nothing, a viewer is refused, and markup typed anywhere is escaped.
import { afterAll, beforeAll, expect, test } from "bun:test";
import type { TestApp } from "../../helpers/app.ts";
import { TestBrowser, webApp } from "../../helpers/browser.ts";
import { describeEachDialect } from "../../helpers/db.ts";
import { member, type Tenant, tenant } from "../../helpers/factories.ts";

const PASSWORD = "correct horse battery staple";
const XSS = `<script>alert(1)</script><img src=x onerror=alert(2)>`;
const ESCAPED = "&lt;script&gt;alert(1)&lt;/script&gt;";

describeEachDialect("dashboard channels and brands", (dialect) => {
  let t: TestApp;
  let a: Tenant;
  let b: Tenant;
  let owner: TestBrowser;
  beforeAll(async () => {
    t = await webApp(dialect);
    a = await tenant(t.app, "Harbour Bakery");
    b = await tenant(t.app, "Other Org");
    owner = new TestBrowser(t);
    await owner.signIn(a.email, PASSWORD);
  });
  afterAll(() => t.close());

  const channelsOf = async (key: string) =>
    (await t.request("GET", "/v1/channels", { key })).body.data as {
      id: string;
      display_name: string;
      status: string;
      emulates: string;
    }[];

  test("connect a sandbox channel, rename it with markup, disable, enable, check, disconnect", async () => {
    const page = await owner.get("/channels");
    expect(page.status).toBe(200);
    expect(page.html).toContain("Connect a sandbox channel");
    const before = (await channelsOf(a.testKey)).length;
    const made = await owner.post("/channels", {
      provider: "sandbox",
      brand: a.brandId,
      emulates: "mastodon",
      "fields.display_name": XSS,
      "fields.handle": "",
    });
    expect(made.status).toBe(303);
    const list = await channelsOf(a.testKey);
    expect(list.length).toBe(before + 1);
    const c = list.find((x) => x.display_name === XSS)!;
    expect(c.emulates).toBe("mastodon");
    let shown = await owner.get("/channels");
    expect(shown.html).toContain(ESCAPED);
    expect(shown.html).not.toContain("<script>alert(1)");
    expect(shown.html).toContain("emulates Mastodon");

    const renamed = await owner.post(`/channels/${c.id}/rename`, { display_name: "Bakery toots" });
    expect(renamed.status).toBe(303);
    expect((await channelsOf(a.testKey)).find((x) => x.id === c.id)!.display_name).toBe("Bakery toots");
    const blank = await owner.post(`/channels/${c.id}/rename`, { display_name: " " });
    expect(blank.status).toBe(422);
    expect(blank.html).toContain("Type a name.");

    expect((await owner.post(`/channels/${c.id}/status`, { status: "disabled" })).status).toBe(303);
    expect((await channelsOf(a.testKey)).find((x) => x.id === c.id)!.status).toBe("disabled");
    const bad = await owner.post(`/channels/${c.id}/status`, { status: "paused" });
    expect(bad.status).toBe(422);
    expect(bad.html).toContain("status must be active or disabled.");
    expect((await owner.post(`/channels/${c.id}/status`, { status: "active" })).status).toBe(303);

    const checked = await owner.post(`/channels/${c.id}/check`, {});
    expect(checked.status).toBe(200);
    expect(checked.html).toContain(`id="checked-${c.id}"`);
    expect(checked.html).toContain("Nothing to check");

    const confirm = await owner.get(`/channels/${c.id}/delete`);
    expect(confirm.status).toBe(200);
    expect(confirm.html).toContain("Disconnect <strong>Bakery toots</strong>");
    expect((await owner.post(`/channels/${c.id}/delete`, {})).status).toBe(303);
    expect((await channelsOf(a.testKey)).some((x) => x.id === c.id)).toBe(false);
    shown = await owner.get("/channels");
    expect(shown.html).toContain("Channel disconnected");
  });

  test("a problem with a connect form is shown beside its field; an unknown brand beside the brand", async () => {
    const r = await owner.post("/channels", {
      provider: "sandbox",
      brand: "no-such-brand",
      emulates: "bluesky",
    });
    expect(r.status).toBe(404);
    expect(r.html).toContain("No brand no-such-brand in this org.");
    expect(r.html).toMatch(/class="field has-error"><label for="c-sandbox-brand"/);
    const unknown = await owner.post("/channels", {
      provider: "sandbox",
      brand: a.brandId,
      emulates: "myspace",
    });
    expect(unknown.status).toBe(422);
    expect(unknown.html).toContain("There is no provider myspace to emulate.");
  });

  test("live mode: a network's connect_fields form; a missing field beside it; developer apps", async () => {
    const live = new TestBrowser(t);
    await live.signIn(a.email, PASSWORD);
    await live.get("/home");
    await live.post("/mode", { livemode: "true", back: "/channels" });
    const page = await live.get("/channels");
    expect(page.html).toContain("LIVE MODE");
    expect(page.html).toContain('name="fields.instance"');
    expect(page.html).toContain("Connect with X");
    const r = await live.post("/channels", {
      provider: "mastodon",
      brand: a.brandId,
      "fields.instance": "https://mastodon.example",
      "fields.access_token": "",
    });
    expect(r.status).toBe(422);
    expect(r.html).toContain("Mastodon needs Access token (access_token).");
    expect(r.html).toContain('id="c-mastodon-fields-access_token-error"');
    // The instance typed stays; the secret is never echoed.
    expect(r.html).toContain('value="https://mastodon.example"');

    const added = await live.post("/channels/apps", {
      provider: "x",
      name: `App ${XSS}`,
      client_id: "client-1",
      client_secret: "secret-1",
    });
    expect(added.status).toBe(303);
    const apps = (await t.request("GET", "/v1/developer_apps", { key: a.liveKey })).body.data as {
      id: string;
      name: string;
    }[];
    const mine = apps.find((x) => x.name.startsWith("App "))!;
    let shown = await live.get("/channels");
    expect(shown.html).toContain(`App ${ESCAPED}`);
    expect(shown.html).toContain("client ID client-1");
    const empty = await live.post(`/channels/apps/${mine.id}/rename`, { name: "" });
    expect(empty.status).toBe(422);
    expect((await live.post(`/channels/apps/${mine.id}/rename`, { name: "Our X app" })).status).toBe(303);
    shown = await live.get("/channels");
    expect(shown.html).toContain("Our X app");
    expect((await live.post(`/channels/apps/${mine.id}/remove`, {})).status).toBe(303);
    expect((await live.get("/channels")).html).not.toContain("Our X app");
  });

  test("other org's and other mode's channels look missing; cross-site and stale forms change nothing", async () => {
    const theirs = await t.request("POST", "/v1/channels", {
      key: b.testKey,
      body: { brand: b.brandId, provider: "sandbox" },
    });
    expect(theirs.status).toBe(201);
    for (const path of [`/channels/${theirs.body.id}/delete`])
      expect((await owner.get(path)).status).toBe(404);
    for (const action of ["delete", "check", "rename", "status"]) {
      const r = await owner.post(`/channels/${theirs.body.id}/${action}`, {
        display_name: "mine now",
        status: "disabled",
      });
      expect(r.status).toBe(404);
    }
    expect((await channelsOf(b.testKey)).find((x) => x.id === theirs.body.id)!.status).toBe("active");
    // A live channel of A's own org, reached from a test-mode session.
    const liveOne = (
      await t.app.db.selectFrom("channels").select("id").where("livemode", "=", 1).execute()
    )[0];
    if (liveOne) expect((await owner.get(`/channels/${liveOne.id}/delete`)).status).toBe(404);

    const mine = await t.request("POST", "/v1/channels", {
      key: a.testKey,
      body: { brand: a.brandId, provider: "sandbox" },
    });
    const cross = await owner.post(`/channels/${mine.body.id}/delete`, {}, { site: "cross-site" });
    expect(cross.status).toBe(403);
    expect(cross.html).toContain("cross_site_request");
    const stale = new TestBrowser(t);
    await stale.signIn(a.email, PASSWORD);
    stale.csrf = "not-the-token";
    const r = await stale.post(`/channels/${mine.body.id}/delete`, {});
    expect(r.status).toBe(403);
    expect(r.html).toContain("csrf_invalid");
    expect((await channelsOf(a.testKey)).some((x) => x.id === mine.body.id)).toBe(true);
  });

  test("a viewer sees channels and brands without the forms and is refused changes", async () => {
    await member(t.app, a.orgId, "viewer-cb@example.com", "viewer");
    const v = new TestBrowser(t);
    await v.signIn("viewer-cb@example.com", PASSWORD);
    const page = await v.get("/channels");
    expect(page.status).toBe(200);
    expect(page.html).not.toContain("Connect a sandbox channel");
    expect((await v.get("/brands")).html).not.toContain("Create a brand");
    const r = await v.post("/channels", { provider: "sandbox", brand: a.brandId });
    expect(r.status).toBe(403);
    expect(r.html).toContain("forbidden");
    expect((await v.post("/brands", { name: "Nope" })).status).toBe(403);
  });

  test("brands: create with markup, edit slots (a bad one beside its day), delete after typing the name", async () => {
    const made = await owner.post("/brands", {
      name: `Crumbs ${XSS}`,
      slug: "",
      timezone: "Europe/Lisbon",
      approval_policy: "none",
      utm_domains: "",
    });
    expect(made.status).toBe(303);
    const id = made.location!.split("/").pop()!;
    let page = await owner.get(`/brands/${id}`);
    expect(page.html).toContain(`Crumbs ${ESCAPED}`);
    expect(page.html).not.toContain("<script>alert(1)");
    expect((await owner.get("/brands")).html).toContain(`Crumbs ${ESCAPED}`);

    const form = {
      name: "Crumbs",
      slug: "crumbs",
      timezone: "Europe/Lisbon",
      approval_policy: "required_for_all",
      utm_domains: "crumbs.example\nshop.crumbs.example",
      "slots.monday": "9:00, 17:30",
      "slots.tuesday": "",
      "slots.wednesday": "",
      "slots.thursday": "",
      "slots.friday": "",
      "slots.saturday": "",
      "slots.sunday": "",
    };
    const bad = await owner.post(`/brands/${id}`, {
      ...form,
      "slots.friday": "25:00",
      timezone: "Mars/Olympus",
    });
    expect(bad.status).toBe(422);
    expect(bad.html).toContain('id="slot-friday-error"');
    expect(bad.html).toContain("time must be HH:MM on a 24-hour clock.");
    expect(bad.html).toContain('id="f-timezone-error"');
    expect(bad.html).toContain('value="25:00"');
    const ok = await owner.post(`/brands/${id}`, form);
    expect(ok.status).toBe(303);
    const brand = (await t.request("GET", `/v1/brands/${id}`, { key: a.testKey })).body;
    expect(brand.slug).toBe("crumbs");
    expect(brand.approval_policy).toBe("required_for_all");
    expect(brand.utm_domains).toEqual(["crumbs.example", "shop.crumbs.example"]);
    expect(brand.slots).toEqual([
      { weekday: "monday", time: "09:00" },
      { weekday: "monday", time: "17:30" },
    ]);
    page = await owner.get(`/brands/${id}`);
    expect(page.html).toContain("Next free slot in test mode");
    expect(page.html).toMatch(/ (09:00|17:30) GMT\+[01]/);

    const taken = await owner.post(`/brands/${id}`, { ...form, slug: a.brandSlug });
    expect(taken.status).toBe(409);
    expect(taken.html).toContain(`Another brand in this org has the slug ${a.brandSlug}.`);

    const wrong = await owner.post(`/brands/${id}/delete`, { confirm: "Crumb" });
    expect(wrong.status).toBe(422);
    expect(wrong.html).toContain("Type the brand&#39;s name, Crumbs, to delete it.");
    await t.request("POST", "/v1/channels", { key: a.testKey, body: { brand: id, provider: "sandbox" } });
    const busy = await owner.post(`/brands/${id}/delete`, { confirm: "Crumbs" });
    expect(busy.status).toBe(409);
    expect(busy.html).toContain("still has channels");
    const chans = (await t.request("GET", `/v1/channels?brand=${id}`, { key: a.testKey })).body.data;
    for (const c of chans) await t.request("DELETE", `/v1/channels/${c.id}`, { key: a.testKey });
    expect((await owner.post(`/brands/${id}/delete`, { confirm: "Crumbs" })).status).toBe(303);
    expect((await t.request("GET", `/v1/brands/${id}`, { key: a.testKey })).status).toBe(404);
  });

  test("another org's brand looks missing and is left alone", async () => {
    expect((await owner.get(`/brands/${b.brandId}`)).status).toBe(404);
    expect((await owner.post(`/brands/${b.brandId}`, { name: "Taken over" })).status).toBe(404);
    expect((await owner.post(`/brands/${b.brandId}/delete`, { confirm: "Other Org Brand" })).status).toBe(
      404,
    );
    expect((await t.request("GET", `/v1/brands/${b.brandId}`, { key: b.testKey })).body.name).toBe(
      "Other Org Brand",
    );
  });
});
