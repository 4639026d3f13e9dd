// Real images made with sharp for the media tests, and uploads as a client sends them (multipart/form-data).
import { randomBytes } from "node:crypto";
import sharp from "sharp";
import type { TestApp, TestResponse } from "./app.ts";

/** A JPEG of this stored size with an EXIF orientation (6 and 8 display it turned a quarter). */
export const jpeg = (width: number, height: number, opts: { orientation?: number; quality?: number } = {}) =>
  sharp({ create: { width, height, channels: 3, background: { r: 200, g: 80, b: 40 } } })
    .jpeg({ quality: opts.quality ?? 80 })
    .withMetadata(opts.orientation ? { orientation: opts.orientation } : {})
    .toBuffer();

/** A JPEG of noise: it does not compress, so its size grows with its pixels (for byte limits). */
export async function noisyJpeg(width: number, height: number, quality = 95): Promise<Buffer> {
  const raw = randomBytes(width * height * 3);
  return sharp(raw, { raw: { width, height, channels: 3 } })
    .jpeg({ quality })
    .toBuffer();
}

export const png = (width: number, height: number, alpha = 1) =>
  sharp({ create: { width, height, channels: 4, background: { r: 0, g: 120, b: 255, alpha } } })
    .png()
    .toBuffer();

export const webp = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: "#3a7" } })
    .webp()
    .toBuffer();

/** An animated GIF of two frames. */
export async function animatedGif(width: number, height: number): Promise<Buffer> {
  const frame = (c: string) =>
    sharp({ create: { width, height, channels: 3, background: c } })
      .raw()
      .toBuffer();
  const frames = Buffer.concat([await frame("#f00"), await frame("#00f")]);
  return sharp(frames, { raw: { width, height: height * 2, channels: 3, pageHeight: height } })
    .gif({ loop: 0, delay: [100, 100] })
    .toBuffer();
}

/** The smallest thing file-type calls MP4: an `ftyp` box and nothing else. */
export const mp4Header = () =>
  Buffer.concat([
    Buffer.from([0, 0, 0, 0x18]),
    Buffer.from("ftypisom"),
    Buffer.from([0, 0, 2, 0]),
    Buffer.from("isommp41"),
  ]);

export interface UploadFields {
  brand?: string;
  alt?: string;
  file?: { bytes: Uint8Array; name?: string; type?: string };
  [extra: string]: unknown;
}

/** POST /v1/media as multipart/form-data. */
export async function upload(t: TestApp, key: string, fields: UploadFields): Promise<TestResponse> {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) {
    if (k === "file" && v) {
      const f = v as NonNullable<UploadFields["file"]>;
      form.append(
        "file",
        new Blob([f.bytes as Uint8Array<ArrayBuffer>], { type: f.type ?? "application/octet-stream" }),
        f.name ?? "upload.bin",
      );
    } else if (typeof v === "string") form.append(k, v);
  }
  const res = await t.http.handle(
    new Request("http://localhost/v1/media", {
      method: "POST",
      headers: { authorization: `Bearer ${key}` },
      body: form,
    }),
  );
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {}
  return { status: res.status, headers: res.headers, body };
}

/** A PNG of noise with a half-transparent alpha channel: large, and not resizable (transparency). */
export async function noisyTransparentPng(width: number, height: number): Promise<Buffer> {
  const raw = randomBytes(width * height * 4);
  for (let i = 3; i < raw.length; i += 4) raw[i] = 128;
  return sharp(raw, { raw: { width, height, channels: 4 } })
    .png()
    .toBuffer();
}

/**
 * A "pixel flood": a real PNG of `width` x `height` grey pixels, every row zero, so it deflates to about a
 * thousandth of its pixels (20000 x 20000 is some 400 KB) yet decodes to all of them. Written a row at a time:
 * the test never holds the decoded picture either.
 */
export async function pixelFloodPng(width: number, height: number): Promise<Buffer> {
  const { createDeflate } = await import("node:zlib");
  const deflate = createDeflate({ level: 9 });
  const parts: Buffer[] = [];
  deflate.on("data", (c: Buffer) => parts.push(c));
  const ended = new Promise((resolve) => deflate.on("end", resolve));
  // Each row: filter byte 0 (none), then one zero byte per pixel.
  const row = Buffer.alloc(width + 1);
  for (let y = 0; y < height; y++)
    if (!deflate.write(row)) await new Promise((r) => deflate.once("drain", r));
  deflate.end();
  await ended;
  const chunk = (type: string, data: Buffer) => {
    const head = Buffer.alloc(4);
    head.writeUInt32BE(data.byteLength);
    const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(Bun.hash.crc32(body) >>> 0);
    return Buffer.concat([head, body, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 0; // greyscale
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", ihdr),
    chunk("IDAT", Buffer.concat(parts)),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}
