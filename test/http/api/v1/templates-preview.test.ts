// POST /v1/templates/preview end to end on both databases: stored templates by key, key@N and ID, sources being
// written, UTM tags from the brand, violations in the body, and the codes of a preview that cannot render.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { type TestApp, testApp } from "../../../helpers/app.ts";
import { describeEachDialect } from "../../../helpers/db.ts";
import { key, type Tenant, tenant } from "../../../helpers/factories.ts";
import { codesOf, release, shapeErrors } from "./template-helpers.ts";

const ZERO_POST = "post_00000000000000000000000000";

describeEachDialect("POST /v1/templates/preview", (dialect) => {
  let t: TestApp;
  let a: Tenant;
  let templateId: string;
  const preview = (body: Record<string, unknown>, credential = a.testKey) =>
    t.request("POST", "/v1/templates/preview", { key: credential, body });
  beforeAll(async () => {
    t = await testApp(dialect);
    a = await tenant(t.app);
    await t.request("POST", `/v1/brands/${a.brandId}`, {
      key: a.testKey,
      body: { utm_domains: ["example.com"] },
    });
    const made = await t.request("POST", "/v1/templates", {
      key: a.testKey,
      body: { brand: a.brandId, key: "release", ...release() },
    });
    templateId = made.body.id;
    await t.request("POST", `/v1/templates/${templateId}/versions`, {
      key: a.testKey,
      body: release({ body: "v2 {{.version}}: {{.url}}", overrides: { x: "X gets {{.version}}" } }),
    });
  });
  afterAll(() => t.close());

  test("a stored template by key renders every network with its example, tagged with the key as campaign", async () => {
    const r = await preview({ brand: a.brandSlug, template: "release" });
    expect(r.status).toBe(200);
    expect(shapeErrors("Preview", r.body)).toEqual([]);
    expect(r.body.object).toBe("preview");
    expect(r.body.renditions).toHaveLength(15);
    expect(r.body.renditions.some((x: { provider: string }) => x.provider === "sandbox")).toBe(false);
    const mastodon = r.body.renditions.find((x: { provider: string }) => x.provider === "mastodon");
    const text = `v2 1.0: https://example.com/releases/1.0?utm_source=mastodon&utm_medium=social&utm_campaign=release&utm_content=${ZERO_POST}`;
    expect(mastodon).toEqual({
      provider: "mastodon",
      channel: null,
      parts: [text],
      lengths: [8 + 23],
      limit: 500,
      counting: "mastodon",
      violations: [],
      notices: [],
    });
    const x = r.body.renditions.find((x: { provider: string }) => x.provider === "x");
    expect(x.parts).toEqual(["X gets 1.0"]);
    // Instagram and the video networks need media, so a text-only preview is not valid everywhere.
    expect(r.body.valid).toBe(false);
    const instagram = r.body.renditions.find((x: { provider: string }) => x.provider === "instagram");
    expect(instagram.violations.map((v: { code: string }) => v.code)).toEqual(["media_required"]);
  });

  test("key@N and the ID pick versions; data replaces the example; providers choose the networks", async () => {
    const v1 = await preview({
      brand: a.brandId,
      template: "release@1",
      providers: ["bluesky"],
      data: { version: "3.1", url: "https://other.org/x" },
    });
    expect(v1.body).toMatchObject({
      valid: true,
      renditions: [
        { provider: "bluesky", parts: ["Release 3.1 is out: https://other.org/x"], counting: "bluesky" },
      ],
    });
    const byId = await preview({ template: templateId, providers: ["linkedin", "linkedin"] });
    expect(
      byId.body.renditions.map((x: { provider: string; parts: string[] }) => [
        x.provider,
        x.parts[0]!.slice(0, 7),
      ]),
    ).toEqual([["linkedin", "v2 1.0:"]]);
    expect(byId.body.renditions[0].parts[0]).toContain("utm_campaign=release");
  });

  test("a source being written previews without a template: no campaign, and too long is a violation", async () => {
    const r = await preview({
      brand: a.brandId,
      ...release({ body: "{{.url}} {{.version}}" }),
      data: { version: "é".repeat(300), url: "https://www.example.com/r" },
      providers: ["x", "sandbox"],
    });
    expect(r.status).toBe(200);
    expect(r.body.valid).toBe(false);
    const [x, sandbox] = r.body.renditions;
    expect(x.parts[0]).toBe(
      `https://www.example.com/r?utm_source=x&utm_medium=social&utm_content=${ZERO_POST} ${"é".repeat(300)}`,
    );
    expect(x.violations).toEqual([
      {
        code: "too_long",
        message: "The text measures 324; X takes at most 280 (counting x_weighted).",
        part: 0,
        media: null,
        length: 324,
        limit: 280,
      },
    ]);
    // The sandbox is checked as Bluesky, which it emulates by default.
    expect([sandbox.provider, sandbox.limit, sandbox.counting]).toEqual(["sandbox", 300, "bluesky"]);
    const noBrand = await preview({ ...release(), providers: ["mastodon"] });
    expect(noBrand.body.renditions[0].parts).toEqual([
      "Release 1.0 is out: https://example.com/releases/1.0",
    ]);
  });

  test("render failures and oversized output are violations of the rendition", async () => {
    const source = release({
      variables: { type: "object", properties: { v: {} }, required: ["v"] },
      examples: [{ v: "ok" }],
      body: "{{.v}}{{.v}}",
    });
    const failed = await preview({ ...source, data: { v: { nested: true } }, providers: ["mastodon"] });
    expect(failed.body.valid).toBe(false);
    expect(failed.body.renditions[0].violations.map((v: { code: string }) => v.code)).toEqual([
      "render_failed",
      "render_failed",
    ]);
    const huge = await preview({ ...source, data: { v: "x".repeat(40_000) }, providers: ["mastodon"] });
    expect(huge.body.renditions[0]).toMatchObject({
      parts: [],
      lengths: [],
      violations: [{ code: "output_too_large" }],
    });
  });

  test("data that does not fit the variables, or is over 64 KiB, is a 422", async () => {
    const invalid = await preview({ template: templateId, data: { version: 2 } });
    expect([invalid.status, codesOf(invalid.body).sort()]).toEqual([
      422,
      ["data_invalid data.url", "data_invalid data.version"],
    ]);
    const large = await preview({ template: templateId, data: { version: "x".repeat(70_000), url: "u" } });
    expect([large.status, codesOf(large.body)]).toEqual([422, ["data_too_large data"]]);
  });

  test("references that name nothing, or are malformed, and an invalid source", async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ brand: a.brandId, template: "nope" }, "template_missing template"],
      [{ brand: a.brandId, template: "release@9" }, "template_missing template"],
      [{ template: "tmpl_00000000000000000000000000" }, "template_missing template"],
      [{ template: "release" }, "template_missing template"],
      [{ brand: a.brandId, template: "Release!" }, "template_invalid template"],
      [{ brand: a.brandId, template: "release@0" }, "template_invalid template"],
      [{ ...release(), examples: [] }, "example_required examples"],
      [{ ...release(), body: "" }, "body_missing body"],
      [{ ...release(), variables: "nope" }, "variables_invalid variables"],
      [{ ...release(), examples: [{}] }, "example_invalid examples.0"],
      [{ ...release(), body: "{{end}}" }, "template_syntax body"],
      [{ ...release(), body: "{{.x}}" }, "variable_missing body"],
      [{ ...release(), fit: { x: "wrap" } }, "fit_invalid fit.x"],
      [{ template: templateId, providers: ["x", "geocities"] }, "provider_unknown providers.1"],
    ];
    for (const [body, expected] of cases) {
      const r = await preview(body);
      expect([r.status, codesOf(r.body)]).toEqual([422, [expected]]);
    }
    const both = await preview({ template: "release", body: "x" });
    expect([both.status, both.body.code, both.body.param]).toEqual([400, "parameter_conflict", "template"]);
  });

  test("another brand's template is missing for this brand and for a key limited to another brand", async () => {
    const other = await t.request("POST", "/v1/brands", { key: a.testKey, body: { name: "Elsewhere" } });
    const limited = await key(t.app, a.orgId, { name: "elsewhere only", brand: other.body.id });
    const r = await preview({ template: templateId }, limited);
    expect([r.status, codesOf(r.body)]).toEqual([422, ["template_missing template"]]);
    const byKey = await preview({ template: "release" }, limited);
    expect(codesOf(byKey.body)).toEqual(["template_missing template"]);
    const ownBrand = await preview({ brand: other.body.id, template: templateId });
    expect(codesOf(ownBrand.body)).toEqual(["template_missing template"]);
    const stranger = await tenant(t.app);
    const foreign = await preview({ template: templateId }, stranger.testKey);
    expect(codesOf(foreign.body)).toEqual(["template_missing template"]);
  });

  test("a preview changes nothing, so a read-only org may still ask for one", async () => {
    await t.app.db.updateTable("orgs").set({ status: "read_only" }).where("id", "=", a.orgId).execute();
    try {
      const r = await preview({ template: templateId, providers: ["bluesky"] });
      expect([r.status, r.body.valid]).toEqual([200, true]);
      const write = await t.request("POST", `/v1/templates/${templateId}`, {
        key: a.testKey,
        body: { name: "x" },
      });
      expect([write.status, write.body.code]).toEqual([403, "org_read_only"]);
    } finally {
      await t.app.db.updateTable("orgs").set({ status: "active" }).where("id", "=", a.orgId).execute();
    }
  });
});
