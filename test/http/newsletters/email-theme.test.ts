// The brand's email theme: logo (one of the brand's images, held against pruning and deletion), accent checked
// by contrast on white, postal address and one-line footer limits; fields left out keep their value; isolation.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { FakeClock } from "../../../src/lib/clock.ts";
import { pruneMedia } from "../../../src/queue/tasks/media-prune.ts";
import { type TestApp, testApp } from "../../helpers/app.ts";
import { describeEachDialect } from "../../helpers/db.ts";
import { key, type Tenant, tenant } from "../../helpers/factories.ts";
import { jpeg, upload } from "../../helpers/media.ts";
import { schemaErrors } from "../../helpers/schema.ts";

describeEachDialect("email theme", (dialect) => {
  let t: TestApp;
  let a: Tenant;
  let other: Tenant;
  const clock = new FakeClock(Date.parse("2026-03-02T10:00:00Z"));
  beforeAll(async () => {
    t = await testApp(dialect, { clock });
    a = await tenant(t.app);
    other = await tenant(t.app);
  });
  afterAll(() => t.close());

  const theme = (body: unknown, k = a.testKey, brand = a.brandId) =>
    t.request("POST", `/v1/brands/${brand}/email_theme`, { key: k, body });

  test("a full theme is stored and shown on the brand; fields left out keep their value", async () => {
    const logo = await upload(t, a.testKey, { brand: a.brandId, file: { bytes: await jpeg(40, 20) } });
    const r = await theme({
      logo: logo.body.id,
      accent: "#1a4d8f",
      postal_address: "Acme Ltd\n1 Main Street\nLondon",
      footer: "You get this because you signed up at acme.example",
    });
    expect(r.status).toBe(200);
    expect(schemaErrors("Brand", r.body)).toBeNull();
    expect(r.body.email_theme).toEqual({
      logo: logo.body.id,
      accent: "#1a4d8f",
      postal_address: "Acme Ltd\n1 Main Street\nLondon",
      footer: "You get this because you signed up at acme.example",
    });
    const partial = await theme({ footer: "Thanks for reading" });
    expect(partial.body.email_theme).toMatchObject({
      logo: logo.body.id,
      accent: "#1a4d8f",
      footer: "Thanks for reading",
    });
    const got = await t.request("GET", `/v1/brands/${a.brandSlug}`, { key: a.testKey });
    expect(got.body.email_theme.footer).toBe("Thanks for reading");

    // The logo is held: not pruned after a day, not deletable; once replaced it is free again.
    clock.advance(2 * 86400_000);
    await pruneMedia(t.app);
    expect((await t.request("GET", `/v1/media/${logo.body.id}`, { key: a.testKey })).status).toBe(200);
    const del = await t.request("DELETE", `/v1/media/${logo.body.id}`, { key: a.testKey });
    expect([del.status, del.body.code]).toEqual([409, "media_in_use"]);
    const cleared = await theme({ logo: null });
    expect(cleared.body.email_theme.logo).toBeNull();
    const del2 = await t.request("DELETE", `/v1/media/${logo.body.id}`, { key: a.testKey });
    expect(del2.status).toBe(200);
  });

  test("accent: the form, and contrast on white at least 4.5:1", async () => {
    for (const bad of ["blue", "#12345", "#1234567", "rgb(0,0,0)"]) {
      const r = await theme({ accent: bad });
      expect([r.status, r.body.code, r.body.param]).toEqual([422, "accent_invalid", "accent"]);
    }
    // #777777 on white is 4.48:1 (too light); #767676 is 4.54:1 (the lightest grey that passes).
    const light = await theme({ accent: "#777777" });
    expect([light.status, light.body.code]).toEqual([422, "accent_invalid"]);
    expect(light.body.errors[0].detail.contrast).toBeLessThan(4.5);
    expect((await theme({ accent: "#ffff00" })).body.code).toBe("accent_invalid");
    expect((await theme({ accent: "#767676" })).status).toBe(200);
    expect((await theme({ accent: "#000000" })).status).toBe(200);
    expect((await theme({ accent: "" })).body.email_theme.accent).toBe("");
  });

  test("postal address and footer limits", async () => {
    expect((await theme({ postal_address: "x".repeat(300) })).status).toBe(200);
    const long = await theme({ postal_address: "x".repeat(301) });
    expect([long.status, long.body.code]).toEqual([422, "postal_address_too_long"]);
    expect((await theme({ footer: "y".repeat(300) })).status).toBe(200);
    const footerLong = await theme({ footer: "y".repeat(301) });
    expect([footerLong.status, footerLong.body.code]).toEqual([422, "footer_invalid"]);
    const twoLines = await theme({ footer: "one\ntwo" });
    expect([twoLines.status, twoLines.body.code]).toEqual([422, "footer_invalid"]);
  });

  test("logo: only an image of this brand in this mode", async () => {
    const mine = await upload(t, a.testKey, { brand: a.brandId, file: { bytes: await jpeg(8, 8) } });
    const theirs = await upload(t, other.testKey, {
      brand: other.brandId,
      file: { bytes: await jpeg(8, 8) },
    });
    const live = await upload(t, a.liveKey, { brand: a.brandId, file: { bytes: await jpeg(8, 8) } });
    for (const id of [theirs.body.id, live.body.id, "media_00000000000000000000000000", "nope"]) {
      const r = await theme({ logo: id });
      expect([r.status, r.body.code, r.body.param]).toEqual([422, "logo_unknown", "logo"]);
    }
    expect((await theme({ logo: mine.body.id })).status).toBe(200);
  });

  test("isolation and scope: another org's brand is missing; brands:write is needed", async () => {
    expect((await theme({ footer: "x" }, other.testKey)).status).toBe(404);
    const reader = await key(t.app, a.orgId, { name: "reader", scopes: ["brands:read"] });
    const r = await theme({ footer: "x" }, reader);
    expect([r.status, r.body.code]).toEqual([403, "scope_missing"]);
  });
});
