// Posts with media: the listed media must be this brand's (and mode's), each network's image rules apply, the
// preview says where publishing will resize, a post embeds its media, and a medium in use cannot be deleted.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { newId } from "../../../src/lib/ids.ts";
import { describeEachDialect } from "../../helpers/db.ts";
import { animatedGif, jpeg, noisyJpeg, noisyTransparentPng, upload } from "../../helpers/media.ts";
import { schemaErrors } from "../../helpers/schemas.ts";
import { codes, createPost, otherTenant, type World, world } from "./helpers.ts";

describeEachDialect("posts with media", (dialect) => {
  let w: World;
  const channels: Record<string, string> = {};
  const media: Record<string, string> = {};
  beforeAll(async () => {
    w = await world(dialect);
    for (const emulates of ["instagram", "telegram", "x"]) {
      const c = await w.t.request("POST", "/v1/channels", {
        key: w.a.testKey,
        body: { brand: w.a.brandId, provider: "sandbox", emulates },
      });
      channels[emulates] = c.body.id;
    }
    const add = async (name: string, bytes: Uint8Array) => {
      const r = await upload(w.t, w.a.testKey, { brand: w.a.brandId, alt: name, file: { bytes } });
      if (r.status !== 201) throw new Error(JSON.stringify(r.body));
      media[name] = r.body.id;
    };
    await add("small", await jpeg(800, 800));
    await add("big", await noisyJpeg(1200, 1200)); // well over Bluesky's 1,000,000 bytes
    await add("tall", await jpeg(300, 1000));
    await add("clear", await noisyTransparentPng(700, 700)); // transparent, and over 1,000,000 bytes
    await add("gif", await animatedGif(40, 40));
  });
  afterAll(() => w.t.close());

  const preview = (body: Record<string, unknown>) =>
    w.t.request("POST", "/v1/posts/preview", { key: w.a.testKey, body: { brand: w.a.brandId, ...body } });
  const byChannel = (r: { body: { renditions: { channel: string }[] } }, id: string) =>
    // biome-ignore lint/suspicious/noExplicitAny: a rendition as JSON
    r.body.renditions.find((x) => x.channel === id) as any;

  test("a post embeds its media, attached to its first part", async () => {
    const r = await createPost(w.t, w.a.testKey, {
      brand: w.a.brandId,
      channels: [w.channel],
      content: { body: "With a picture" },
      media: [media.small],
    });
    expect(r.status).toBe(201);
    expect(schemaErrors("Post", r.body)).toBe("");
    expect(r.body.media).toHaveLength(1);
    expect(r.body.media[0]).toMatchObject({ id: media.small, object: "media", alt: "small", width: 800 });
    const got = await w.t.request("GET", `/v1/posts/${r.body.id}`, { key: w.a.testKey });
    expect(got.body.media[0].id).toBe(media.small);
  });

  test("with media the text may be empty", async () => {
    const r = await createPost(w.t, w.a.testKey, {
      brand: w.a.brandId,
      channels: [w.channel],
      content: { body: "" },
      media: [media.small],
    });
    expect(r.status).toBe(201);
  });

  test("the preview reports media_resized where publishing will scale an image down", async () => {
    const r = await preview({
      channels: [w.channel, channels.x!],
      content: { body: "Big" },
      media: [media.big],
    });
    expect(r.status).toBe(200);
    expect(r.body.valid).toBe(true);
    const bluesky = byChannel(r, w.channel);
    expect(bluesky.notices).toEqual([
      { code: "media_resized", message: expect.stringContaining("1000000 bytes"), media: media.big },
    ]);
    expect(byChannel(r, channels.x!).notices).toEqual([]); // X takes JPEG up to 5,000,000 bytes
  });

  test("each network's image rules: aspect ratio, type, transparency, GIFs are refused with the reason", async () => {
    const r = await preview({
      channels: [w.channel, channels.instagram!, channels.telegram!],
      content: { body: "Rules" },
      media: [media.tall, media.clear, media.gif],
    });
    expect(r.body.valid).toBe(false);
    const v = (id: string) =>
      byChannel(r, id).violations.map((x: { code: string; media: string | null }) => `${x.code} ${x.media}`);
    expect(v(channels.instagram!)).toEqual([
      `media_aspect_ratio ${media.tall}`,
      `media_type_unsupported ${media.clear}`,
      `media_type_unsupported ${media.gif}`,
    ]);
    expect(v(channels.telegram!)).toEqual([`media_type_unsupported ${media.gif}`]);
    expect(v(w.channel)).toEqual([`media_too_large ${media.clear}`]);
    const clear = byChannel(r, w.channel).violations[0];
    expect(clear.message).toContain("images with transparency are not resized");
    const gif = byChannel(r, channels.telegram!).violations[0];
    expect(gif.message).toContain("GIFs are not resized");
    // A create with the same input is refused with every one of them.
    const c = await createPost(w.t, w.a.testKey, {
      brand: w.a.brandId,
      channels: [channels.telegram!],
      content: { body: "Rules" },
      media: [media.gif],
    });
    expect(codes(c)).toEqual([`media_type_unsupported channels.${channels.telegram}`]);
  });

  test("media_required and too_much_media come from the network's rules", async () => {
    const r = await preview({ channels: [channels.instagram!], content: { body: "No picture" } });
    expect(byChannel(r, channels.instagram!).violations.map((x: { code: string }) => x.code)).toEqual([
      "media_required",
    ]);
    const five = await preview({
      channels: [w.channel],
      content: { body: "Five" },
      media: [media.small, media.big, media.tall, media.clear, media.gif],
    });
    expect(byChannel(five, w.channel).violations.map((x: { code: string }) => x.code)).toContain(
      "too_much_media",
    );
  });

  test("unusable media: invalid, missing (other org, other mode), other brand, duplicate, over ten", async () => {
    const o = await otherTenant(w.t);
    const theirs = (await upload(w.t, o.a.testKey, { brand: o.a.brandId, file: { bytes: await jpeg(5, 5) } }))
      .body.id;
    const live = (await upload(w.t, w.a.liveKey, { brand: w.a.brandId, file: { bytes: await jpeg(5, 5) } }))
      .body.id;
    const brand2 = await w.t.request("POST", "/v1/brands", { key: w.a.testKey, body: { name: "Second" } });
    const other = (
      await upload(w.t, w.a.testKey, { brand: brand2.body.id, file: { bytes: await jpeg(5, 5) } })
    ).body.id;
    const r = await createPost(w.t, w.a.testKey, {
      brand: w.a.brandId,
      channels: [w.channel],
      content: { body: "x" },
      media: ["nope", theirs, live, other, media.small, media.small],
    });
    expect(r.status).toBe(422);
    expect(codes(r)).toEqual([
      "media_invalid media.0",
      "media_missing media.1",
      "media_missing media.2",
      "media_other_brand media.3",
      "media_duplicate media.5",
      // Bluesky takes four media; six are listed.
      `too_much_media channels.${w.channel}`,
    ]);
    const eleven = Array.from({ length: 11 }, () => newId("media"));
    const many = await createPost(w.t, w.a.testKey, {
      brand: w.a.brandId,
      channels: [w.channel],
      content: { body: "x" },
      media: eleven,
    });
    expect(codes(many)[0]).toBe("too_much_media media");
  });

  test("a medium used by a post that is not finished cannot be deleted (409 media_in_use)", async () => {
    const m = (await upload(w.t, w.a.testKey, { brand: w.a.brandId, file: { bytes: await jpeg(50, 50) } }))
      .body.id;
    const p = await createPost(w.t, w.a.testKey, {
      brand: w.a.brandId,
      channels: [w.channel],
      content: { body: "Later" },
      media: [m],
      publish_at: new Date(w.clock.now() + 3600_000).toISOString(),
    });
    expect(p.status).toBe(201);
    const refused = await w.t.request("DELETE", `/v1/media/${m}`, { key: w.a.testKey });
    expect([refused.status, refused.body.code]).toEqual([409, "media_in_use"]);
    const cancel = await w.t.request("POST", `/v1/posts/${p.body.id}/cancel`, { key: w.a.testKey });
    expect(cancel.status).toBe(200);
    const del = await w.t.request("DELETE", `/v1/media/${m}`, { key: w.a.testKey });
    expect(del.status).toBe(200);
    // The finished post still shows what it carried.
    const got = await w.t.request("GET", `/v1/posts/${p.body.id}`, { key: w.a.testKey });
    expect(got.body.media[0].id).toBe(m);
  });
});
