// Media as the service takes and serves it (issue item 34): an image cut short is refused at upload as
// media_unreadable (it used to be accepted and fail only at publish; a GIF cut between frames still decodes, as
// its first frames, so it is taken and publishes as such), and the signed link serves the bytes so that
// a browser opening it runs nothing in them: nosniff, a sandboxing Content-Security-Policy and an attachment
// Content-Disposition.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mediaUrl } from "../../../src/domain/media/link.ts";
import { type TestApp, testApp } from "../../helpers/app.ts";
import { describeEachDialect } from "../../helpers/db.ts";
import { type Tenant, tenant } from "../../helpers/factories.ts";
import { noisyJpeg, png, upload, webp } from "../../helpers/media.ts";

describeEachDialect("media taken and served", (dialect) => {
  let t: TestApp;
  let a: Tenant;
  beforeAll(async () => {
    t = await testApp(dialect);
    a = await tenant(t.app, "Media Org");
  });
  afterAll(() => t.close());

  test("a truncated PNG, JPEG or WebP is refused as media_unreadable and nothing is stored", async () => {
    const whole = {
      png: await png(300, 200, 0.5),
      jpeg: await noisyJpeg(200, 150),
      webp: await webp(300, 200),
    };
    for (const [kind, bytes] of Object.entries(whole)) {
      const cut = bytes.subarray(0, Math.floor(bytes.length * 0.6));
      const r = await upload(t, a.testKey, { brand: a.brandId, file: { bytes: cut } });
      expect({ kind, status: r.status, code: r.body.code }).toEqual({
        kind,
        status: 422,
        code: "media_unreadable",
      });
    }
    expect(await t.app.db.selectFrom("media").select("id").where("org_id", "=", a.orgId).execute()).toEqual(
      [],
    );
    // The whole files are taken (and a half-transparent PNG keeps its alpha).
    for (const bytes of Object.values(whole))
      expect((await upload(t, a.testKey, { brand: a.brandId, file: { bytes } })).status).toBe(201);
    const withAlpha = await t.app.db
      .selectFrom("media")
      .select(["type", "has_alpha"])
      .where("org_id", "=", a.orgId)
      .where("type", "=", "image/png")
      .executeTakeFirstOrThrow();
    expect(withAlpha.has_alpha).toBe(1);
  });

  test("the signed link serves the bytes sandboxed, as an attachment, never sniffed", async () => {
    const m = (await upload(t, a.testKey, { brand: a.brandId, file: { bytes: await png(20, 20) } })).body;
    const url = new URL(mediaUrl(t.app, m.id, "bluesky"));
    const res = await t.http.handle(new Request(`http://localhost${url.pathname}${url.search}`));
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/png");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("content-security-policy")).toBe("sandbox; default-src 'none'");
    expect(res.headers.get("content-disposition")).toBe(`attachment; filename="${m.id}.png"`);
    expect(
      Buffer.from(await res.arrayBuffer())
        .subarray(1, 4)
        .toString(),
    ).toBe("PNG");
  });
});
