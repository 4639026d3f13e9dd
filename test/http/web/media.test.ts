// The media library page in process: an upload as a plain form (the CSRF token in the action) and as upload.js
// sends it (JSON), its thumbnail, alt text with markup (escaped), a refused upload beside its field, deletion and
// media_in_use; another org's and the other mode's media look missing; an upload without the token, or from
// another site, stores nothing.
import { afterAll, beforeAll, expect, test } from "bun:test";
import type { TestApp } from "../../helpers/app.ts";
import { TestBrowser, webApp } from "../../helpers/browser.ts";
import { describeEachDialect } from "../../helpers/db.ts";
import { type Tenant, tenant } from "../../helpers/factories.ts";
import { jpeg, upload } from "../../helpers/media.ts";

const PASSWORD = "correct horse battery staple";
const XSS = `<script>alert(1)</script>"><img src=x onerror=alert(2)>`;

describeEachDialect("dashboard media library", (dialect) => {
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

  /** A multipart upload from the page: the token in the action's query, as the form sends it. */
  async function send(
    fields: Record<string, string | Uint8Array>,
    opts: { json?: boolean; token?: string | null; site?: string } = {},
  ) {
    const form = new FormData();
    for (const [k, v] of Object.entries(fields))
      if (typeof v === "string") form.append(k, v);
      else form.append(k, new Blob([v as Uint8Array<ArrayBuffer>], { type: "image/jpeg" }), "croissant.jpg");
    const token = opts.token === undefined ? br.csrf : opts.token;
    const q = token === null ? "" : `?_csrf=${encodeURIComponent(token)}`;
    const body = new Response(form);
    // The type (with its boundary) before the body is read: Bun drops it once the body is consumed.
    const type = body.headers.get("content-type")!;
    return br.request("POST", `/media/upload${q}`, {
      body: (await body.arrayBuffer()) as unknown as string,
      headers: {
        "content-type": type,
        "sec-fetch-site": opts.site ?? "same-origin",
        origin: opts.site === "cross-site" ? "https://evil.example" : "http://localhost",
        ...(opts.json ? { accept: "application/json" } : {}),
      },
    });
  }

  const library = async (key: string) =>
    (await t.request("GET", "/v1/media", { key })).body.data as { id: string; alt: string | null }[];

  test("upload as a form and as upload.js does; the thumbnail; alt text with markup; delete", async () => {
    const page = await br.get("/media");
    expect(page.status).toBe(200);
    expect(page.html).toContain("No images or videos here yet.");
    const bytes = await jpeg(1200, 800);
    const plain = await send({ brand: a.brandId, alt: XSS, file: bytes });
    expect(plain.status).toBe(303);
    expect(plain.location).toBe(`/media?brand=${encodeURIComponent(a.brandId)}`);
    const viaJs = await send({ brand: a.brandId, file: bytes }, { json: true });
    expect(viaJs.status).toBe(201);
    const made = JSON.parse(viaJs.html);
    expect(made.object).toBe("media");
    expect(made.width).toBe(1200);
    const list = await library(a.testKey);
    expect(list.length).toBe(2);
    const withAlt = list.find((m) => m.alt === XSS)!;

    const shown = await br.get("/media");
    expect(shown.html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;&quot;&gt;&lt;img src=x");
    expect(shown.html).not.toContain("<script>alert(1)");
    expect(shown.html).toContain(`src="/media/${made.id}/thumb"`);
    expect(shown.html).toContain("1200×800");

    const thumb = await t.http.handle(
      new Request(`http://localhost/media/${made.id}/thumb`, {
        headers: { cookie: [...br.cookies].map(([k, v]) => `${k}=${v}`).join("; "), "x-client-ip": br.ip },
      }),
    );
    expect(thumb.status).toBe(200);
    expect(thumb.headers.get("content-type")).toBe("image/webp");
    const sharp = (await import("sharp")).default;
    const meta = await sharp(new Uint8Array(await thumb.arrayBuffer())).metadata();
    expect(meta.width).toBe(320);
    expect(meta.height).toBe(213);

    const alt = await br.post(`/media/${withAlt.id}/alt`, { alt: "A croissant on a plate" });
    expect(alt.status).toBe(303);
    expect((await library(a.testKey)).find((m) => m.id === withAlt.id)!.alt).toBe("A croissant on a plate");
    const long = await br.post(`/media/${withAlt.id}/alt`, { alt: "x".repeat(1001) });
    expect(long.status).toBe(422);
    expect(long.html).toContain(`id="alt-${withAlt.id}-error"`);

    expect((await br.post(`/media/${made.id}/delete`, {})).status).toBe(303);
    expect((await library(a.testKey)).some((m) => m.id === made.id)).toBe(false);
  });

  test("a refused upload is shown beside its field; JSON callers get the problem", async () => {
    const empty = await send({ brand: a.brandId, file: new TextEncoder().encode("not an image") });
    expect(empty.status).toBe(422);
    expect(empty.html).toContain('id="up-file-error"');
    const asJson = await send(
      { brand: a.brandId, file: new TextEncoder().encode("not an image") },
      { json: true },
    );
    expect(asJson.status).toBe(422);
    expect(JSON.parse(asJson.html).code).toBe("media_type_unsupported");
    const noFile = await send({ brand: a.brandId }, { json: true });
    expect(noFile.status).toBe(400);
    expect(JSON.parse(noFile.html).code).toBe("file_missing");
  });

  test("media a post still needs cannot be deleted: media_in_use beside it", async () => {
    const m = await upload(t, a.testKey, {
      brand: a.brandId,
      file: { bytes: await jpeg(400, 400), type: "image/jpeg" },
    });
    expect(m.status).toBe(201);
    const post = await t.request("POST", "/v1/posts", {
      key: a.testKey,
      body: {
        brand: a.brandId,
        content: { body: "With a picture." },
        media: [m.body.id],
        publish_at: "next_slot",
      },
    });
    expect(post.status).toBe(201);
    const r = await br.post(`/media/${m.body.id}/delete`, {});
    expect(r.status).toBe(409);
    expect(r.html).toContain("is used by a post that is not finished.");
    expect((await library(a.testKey)).some((x) => x.id === m.body.id)).toBe(true);
  });

  test("another org's and the other mode's media look missing; uploads without the token or cross-site store nothing", async () => {
    const theirs = await upload(t, b.testKey, {
      brand: b.brandId,
      file: { bytes: await jpeg(100, 100), type: "image/jpeg" },
    });
    const live = await upload(t, a.liveKey, {
      brand: a.brandId,
      file: { bytes: await jpeg(100, 100), type: "image/jpeg" },
    });
    for (const id of [theirs.body.id, live.body.id]) {
      expect((await br.get(`/media/${id}/thumb`)).status).toBe(404);
      expect((await br.post(`/media/${id}/alt`, { alt: "mine" })).status).toBe(404);
      expect((await br.post(`/media/${id}/delete`, {})).status).toBe(404);
    }
    expect((await library(b.testKey)).length).toBe(1);
    expect((await library(a.liveKey)).length).toBe(1);
    // Uploading into another org's brand.
    const other = await send({ brand: b.brandId, file: await jpeg(100, 100) }, { json: true });
    expect(other.status).toBe(404);

    const before = (await library(a.testKey)).length;
    const noToken = await send({ brand: a.brandId, file: await jpeg(100, 100) }, { token: null });
    expect(noToken.status).toBe(403);
    expect(noToken.html).toContain("csrf_invalid");
    const cross = await send({ brand: a.brandId, file: await jpeg(100, 100) }, { site: "cross-site" });
    expect(cross.status).toBe(403);
    expect(cross.html).toContain("cross_site_request");
    expect((await library(a.testKey)).length).toBe(before);
  });
});
