import { describe, expect, test } from "bun:test";
import { getPlatform } from "../../src/platforms/rules-registry.ts";
import { checkImage, checkVideo } from "../../src/platforms/text/fit.ts";
import type { PlatformRules } from "../../src/platforms/types.ts";

const rules = (p: string): PlatformRules => getPlatform(p)!;
const jpeg = { id: "media_1", mime: "image/jpeg", bytes: 500_000, width: 1200, height: 800 };

describe("checkImage", () => {
  test("an image within every rule passes unchanged", () => {
    expect(checkImage(rules("bluesky"), jpeg)).toEqual({ violations: [], notices: [] });
  });

  test("too many bytes: resized, with a notice naming the medium", () => {
    const r = checkImage(rules("bluesky"), { ...jpeg, bytes: 3_000_000 });
    expect(r.violations).toEqual([]);
    expect(r.notices).toMatchObject([{ code: "media_resized", media: "media_1" }]);
  });

  test("a type the platform does not take is re-encoded as JPEG where it takes JPEG", () => {
    const r = checkImage(rules("instagram"), { ...jpeg, mime: "image/png", width: 1080, height: 1080 });
    expect(r.violations).toEqual([]);
    expect(r.notices.map((n) => n.code)).toEqual(["media_resized"]);
  });

  test("over width + height is scaled down (telegram)", () => {
    const r = checkImage(rules("telegram"), { ...jpeg, width: 8000, height: 4000 });
    expect(r.notices.map((n) => n.code)).toEqual(["media_resized"]);
  });

  test("GIFs are never resized", () => {
    const r = checkImage(rules("x"), { ...jpeg, mime: "image/gif", bytes: 16_000_000 });
    expect(r.violations).toMatchObject([{ code: "media_too_large", length: 16_000_000, limit: 15_000_000 }]);
    expect(r.notices).toEqual([]);
    const threads = checkImage(rules("threads"), { ...jpeg, mime: "image/gif" });
    expect(threads.violations.map((v) => v.code)).toEqual(["media_type_unsupported"]);
  });

  test("images with transparency are never resized", () => {
    const r = checkImage(rules("instagram"), {
      ...jpeg,
      mime: "image/png",
      width: 1080,
      height: 1080,
      has_alpha: true,
    });
    expect(r.violations.map((v) => v.code)).toEqual(["media_type_unsupported"]);
    expect(r.violations[0]?.message).toContain("transparency");
  });

  test("images over 50 megapixels are never resized", () => {
    const r = checkImage(rules("bluesky"), { ...jpeg, bytes: 9_000_000, width: 10_000, height: 6000 });
    expect(r.violations.map((v) => v.code)).toEqual(["media_too_large"]);
    expect(r.violations[0]?.message).toContain("50 megapixels");
  });

  test("a platform that does not take JPEG cannot have an image converted", () => {
    const noJpeg = {
      ...rules("bluesky"),
      images: { ...rules("bluesky").images, max_bytes: { "image/png": 1_000_000 } },
    };
    expect(checkImage(noJpeg, jpeg).violations.map((v) => v.code)).toEqual(["media_type_unsupported"]);
  });

  test("aspect ratios are refused, never cropped", () => {
    const tall = checkImage(rules("instagram"), { ...jpeg, width: 1000, height: 2000 });
    expect(tall.violations.map((v) => v.code)).toEqual(["media_aspect_ratio"]);
    expect(tall.notices).toEqual([]);
    expect(checkImage(rules("instagram"), { ...jpeg, width: 1080, height: 1350 }).violations).toEqual([]); // 4:5
    expect(checkImage(rules("instagram"), { ...jpeg, width: 1910, height: 1000 }).violations).toEqual([]); // 1.91:1
    expect(
      checkImage(rules("telegram"), { ...jpeg, width: 2100, height: 100 }).violations.map((v) => v.code),
    ).toEqual(["media_aspect_ratio"]);
  });

  test("video networks take no images", () => {
    for (const p of ["youtube", "tiktok"]) {
      expect(checkImage(rules(p), jpeg).violations.map((v) => v.code)).toEqual(["media_type_unsupported"]);
    }
  });
});

describe("checkVideo", () => {
  const video = {
    id: "media_2",
    mime: "video/mp4",
    bytes: 20 * 1024 * 1024,
    duration_ms: 30_000,
    frame_rate: 30,
    video_codec: "avc1.64001F",
    width: 1920,
    height: 1080,
  };

  test("an H.264 MP4 within limits passes", () => {
    expect(checkVideo(rules("x"), video)).toEqual({ violations: [], notices: [] });
  });

  test("X: too long, too many frames, wrong codec, too narrow", () => {
    const r = checkVideo(rules("x"), {
      ...video,
      duration_ms: 141_000,
      frame_rate: 120,
      video_codec: "hvc1",
      width: 400,
      height: 1600,
    });
    expect(r.violations.map((v) => v.code)).toEqual([
      "video_too_long",
      "video_frame_rate",
      "video_codec_unsupported",
      "media_aspect_ratio",
    ]);
    expect(r.violations[0]).toMatchObject({ length: 141_000, limit: 140_000 });
  });

  test("too short for LinkedIn, too big for Bluesky", () => {
    expect(
      checkVideo(rules("linkedin"), { ...video, duration_ms: 2000 }).violations.map((v) => v.code),
    ).toEqual(["video_too_short"]);
    expect(checkVideo(rules("bluesky"), { ...video, bytes: 150_000_000 }).violations).toMatchObject([
      { code: "media_too_large", limit: 100_000_000 },
    ]);
  });

  test("platforms without video, and containers they do not take", () => {
    expect(checkVideo(rules("pinterest"), video).violations.map((v) => v.code)).toEqual([
      "video_unsupported",
    ]);
    expect(
      checkVideo(rules("telegram"), { ...video, mime: "video/quicktime" }).violations.map((v) => v.code),
    ).toEqual(["video_unsupported"]);
  });
});
