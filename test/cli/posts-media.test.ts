// `svc posts create --media` with local files: each is uploaded (POST /v1/media, multipart, streamed from disk)
// into the post's brand and its ID takes its place among the given IDs. A value that is neither a file nor a
// media ID is a usage error before anything is sent; a refused upload prints the API's code and leaves nothing
// behind; a video goes whole into the install's bucket. The real binary against a real server (and a real local
// S3 server), piped and in a pseudo-terminal.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { closeSync, ftruncateSync, mkdtempSync, openSync, rmSync, writeFileSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { byteSize } from "../../src/cli/posts/media.ts";
import { type Cli, cli } from "../helpers/cli.ts";
import { dialects } from "../helpers/db.ts";
import { type Tenant, tenant } from "../helpers/factories.ts";
import { type ListeningApp, listeningApp } from "../helpers/listening.ts";
import { jpeg, mp4Header, png, upload } from "../helpers/media.ts";
import { type LocalS3, localS3 } from "../helpers/s3.ts";
import { paddedVideoHead } from "../helpers/video.ts";

const POST_ID = /^post_[0-7][0-9a-z]{25}$/;

for (const dialect of dialects) {
  describe(`svc posts create --media FILES (${dialect})`, () => {
    let t: ListeningApp;
    let acme: Tenant;
    let c: Cli;
    let dir: string;
    let photo: string;
    let photoBytes: Buffer;
    const file = (name: string, bytes: Uint8Array | string) => {
      const p = join(dir, name);
      writeFileSync(p, bytes);
      return p;
    };
    const get = async (path: string) => (await t.request("GET", path, { key: acme.testKey })).body;
    const counts = async () => ({
      posts: (await get("/v1/posts?limit=100")).data.length,
      media: (await get("/v1/media?limit=100")).data.length,
    });
    beforeAll(async () => {
      t = await listeningApp(dialect);
      acme = await tenant(t.app, "Acme");
      c = cli();
      const r = await c.run(["auth", "login", "--hostname", t.url, "--with-token"], { stdin: acme.testKey });
      expect(r.code).toBe(0);
      dir = mkdtempSync(join(tmpdir(), "svc-climedia-"));
      photoBytes = await jpeg(640, 480);
      photo = file("photo.jpg", photoBytes);
    });
    afterAll(async () => {
      c.cleanup();
      rmSync(dir, { recursive: true, force: true });
      await t.close();
    });

    test("a local JPEG with --alt: uploaded into the brand, attached, stdout only the post ID", async () => {
      const r = await c.run([
        "posts",
        "create",
        "--brand",
        acme.brandSlug,
        "--body",
        "New shelf",
        "--media",
        photo,
        "--alt",
        "An oak shelf with three books",
      ]);
      expect(r).toMatchObject({ code: 0, err: "" });
      expect(r.out.trimEnd()).toMatch(POST_ID);
      const post = await get(`/v1/posts/${r.out.trim()}`);
      expect(post.media).toHaveLength(1);
      const medium = await get(`/v1/media/${post.media[0].id}`);
      expect(medium).toMatchObject({
        brand: acme.brandId,
        type: "image/jpeg",
        size: photoBytes.length,
        width: 640,
        height: 480,
        alt: "An oak shelf with three books",
        filename: "photo.jpg",
      });
    });

    test("an existing ID and paths keep their order; comma-separated and repeated; a name outside ASCII", async () => {
      const first = await upload(t, acme.testKey, {
        brand: acme.brandId,
        file: { bytes: await png(300, 300), name: "first.png", type: "image/png" },
      });
      expect(first.status).toBe(201);
      const second = file("zweite Ansicht, café.png", await png(200, 100));
      const third = file("third.jpg", await jpeg(120, 90));
      const r = await c.run([
        "posts",
        "create",
        "--brand",
        acme.brandSlug,
        "--body",
        "Three views",
        "--media",
        // a path holding a comma is taken whole, as the file exists
        second,
        "--media",
        `${first.body.id},${third}`,
        "--alt",
        "second",
        "--alt",
        "third",
      ]);
      expect(r).toMatchObject({ code: 0, err: "" });
      const post = await get(`/v1/posts/${r.out.trim()}`);
      const media = await Promise.all(post.media.map((m: { id: string }) => get(`/v1/media/${m.id}`)));
      expect(media.map((m) => [m.filename, m.width, m.alt])).toEqual([
        ["zweite Ansicht, café.png", 200, "second"],
        ["first.png", 300, null],
        ["third.jpg", 120, "third"],
      ]);
      expect(media[1].id).toBe(first.body.id);
    });

    test("neither a file nor a media ID: exit 2 naming it, before anything is uploaded", async () => {
      const before = await counts();
      const missing = join(dir, "nope.jpg");
      const r = await c.run([
        "posts",
        "create",
        "--brand",
        acme.brandSlug,
        "--body",
        "x",
        "--media",
        `${photo},${missing}`,
      ]);
      expect(r).toEqual({
        code: 2,
        out: "",
        err: `svc posts create: --media ${missing}: no such file, and not a media ID (media_…)\n`,
      });
      const d = await c.run(["posts", "create", "--brand", acme.brandSlug, "--body", "x", "--media", dir]);
      expect(d).toEqual({ code: 2, out: "", err: `svc posts create: --media ${dir}: is a directory\n` });
      const alts = await c.run([
        "posts",
        "create",
        "--brand",
        acme.brandSlug,
        "--body",
        "x",
        "--media",
        photo,
        "--alt",
        "a",
        "--alt",
        "b",
      ]);
      expect(alts.code).toBe(2);
      expect(alts.err).toBe(
        "svc posts create: 2 --alt for 1 file to upload (each --alt goes with one file, in order)\n",
      );
      // a bad --at is found before the upload too
      const at = await c.run([
        "posts",
        "create",
        "--brand",
        acme.brandSlug,
        "--media",
        photo,
        "--at",
        "soon",
      ]);
      expect(at.code).toBe(2);
      expect(await counts()).toEqual(before);
    });

    test("a refused upload prints the API's code, exits 1 and leaves no post and no media", async () => {
      const before = await counts();
      const notes = file("notes.txt", "just some text, not an image\n");
      const r = await c.run([
        "posts",
        "create",
        "--brand",
        acme.brandSlug,
        "--body",
        "x",
        // the photo goes up first and is removed again when the next file is refused
        "--media",
        `${photo},${notes}`,
      ]);
      expect(r.code).toBe(1);
      expect(r.out).toBe("");
      expect(r.err).toBe(
        "svc posts create: The file is not a JPEG, PNG, GIF or WebP image, nor an MP4 or QuickTime video. (media_type_unsupported)\n",
      );
      const video = file("clip.mp4", mp4Header());
      const v = await c.run(["posts", "create", "--brand", acme.brandSlug, "--body", "x", "--media", video]);
      expect(v.code).toBe(1);
      expect(v.err).toContain("(video_needs_s3)");
      expect(await counts()).toEqual(before);
    });

    test("the post is refused after the upload: the uploaded media are removed", async () => {
      const before = await counts();
      const r = await c.run([
        "posts",
        "create",
        "--brand",
        acme.brandSlug,
        "--body",
        "x",
        "--media",
        photo,
        "--channels",
        "chan_0000000000000000000000000a",
      ]);
      expect(r.code).toBe(1);
      expect(r.err).toContain("(channel_missing)");
      expect(await counts()).toEqual(before);
    });

    test("--json: stdout is the post JSON with the uploaded medium", async () => {
      const r = await c.run([
        "posts",
        "create",
        "--brand",
        acme.brandSlug,
        "--body",
        "As JSON",
        "--media",
        photo,
        "--json",
        "id,media",
      ]);
      expect(r.code).toBe(0);
      expect(r.err).toBe("");
      const post = JSON.parse(r.out);
      expect(Object.keys(post)).toEqual(["id", "media"]);
      expect(post.id).toMatch(POST_ID);
      expect(post.media[0]).toMatchObject({ type: "image/jpeg", size: photoBytes.length });
      const bad = await c.run([
        "posts",
        "create",
        "--brand",
        acme.brandSlug,
        "--media",
        photo,
        "--json",
        "nope",
      ]);
      expect(bad.code).toBe(1);
      expect(bad.err).toContain('unknown JSON field "nope"');
    });

    test("posts preview takes files too, and removes what it uploaded", async () => {
      const before = await counts();
      // Five images: one more than the Bluesky-like channel takes, which only the uploaded media can show.
      const five = await Promise.all(
        [1, 2, 3, 4, 5].map(async (n) => file(`p${n}.jpg`, await jpeg(50 + n, 50))),
      );
      const r = await c.run([
        "posts",
        "preview",
        "--brand",
        acme.brandSlug,
        "--body",
        "Look",
        "--media",
        five.join(","),
      ]);
      expect(r.code).toBe(1);
      expect(r.out).toContain("Look");
      expect(r.err).toContain("(too_much_media)");
      expect(await counts()).toEqual(before);
    });

    test("in a terminal: one line per uploaded file (name, size, ID), the post ID last", async () => {
      const p = c.pty([
        "posts",
        "create",
        "--brand",
        acme.brandSlug,
        "--body",
        "From a terminal",
        "--media",
        photo,
      ]);
      expect(await p.exited).toBe(0);
      const lines = p.screen.trimEnd().split("\n");
      const id = lines.at(-1)!;
      expect(id).toMatch(POST_ID);
      // The progress line is rewritten in place and left as one finished line: name, size, ID.
      const size = byteSize(photoBytes.length).replace(".", "\\.");
      const finished = new RegExp(
        `\\r\\x1b\\[2K\\x1b\\[32m✓\\x1b\\[39m Uploaded photo\\.jpg \\(${size}\\) (media_[0-9a-z]{26})\\r?\\n`,
      ).exec(p.raw);
      expect(finished).not.toBeNull();
      const mediaId = finished![1]!;
      expect(p.raw).toContain(`Uploading photo.jpg (${byteSize(photoBytes.length)}) 100%`);
      expect((await get(`/v1/posts/${id}`)).media.map((m: { id: string }) => m.id)).toEqual([mediaId]);
    });

    test("in a terminal, a refused upload: the files already up are named as removed, then the error", async () => {
      const notes = file("notes2.txt", "not an image\n");
      const p = c.pty([
        "posts",
        "create",
        "--brand",
        acme.brandSlug,
        "--body",
        "x",
        "--media",
        `${photo},${notes}`,
      ]);
      expect(await p.exited).toBe(1);
      const up = /✓ Uploaded photo\.jpg \([^)]+\) (media_[0-9a-z]{26})/.exec(p.screen);
      expect(up).not.toBeNull();
      expect(p.screen).toContain("✗ Could not upload notes2.txt (13 bytes)");
      const lines = p.screen.trimEnd().split("\n").slice(-2);
      expect(lines).toEqual([
        `Removed what was uploaded (${up![1]}); no post was created.`,
        "svc posts create: The file is not a JPEG, PNG, GIF or WebP image, nor an MP4 or QuickTime video. (media_type_unsupported)",
      ]);
      expect((await t.request("GET", `/v1/media/${up![1]}`, { key: acme.testKey })).status).toBe(404);
    });

    test("sizes read as a person reads them", () => {
      expect([1, 900, 1536, 20_000, 5 * 1024 ** 3].map(byteSize)).toEqual([
        "1 byte",
        "900 bytes",
        "1.5 KiB",
        "20 KiB",
        "5.0 GiB",
      ]);
    });

    test("--help names files and --alt", async () => {
      const r = await c.run(["posts", "create", "--help"]);
      expect(r.code).toBe(0);
      expect(r.out).toContain("--media IDS|FILES");
      expect(r.out).toContain("--alt TEXT");
    });
  });

  describe(`svc posts create --media VIDEO, on an install with S3 (${dialect})`, () => {
    let s3: LocalS3;
    let t: ListeningApp;
    let acme: Tenant;
    let c: Cli;
    let dir: string;
    beforeAll(async () => {
      s3 = await localS3();
      t = await listeningApp(dialect, { env: s3.env });
      acme = await tenant(t.app, "Acme");
      c = cli();
      const r = await c.run(["auth", "login", "--hostname", t.url, "--with-token"], { stdin: acme.testKey });
      expect(r.code).toBe(0);
      dir = mkdtempSync(join(tmpdir(), "svc-climedia-video-"));
    });
    afterAll(async () => {
      c.cleanup();
      rmSync(dir, { recursive: true, force: true });
      await t.close();
      await s3.close();
    });

    test("a 64 MiB video from a path goes into the bucket whole and is the post's medium", async () => {
      // Four times the image limit: only a video can be this large, and it is sent as read from disk.
      const size = 64 * 1024 * 1024;
      const path = join(dir, "clip.mp4");
      const fd = openSync(path, "w");
      writeSync(fd, paddedVideoHead(size));
      ftruncateSync(fd, size);
      closeSync(fd);
      const r = await c.run([
        "posts",
        "create",
        "--brand",
        acme.brandSlug,
        "--body",
        "A clip",
        "--media",
        path,
      ]);
      expect(r).toMatchObject({ code: 0, err: "" });
      const post = (await t.request("GET", `/v1/posts/${r.out.trim()}`, { key: acme.testKey })).body;
      expect(post.media).toHaveLength(1);
      const medium = (await t.request("GET", `/v1/media/${post.media[0].id}`, { key: acme.testKey })).body;
      expect(medium).toMatchObject({ type: "video/mp4", size, filename: "clip.mp4" });
      expect(medium.sha256).toBe(
        new Bun.CryptoHasher("sha256").update(await Bun.file(path).bytes()).digest("hex"),
      );
    }, 60_000);
  });
}
