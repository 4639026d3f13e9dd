// A 1 GiB video published to the YouTube and TikTok stand-ins (bun bench/video-publish.ts), each figure beside its
// floor measured in the same run:
// - throughput: svc publishing the video (POST /v1/posts to published: the worker reads it from the local S3
//   server and streams it to the network: YouTube's resumable upload in one PUT, TikTok's 10 MiB chunks) vs a raw
//   streamed copy of the same bytes from the same S3 server to the same stand-in (GetObject's stream PUT to a
//   YouTube upload session; each 10 MiB range's stream PUT to a TikTok upload URL); goal >= 0.5x;
// - memory: svc's RSS growth during the transfer (sampled every 50 ms from /proc), after a 16 MiB video has gone
//   to each network (the code a publish runs is loaded); goal <= 64 MiB.
// The S3 server, the stand-ins (with their authorization servers) and svc (server and publish worker) run in
// three processes, so the memory measured is svc's alone. The video is a real MP4 (made by ffmpeg, index in
// front) whose media data is padded to exactly 1 GiB.
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
import { GetObjectCommand, ListObjectsV2Command, S3Client } from "@aws-sdk/client-s3";
import { paddedVideoHead } from "../test/helpers/video.ts";

const MiB = 1024 * 1024;
const SIZE = 1024 * MiB;
const CLIENT = { clientId: "bench-client", clientSecret: "bench-secret" };

/** The first line a child prints (its addresses), as JSON. */
async function firstLine<T>(p: { stdout: ReadableStream<Uint8Array> }): Promise<T> {
  const reader = p.stdout.getReader();
  let text = "";
  while (!text.includes("\n")) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`child ended before it was ready: ${text}`);
    text += new TextDecoder().decode(value);
  }
  reader.releaseLock();
  return JSON.parse(text.slice(0, text.indexOf("\n")));
}

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
  process.stdout.write(`${JSON.stringify({ port: info.port })}\n`);
  await new Promise(() => {});
}

if (process.argv[2] === "networks") {
  const { oauthServer } = await import("../test/helpers/oauth-server.ts");
  const { startYouTube } = await import("../test/stand-ins/youtube.ts");
  const { startTikTok } = await import("../test/stand-ins/tiktok.ts");
  const ytAuth = await oauthServer({
    routes: { authorization: "/o/oauth2/v2/auth", token: "/token" },
    scopes: ["https://www.googleapis.com/auth/youtube.upload"],
    tokenEndpointAuthMethod: "client_secret_post",
    accessTokenTtl: 3600,
  });
  const ttAuth = await oauthServer({
    routes: { authorization: "/v2/auth/authorize/", token: "/v2/oauth/token/" },
    scopes: ["user.info.basic", "video.publish", "video.upload"],
    tokenEndpointAuthMethod: "client_secret_post",
    accessTokenTtl: 24 * 3600,
  });
  await ytAuth.start({ ...CLIENT, redirectUri: "http://localhost:8080/connect/youtube/callback" });
  await ttAuth.start({ ...CLIENT, redirectUri: "http://localhost:8080/connect/tiktok/callback" });
  const yt = await startYouTube(ytAuth);
  const tt = await startTikTok(ttAuth);
  // Processed at the first look: the figure is the transfer's.
  yt.processingLooks = 0;
  tt.processingLooks = 0;
  // What the stand-ins took, asked over HTTP by the bench at the end.
  const report = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch: () =>
      Response.json({
        youtube: yt.videos.map((v) => ({ size: v.size, sha256: v.sha256 })),
        tiktok: tt.posts.map((p) => ({ size: p.received, sha256: p.sha256 })),
        problems: [...yt.problems, ...tt.problems],
      }),
  });
  process.stdout.write(
    `${JSON.stringify({
      youtube: yt.url,
      tiktok: tt.url,
      ytAuth: ytAuth.url,
      ttAuth: ttAuth.url,
      ytChannel: yt.channelOf("benchyt"),
      ttOpenId: tt.openIdOf("benchtt"),
      ytTokens: await ytAuth.issue("benchyt", CLIENT.clientId),
      ttTokens: await ttAuth.issue("benchtt", CLIENT.clientId),
      rawYt: await ytAuth.issue("rawyt", CLIENT.clientId),
      rawTt: await ttAuth.issue("rawtt", CLIENT.clientId),
      report: `http://127.0.0.1:${report.port}`,
    })}\n`,
  );
  await new Promise(() => {});
}

if (process.argv[2] === "svc") {
  // svc's server and publish worker in a process of their own, so their memory is measured alone.
  const env = JSON.parse(process.argv[3]!) as Record<string, string>;
  const n = JSON.parse(process.argv[4]!) as {
    ytChannel: string;
    ttOpenId: string;
    ytTokens: { access_token: string; refresh_token: string };
    ttTokens: { access_token: string; refresh_token: string };
  };
  const { testApp } = await import("../test/helpers/app.ts");
  const { tenant } = await import("../test/helpers/factories.ts");
  const { personActor } = await import("../test/helpers/person.ts");
  const { signedInChannel } = await import("../test/helpers/signin.ts");
  const { createApp } = await import("../src/domain/apps/create.ts");
  const { adapterFor } = await import("../src/platforms/adapter-registry.ts");
  const { startPublishWorker } = await import("../src/queue/publish/worker.ts");
  const t = await testApp("sqlite", { env });
  const a = await tenant(t.app, "Bench Video Publish");
  const actor = await personActor(t.app, a.userId, a.orgId, true);
  const channels: Record<string, string> = {};
  for (const [provider, key, tokens, settings] of [
    ["youtube", n.ytChannel, n.ytTokens, { channel_id: n.ytChannel, privacy: "private" }],
    ["tiktok", n.ttOpenId, n.ttTokens, { open_id: n.ttOpenId, privacy: "SELF_ONLY" }],
  ] as const) {
    const appId = (
      await createApp(t.app, actor, {
        provider,
        name: provider,
        ...{ client_id: CLIENT.clientId, client_secret: CLIENT.clientSecret },
      })
    ).id;
    // The tokens the authorization server issued in the networks' process, as a finished sign-in leaves them.
    const issued = { issue: async () => tokens } as unknown as Parameters<typeof signedInChannel>[2];
    channels[provider] = (
      await signedInChannel(t, a, issued, {
        provider,
        appId,
        clientId: CLIENT.clientId,
        account: provider,
        expiresInMs: 3600_000,
        shown: { key, settings },
      })
    ).id;
  }
  startPublishWorker(t.app, { adapterFor, pollMs: 20 });
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    idleTimeout: 0,
    maxRequestBodySize: t.app.config.maxVideoBytes + MiB,
    fetch: (r) => t.http.handle(r),
  });
  Bun.gc(true);
  process.stdout.write(
    `${JSON.stringify({ port: server.port, key: a.liveKey, brand: a.brandId, channels })}\n`,
  );
  await new Promise(() => {});
}

// A child that fell through its role would start the whole bench again: only the parent goes on.
if (process.argv[2] !== undefined) throw new Error(`unknown role ${process.argv[2]}`);

/** Resident memory of a process, from /proc. */
function rssOf(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return Number(m?.[1] ?? 0) * 1024;
}

const dir = mkdtempSync(join(tmpdir(), "svc-bench-video-publish-"));
const s3child = Bun.spawn(["bun", import.meta.path, "s3", join(dir, "s3")], { stdout: "pipe" });
const s3port = (await firstLine<{ port: number }>(s3child)).port;
const netChild = Bun.spawn(["bun", import.meta.path, "networks"], { stdout: "pipe" });
const net = await firstLine<{
  youtube: string;
  tiktok: string;
  ytAuth: string;
  ttAuth: string;
  ytChannel: string;
  ttOpenId: string;
  ytTokens: { access_token: string; refresh_token: string };
  ttTokens: { access_token: string; refresh_token: string };
  rawYt: { access_token: string };
  rawTt: { access_token: string };
  report: string;
}>(netChild);
const env = {
  SVC_S3_BUCKET: "bench",
  SVC_S3_ENDPOINT: `http://127.0.0.1:${s3port}`,
  SVC_S3_ACCESS_KEY_ID: "S3RVER",
  SVC_S3_SECRET_ACCESS_KEY: "S3RVER",
  SVC_ALLOW_PRIVATE_NETWORKS: "true",
  SVC_PROVIDER_ORIGINS: `youtube=${net.youtube},youtube.token=${net.ytAuth},tiktok=${net.tiktok},tiktok.token=${net.ttAuth}`,
};
const svcChild = Bun.spawn(["bun", import.meta.path, "svc", JSON.stringify(env), JSON.stringify(net)], {
  stdout: "pipe",
});
// The children end with the bench, whatever way it ends.
process.on("exit", () => {
  for (const c of [svcChild, netChild, s3child]) c.kill();
});
const svc = await firstLine<{ port: number; key: string; brand: string; channels: Record<string, string> }>(
  svcChild,
);
const api = `http://127.0.0.1:${svc.port}/v1`;
const auth = { authorization: `Bearer ${svc.key}` };

/** A file of `size` bytes: a real MP4's start, padded with zeros. */
function writeVideo(path: string, size: number) {
  const head = paddedVideoHead(size);
  const fd = openSync(path, "w");
  writeSync(fd, head);
  const zeros = Buffer.alloc(8 * MiB);
  for (let left = size - head.length; left > 0; left -= zeros.length)
    writeSync(fd, zeros, 0, Math.min(left, zeros.length));
  closeSync(fd);
  if (statSync(path).size !== size) throw new Error("bad file size");
}

/** Uploads a file through POST /v1/media (streamed multipart), returns the media ID. */
async function uploadMedia(path: string, size: number): Promise<string> {
  const boundary = `bench${Date.now()}`;
  const pre = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="brand"\r\n\r\n${svc.brand}\r\n--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="v.mp4"\r\nContent-Type: video/mp4\r\n\r\n`,
  );
  const post = Buffer.from(`\r\n--${boundary}--\r\n`);
  const file = createReadStream(path, { highWaterMark: MiB })[Symbol.asyncIterator]();
  let started = false;
  const body = new ReadableStream<Uint8Array>({
    async pull(c) {
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
  const res = await fetch(`${api}/media`, {
    method: "POST",
    headers: {
      ...auth,
      "content-type": `multipart/form-data; boundary=${boundary}`,
      "content-length": String(pre.length + size + post.length),
    },
    body,
  });
  const answer = (await res.json()) as { id?: string };
  if (res.status !== 201 || !answer.id) throw new Error(`upload failed: ${JSON.stringify(answer)}`);
  return answer.id;
}

/** Publishes the medium to one channel; resolves when the target is published, with the time it took. */
async function publish(channel: string, media: string, body: string): Promise<number> {
  const s = performance.now();
  const r = await fetch(`${api}/posts`, {
    method: "POST",
    headers: { ...auth, "content-type": "application/json" },
    body: JSON.stringify({ brand: svc.brand, content: { body }, channels: [channel], media: [media] }),
  });
  const post = (await r.json()) as { id: string };
  if (r.status !== 201) throw new Error(`post failed: ${JSON.stringify(post)}`);
  for (;;) {
    await Bun.sleep(50);
    const got = (await (await fetch(`${api}/posts/${post.id}`, { headers: auth })).json()) as {
      targets: { status: string; error: unknown }[];
    };
    const st = got.targets[0]!.status;
    if (st === "published") return performance.now() - s;
    if (st !== "queued" && st !== "publishing")
      throw new Error(`target ${st}: ${JSON.stringify(got.targets[0])}`);
  }
}

const warmPath = join(dir, "warm.mp4");
writeVideo(warmPath, 16 * MiB);
const bigPath = join(dir, "big.mp4");
writeVideo(bigPath, SIZE);
const warm = await uploadMedia(warmPath, 16 * MiB);
const big = await uploadMedia(bigPath, SIZE);
// The code a publish runs is loaded by one 16 MiB video to each network first.
await publish(svc.channels.youtube!, warm, "Warm-up");
await publish(svc.channels.tiktok!, warm, "Warm-up");
await Bun.sleep(500);

async function measured(provider: string): Promise<{ ms: number; growth: number }> {
  const rss0 = rssOf(svcChild.pid);
  let peak = rss0;
  const sampler = setInterval(() => {
    peak = Math.max(peak, rssOf(svcChild.pid));
  }, 50);
  const ms = await publish(svc.channels[provider]!, big, `A 1 GiB video\nPublished to ${provider}.`);
  clearInterval(sampler);
  return { ms, growth: peak - rss0 };
}
const ytSvc = await measured("youtube");
const ttSvc = await measured("tiktok");

// The floor: the same bytes from the same S3 server, streamed by the plain S3 client to the same stand-in.
const s3 = new S3Client({
  endpoint: env.SVC_S3_ENDPOINT,
  region: "auto",
  forcePathStyle: true,
  credentials: { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" },
});
// The object svc stored for the 1 GiB video (the only one of its size).
const listed = await s3.send(new ListObjectsV2Command({ Bucket: "bench" }));
const bigKey = listed.Contents?.find((o) => o.Size === SIZE)?.Key;
if (!bigKey) throw new Error("the 1 GiB object is not in the bucket");
const objectStream = async (range?: string) =>
  (
    await s3.send(new GetObjectCommand({ Bucket: "bench", Key: bigKey, ...(range ? { Range: range } : {}) }))
  ).Body!.transformToWebStream();

async function rawYouTube(): Promise<number> {
  const s = performance.now();
  const start = await fetch(
    `${net.youtube}/upload/youtube/v3/videos?uploadType=resumable&part=snippet,status`,
    {
      method: "POST",
      headers: {
        authorization: `Bearer ${net.rawYt.access_token}`,
        "content-type": "application/json",
        "x-upload-content-length": String(SIZE),
        "x-upload-content-type": "video/mp4",
      },
      body: JSON.stringify({
        snippet: { title: "Raw copy", description: "", categoryId: "22" },
        status: { privacyStatus: "private", selfDeclaredMadeForKids: false },
      }),
    },
  );
  const session = start.headers.get("location");
  if (!session) throw new Error(`raw start: ${start.status}`);
  const put = await fetch(session, {
    method: "PUT",
    headers: { "content-type": "video/mp4", "content-length": String(SIZE) },
    body: await objectStream(),
    duplex: "half",
  } as RequestInit);
  if (put.status !== 200) throw new Error(`raw upload: ${put.status} ${await put.text()}`);
  return performance.now() - s;
}

async function rawTikTok(): Promise<number> {
  const s = performance.now();
  const chunk = 10 * MiB;
  const count = Math.floor(SIZE / chunk);
  const init = await fetch(`${net.tiktok}/v2/post/publish/video/init/`, {
    method: "POST",
    headers: { authorization: `Bearer ${net.rawTt.access_token}`, "content-type": "application/json" },
    body: JSON.stringify({
      post_info: { title: "Raw copy", privacy_level: "SELF_ONLY" },
      source_info: { source: "FILE_UPLOAD", video_size: SIZE, chunk_size: chunk, total_chunk_count: count },
    }),
  });
  const url = ((await init.json()) as { data: { upload_url: string } }).data.upload_url;
  for (let i = 0; i < count; i++) {
    const first = i * chunk;
    const last = i === count - 1 ? SIZE - 1 : first + chunk - 1;
    const res = await fetch(url, {
      method: "PUT",
      headers: {
        "content-type": "video/mp4",
        "content-length": String(last - first + 1),
        "content-range": `bytes ${first}-${last}/${SIZE}`,
      },
      body: await objectStream(`bytes=${first}-${last}`),
      duplex: "half",
    } as RequestInit);
    if (res.status !== (i === count - 1 ? 201 : 206)) throw new Error(`raw chunk ${i}: ${res.status}`);
  }
  return performance.now() - s;
}
const ytRaw = await rawYouTube();
const ttRaw = await rawTikTok();

// What the stand-ins took: the whole file each time.
const taken = (await (await fetch(net.report)).json()) as {
  youtube: { size: number }[];
  tiktok: { size: number }[];
  problems: string[];
};
const sizesOk = [...taken.youtube, ...taken.tiktok].filter((x) => x.size === SIZE).length === 4;
if (!sizesOk || taken.problems.length) throw new Error(`stand-ins: ${JSON.stringify(taken)}`);

const mbps = (ms: number) => SIZE / MiB / (ms / 1000);
for (const [name, svcRun, rawMs] of [
  ["YouTube (resumable upload, one PUT)", ytSvc, ytRaw],
  ["TikTok (10 MiB chunks)", ttSvc, ttRaw],
] as const) {
  const ratio = rawMs / svcRun.ms;
  const growth = svcRun.growth / MiB;
  console.log(
    `${name}: svc ${mbps(svcRun.ms).toFixed(0)} MiB/s, raw streamed copy ${mbps(rawMs).toFixed(0)} MiB/s, ratio ${ratio.toFixed(2)}x (floor >= 0.5x: ${ratio >= 0.5 ? "met" : "NOT met"}); RSS growth ${growth.toFixed(0)} MiB (ceiling <= 64 MiB, ${(growth / 64).toFixed(2)} of it: ${growth <= 64 ? "met" : "NOT met"})`,
  );
}

for (const c of [svcChild, netChild, s3child]) c.kill();
rmSync(dir, { recursive: true, force: true });
process.exit(0);
