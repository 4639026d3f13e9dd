// The Templates pages in process: create (problems beside their fields: the key, a schema that is not JSON, an
// example that does not fit), the preview per network (htmx fragment and plain form), publishing a new version and
// looking at the old one, markup escaped, deletion; another org's template looks missing; cross-site, stale and
// viewer forms change nothing.
import { afterAll, beforeAll, expect, test } from "bun:test";
import type { TestApp } from "../../helpers/app.ts";
import { TestBrowser, webApp } from "../../helpers/browser.ts";
import { describeEachDialect } from "../../helpers/db.ts";
import { member, type Tenant, tenant } from "../../helpers/factories.ts";

const PASSWORD = "correct horse battery staple";
const XSS = `<script>alert(1)</script>`;
const SCHEMA = JSON.stringify({
  type: "object",
  properties: { roast: { type: "string" }, origin: { type: "string" } },
  required: ["roast", "origin"],
});

describeEachDialect("dashboard templates", (dialect) => {
  let t: TestApp;
  let a: Tenant;
  let b: Tenant;
  let br: TestBrowser;
  beforeAll(async () => {
    t = await webApp(dialect);
    a = await tenant(t.app, "Harbour Bakery");
    b = await tenant(t.app, "Other Org");
    br = new TestBrowser(t);
    await br.signIn(a.email, PASSWORD);
  });
  afterAll(() => t.close());

  const form = (extra: Record<string, string> = {}) => ({
    id: "",
    brand: a.brandId,
    key: "new-roast",
    name: `Roast ${XSS}`,
    approval: "inherit",
    body: "New: {{.roast}} from {{.origin}}.",
    variables: SCHEMA,
    example: JSON.stringify({ roast: "Finca", origin: "Huila" }),
    ...extra,
  });

  test("create with problems beside their fields, then create; preview; a new version; the old one; delete", async () => {
    expect((await br.get("/templates")).html).toContain("No templates yet.");
    expect((await br.get("/templates/new")).status).toBe(200);

    const bad = await br.post("/templates", form({ key: "Bad Key", variables: "{not json" }));
    expect(bad.status).toBe(422);
    expect(bad.html).toContain('id="f-variables-error"');
    expect(bad.html).toContain("The schema is not JSON");
    const misfit = await br.post(
      "/templates",
      form({ key: "Bad Key", example: JSON.stringify({ roast: "x" }) }),
    );
    expect(misfit.status).toBe(422);
    expect(misfit.html).toContain('id="f-key-error"');
    expect(misfit.html).toContain('id="f-example-error"');

    const made = await br.post("/templates", form());
    expect(made.status).toBe(303);
    const id = made.location!.split("/").pop()!;
    let page = await br.get(`/templates/${id}`);
    expect(page.html).toContain(`Roast ${"&lt;script&gt;alert(1)&lt;/script&gt;"}`);
    expect(page.html).not.toContain(XSS);
    // The preview renders the example on the brand's network (its sandbox channel emulates Bluesky).
    expect(page.html).toContain("New: Finca from Huila.");
    expect(page.html).toContain('data-provider="bluesky"');
    expect((await br.get("/templates")).html).toContain("new-roast");

    const frag = await br.request("POST", "/templates/preview", {
      body: new URLSearchParams({
        ...form({ id, body: `Now {{.roast}} ${"x".repeat(400)}` }),
        _csrf: br.csrf,
      }).toString(),
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        "sec-fetch-site": "same-origin",
        origin: "http://localhost",
        "hx-request": "true",
      },
    });
    expect(frag.status).toBe(200);
    expect(frag.html).not.toContain("<html");
    expect(frag.html).toContain("too_long");
    const plain = await br.post("/templates/preview", form({ id, body: "Markup {{.roast}} <b>bold</b>" }));
    expect(plain.html).toContain("Markup Finca &lt;b&gt;bold&lt;/b&gt;");

    const saved = await br.post(`/templates/${id}`, form({ id, body: "Fresh: {{.roast}} ({{.origin}})." }));
    expect(saved.status).toBe(303);
    const api = (await t.request("GET", `/v1/templates/${id}`, { key: a.testKey })).body;
    expect(api.latest_version).toBe(2);
    expect(api.latest.body).toBe("Fresh: {{.roast}} ({{.origin}}).");
    page = await br.get(`/templates/${id}?version=1`);
    expect(page.html).toContain('id="old-version"');
    expect(page.html).toContain("New: {{.roast}} from {{.origin}}.");
    expect(page.html).not.toContain('id="template-save"');

    const badSave = await br.post(`/templates/${id}`, form({ id, body: "Hi {{.nobody}}" }));
    expect(badSave.status).toBe(422);
    expect(badSave.html).toContain('id="f-body-error"');
    expect((await t.request("GET", `/v1/templates/${id}`, { key: a.testKey })).body.latest_version).toBe(2);

    expect((await br.post(`/templates/${id}/delete`, {})).status).toBe(303);
    expect((await t.request("GET", `/v1/templates/${id}`, { key: a.testKey })).status).toBe(404);
  });

  test("another org's template looks missing; cross-site, stale and viewer forms change nothing", async () => {
    const theirs = await t.request("POST", "/v1/templates", {
      key: b.testKey,
      body: {
        brand: b.brandId,
        key: "theirs",
        body: "Not yours.",
        variables: { type: "object" },
        examples: [{}],
      },
    });
    expect(theirs.status).toBe(201);
    expect((await br.get(`/templates/${theirs.body.id}`)).status).toBe(404);
    expect((await br.post(`/templates/${theirs.body.id}`, form({ body: "Mine now." }))).status).toBe(404);
    expect((await br.post(`/templates/${theirs.body.id}/delete`, {})).status).toBe(404);
    const other = await br.post("/templates", form({ brand: b.brandId, key: "sneaky" }));
    expect(other.status).toBe(404);
    expect(
      (await t.request("GET", `/v1/templates/${theirs.body.id}`, { key: b.testKey })).body.latest.body,
    ).toBe("Not yours.");

    const mine = await t.request("POST", "/v1/templates", {
      key: a.testKey,
      body: { brand: a.brandId, key: "kept", body: "Kept.", variables: { type: "object" }, examples: [{}] },
    });
    const cross = await br.post(`/templates/${mine.body.id}/delete`, {}, { site: "cross-site" });
    expect(cross.status).toBe(403);
    expect(cross.html).toContain("cross_site_request");
    const stale = new TestBrowser(t);
    await stale.signIn(a.email, PASSWORD);
    stale.csrf = "stale";
    expect((await stale.post(`/templates/${mine.body.id}/delete`, {})).html).toContain("csrf_invalid");

    await member(t.app, a.orgId, "viewer-tpl@example.com", "viewer");
    const v = new TestBrowser(t);
    await v.signIn("viewer-tpl@example.com", PASSWORD);
    const view = await v.get(`/templates/${mine.body.id}`);
    expect(view.status).toBe(200);
    expect(view.html).not.toContain('id="template-save"');
    expect((await v.post(`/templates/${mine.body.id}/delete`, {})).status).toBe(403);
    expect((await t.request("GET", `/v1/templates/${mine.body.id}`, { key: a.testKey })).status).toBe(200);
  });

  test("the composer writes a post from a template: its data form from the JSON Schema, problems beside fields", async () => {
    const tpl = await t.request("POST", "/v1/templates", {
      key: a.testKey,
      body: {
        brand: a.brandId,
        key: "roast-day",
        name: "Roast day",
        body: "Today: {{.roast}} ({{.cups}} cups){{if .note}} {{.note}}{{end}}",
        variables: {
          type: "object",
          properties: {
            roast: { type: "string", title: "Roast", description: "The coffee's name." },
            cups: { type: "integer" },
            note: { type: "string" },
          },
          required: ["roast", "cups"],
        },
        examples: [{ roast: "Finca", cups: 12 }],
      },
    });
    expect(tpl.status).toBe(201);
    const page = await br.get(`/posts/new?template=${tpl.body.id}`);
    expect(page.status).toBe(200);
    expect(page.html).toContain('id="data-roast"');
    expect(page.html).toContain('name="data.cups"');
    expect(page.html).toContain('type="number"');
    expect(page.html).toContain("The coffee&#39;s name.");
    expect(page.html).not.toContain('id="f-body"');
    const channel = (await t.request("GET", "/v1/channels", { key: a.testKey })).body.data[0].id;
    const fields = {
      idempotency_key: `form_${crypto.randomUUID()}`,
      channels: channel,
      template: tpl.body.id,
      when: "next_slot",
      "data.roast": `Geisha ${XSS}`,
      "data.cups": "many",
      "data.note": "",
    };
    const bad = await br.post("/posts/new", fields);
    expect(bad.status).toBe(422);
    expect(bad.html).toContain('id="data-cups-error"');
    expect(bad.html).toContain("Type a number.");
    // The typed value stays, escaped.
    expect(bad.html).toContain("Geisha &lt;script&gt;");
    const preview = await br.post("/posts/preview", { ...fields, "data.cups": "40" });
    expect(preview.html).toContain("Today: Geisha &lt;script&gt;alert(1)&lt;/script&gt; (40 cups)");
    const made = await br.post("/posts/new", { ...fields, "data.cups": "40" });
    expect(made.status).toBe(303);
    const post = (await t.request("GET", `/v1/posts/${made.location!.split("/").pop()}`, { key: a.testKey }))
      .body;
    expect(post.targets[0].parts[0]).toBe(`Today: Geisha ${XSS} (40 cups)`);
    expect(post.template).toBeDefined();
  });
});
