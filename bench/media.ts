// Media figures, each as a ratio to a bare floor measured in the same run (bun bench/media.ts):
// 1. resizing a 24-megapixel JPEG for a 1,000,000-byte limit through svc's publish-time path (the medium read from
//    the database, checked against the network's rules, resized) vs a bare sharp call making the same JPEG
//    (goal <= 1.2x);
// 2. uploading a 1 GiB video through POST /v1/media (multipart, streamed into a local S3 server) vs a bare
//    PutObject stream of the same file (goal >= 0.5x the throughput), and the process's RSS growth meanwhile
//    (goal <= 64 MiB), after one 16 MiB upload has loaded the code an upload runs;
// 3. lateness of text posts while video targets wait on processing: bun bench/media-lateness.ts.
// The S3 server runs in a child process, so the memory measured is svc's (and the client streaming the file).
import { randomBytes } from "node:crypto";
import {
  closeSync,
  createReadStream,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  statSync,
  writeSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PutObjectCommand, S3Client } from "@aws-sdk/client-s3";
import sharp from "sharp";
import { mediaForTarget } from "../src/domain/media/publish.ts";
import { testApp } from "../test/helpers/app.ts";
import { tenant } from "../test/helpers/factories.ts";
import { upload } from "../test/helpers/media.ts";
import { paddedVideoHead } from "../test/helpers/video.ts";

if (process.argv[2] === "s3") {
  const { default: S3rver } = await import("s3rver");
  const server = new S3rver({
    address: "127.0.0.1",
    port: 0,
    silent: true,
    directory: process.argv[3]!,
    configureBuckets: [{ name: "bench", configs: [] }],
  });
  const info = (await server.run()) as { port: number };
  process.stdout.write(`${info.port}\n`);
  await new Promise(() => {});
}

if (process.argv[2] === "svc") {
  // svc's server in a process of its own, so its memory is measured alone.
  const t = await testApp("sqlite", { env: JSON.parse(process.argv[3]!) });
  const a = await tenant(t.app, "Bench Video");
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    maxRequestBodySize: t.app.config.maxVideoBytes + 1024 * 1024,
    fetch: (r) => t.http.handle(r),
  });
  Bun.gc(true);
  process.stdout.write(`${JSON.stringify({ port: server.port, key: a.testKey, brand: a.brandId })}\n`);
  await new Promise(() => {});
}

/** Resident memory of a process, from /proc. */
function rssOf(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return Number(m?.[1] ?? 0) * 1024;
}

const dir = mkdtempSync(join(tmpdir(), "svc-bench-media-"));
const child = Bun.spawn(["bun", import.meta.path, "s3", join(dir, "s3")], { stdout: "pipe" });
const reader = child.stdout.getReader();
const port = Number(new TextDecoder().decode((await reader.read()).value).trim());
const s3env = {
  SVC_S3_BUCKET: "bench",
  SVC_S3_ENDPOINT: `http://127.0.0.1:${port}`,
  SVC_S3_ACCESS_KEY_ID: "S3RVER",
  SVC_S3_SECRET_ACCESS_KEY: "S3RVER",
};
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const MiB = 1024 * 1024;

const only = process.argv[2] ?? "all";
const run = (part: string) => only === "all" || only === part;

// ---- 1. Resize ----
if (run("resize")) {
  const t = await testApp("sqlite");
  const a = await tenant(t.app, "Bench Resize");
  const channel = (await t.request("GET", "/v1/channels", { key: a.testKey })).body.data[0].id; // emulates Bluesky
  // A photo-like 6000x4000 JPEG: smooth colour with fine grain, as a camera makes.
  const base = await sharp(randomBytes(300 * 200 * 3), { raw: { width: 300, height: 200, channels: 3 } })
    .resize(6000, 4000, { kernel: "cubic" })
    .raw()
    .toBuffer();
  const grain = randomBytes(base.length);
  for (let i = 0; i < base.length; i++) base[i] = Math.min(255, base[i]! + (grain[i]! & 7));
  const photo = await sharp(base, { raw: { width: 6000, height: 4000, channels: 3 } })
    .jpeg({ quality: 90 })
    .toBuffer();
  const m = (await upload(t, a.testKey, { brand: a.brandId, file: { bytes: photo } })).body;
  const post = await t.request("POST", "/v1/posts", {
    key: a.testKey,
    body: {
      brand: a.brandId,
      channels: [channel],
      content: { body: "Photo" },
      media: [m.id],
      publish_at: "next_slot",
    },
  });
  const svcRuns: number[] = [];
  const bareRuns: number[] = [];
  let out = { width: 0, height: 0, size: 0 };
  for (let i = 0; i < 6; i++) {
    let s = performance.now();
    const prepared = await mediaForTarget(t.app, post.body.id, { provider: "sandbox", emulates: "bluesky" });
    if (!prepared.ok) throw new Error(prepared.message);
    const bytes = await prepared.media[0]!.read!();
    svcRuns.push(performance.now() - s);
    out = { width: prepared.media[0]!.width!, height: prepared.media[0]!.height!, size: bytes.byteLength };
    s = performance.now();
    await sharp(photo)
      .autoOrient()
      .resize(out.width, out.height, { fit: "fill" })
      .jpeg({ quality: 85 })
      .toBuffer();
    bareRuns.push(performance.now() - s);
  }
  const svc = median(svcRuns.slice(1));
  const bare = median(bareRuns.slice(1));
  console.log(
    `resize 24 MP JPEG (${(photo.length / 1e6).toFixed(1)} MB) for 1,000,000 bytes -> ${out.width}x${out.height}, ${out.size} bytes: svc ${svc.toFixed(0)} ms, bare sharp ${bare.toFixed(0)} ms, ratio ${(svc / bare).toFixed(2)}x (goal <= 1.2x)`,
  );
  await t.close();
}

// ---- 2. Upload 1 GiB ----
if (run("upload")) {
  const svcChild = Bun.spawn(["bun", import.meta.path, "svc", JSON.stringify(s3env)], { stdout: "pipe" });
  const line = new TextDecoder().decode((await svcChild.stdout.getReader().read()).value).trim();
  const a = JSON.parse(line) as { port: number; key: string; brand: string };
  // A real MP4 with its index in front, its media data padded to exactly 1 GiB.
  const size = 1024 * MiB;
  const head = paddedVideoHead(size);
  const path = join(dir, "big.mp4");
  const fd = openSync(path, "w");
  writeSync(fd, head);
  const zeros = Buffer.alloc(8 * MiB);
  for (let left = size - head.length; left > 0; left -= zeros.length)
    writeSync(fd, zeros, 0, Math.min(left, zeros.length));
  closeSync(fd);
  if (statSync(path).size !== size) throw new Error("bad file size");

  const boundary = `bench${randomBytes(8).toString("hex")}`;
  const pre = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="brand"\r\n\r\n${a.brand}\r\n--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.mp4"\r\nContent-Type: video/mp4\r\n\r\n`,
  );
  const post = Buffer.from(`\r\n--${boundary}--\r\n`);
  const file = createReadStream(path, { highWaterMark: MiB })[Symbol.asyncIterator]();
  let started = false;
  const body = new ReadableStream<Uint8Array>({
    async pull(c: ReadableStreamDefaultController<Uint8Array>) {
      if (!started) {
        started = true;
        c.enqueue(pre);
        return;
      }
      const next = await file.next();
      if (next.done) {
        c.enqueue(post);
        c.close();
      } else c.enqueue(next.value as Buffer);
    },
  });

  // One 16 MiB video first, as a server that has taken an upload before: the code an upload runs is loaded and
  // compiled before memory is measured (the first upload of a fresh process adds about 15 MiB of code).
  const warmUp = async () => {
    const warm = paddedVideoHead(16 * MiB);
    const form = new FormData();
    form.set("brand", a.brand);
    form.set("file", new Blob([warm, new Uint8Array(16 * MiB - warm.length)]), "warm.mp4");
    const w = await fetch(`http://127.0.0.1:${a.port}/v1/media`, {
      method: "POST",
      headers: { authorization: `Bearer ${a.key}` },
      body: form,
    });
    if (w.status !== 201) throw new Error(`warm-up upload failed: ${await w.text()}`);
    await Bun.sleep(500);
  };
  await warmUp();
  const rss0 = rssOf(svcChild.pid);
  let peak = rss0;
  const sampler = setInterval(() => {
    peak = Math.max(peak, rssOf(svcChild.pid));
  }, 50);
  let s = performance.now();
  const res = await fetch(`http://127.0.0.1:${a.port}/v1/media`, {
    method: "POST",
    headers: {
      authorization: `Bearer ${a.key}`,
      "content-type": `multipart/form-data; boundary=${boundary}`,
      "content-length": String(pre.length + size + post.length),
    },
    body,
  });
  const answer = (await res.json()) as { size?: number; code?: string; video?: unknown };
  const svcMs = performance.now() - s;
  clearInterval(sampler);
  if (res.status !== 201) throw new Error(`upload failed: ${JSON.stringify(answer)}`);

  const client = new S3Client({
    endpoint: s3env.SVC_S3_ENDPOINT,
    region: "auto",
    forcePathStyle: true,
    credentials: { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" },
  });
  s = performance.now();
  await client.send(
    new PutObjectCommand({
      Bucket: "bench",
      Key: "bare.mp4",
      Body: createReadStream(path),
      ContentLength: size,
    }),
  );
  const bareMs = performance.now() - s;
  const mb = size / MiB;
  console.log(
    `upload 1 GiB video: svc ${(mb / (svcMs / 1000)).toFixed(0)} MiB/s, bare PutObject ${(mb / (bareMs / 1000)).toFixed(0)} MiB/s, ratio ${(bareMs / svcMs).toFixed(2)}x (goal >= 0.5x); RSS growth ${((peak - rss0) / MiB).toFixed(0)} MiB (goal <= 64 MiB)`,
  );
  svcChild.kill();
  rmSync(path, { force: true });
}

child.kill();
rmSync(dir, { recursive: true, force: true });
process.exit(0);
