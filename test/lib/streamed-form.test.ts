// A streamed multipart body (a video's upload) sent through the guarded client to a real local server: it is the
// form a server parses, its Content-Length is exact, its file is read as the request is sent (a 40 MB file never
// runs more than a few megabytes ahead of what the server has received, so it is never whole in memory), and a
// file whose source fails or falls short cuts the request before it is whole, so no server can act on it.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import type { Server } from "bun";
import { StreamedForm } from "../../src/lib/streamed-form.ts";
import { NoAnswer, networkRequest } from "../../src/platforms/plumbing/http.ts";
import type { TestApp } from "../helpers/app.ts";
import { networkApp } from "../helpers/networks.ts";
import { sha256 } from "../helpers/video.ts";

setDefaultTimeout(60_000);

const MB = 1024 * 1024;

/** A file of `size` bytes made as it is read, `chunk` bytes at a time; `made` counts what was handed out. */
function madeAsRead(size: number, chunk = 64 * 1024) {
  const counter = { made: 0 };
  const byteAt = (i: number) => (i * 31 + 7) & 0xff;
  const stream = () =>
    new ReadableStream<Uint8Array>({
      pull(c) {
        if (counter.made >= size) return c.close();
        const n = Math.min(chunk, size - counter.made);
        const out = new Uint8Array(n);
        for (let i = 0; i < n; i++) out[i] = byteAt(counter.made + i);
        counter.made += n;
        c.enqueue(out);
      },
    });
  const whole = () => {
    const out = new Uint8Array(size);
    for (let i = 0; i < size; i++) out[i] = byteAt(i);
    return out;
  };
  return { counter, stream, whole };
}

describe("streamed multipart bodies", () => {
  let t: TestApp;
  let server: Server<undefined>;
  let url: string;
  /** What the server made of each request. */
  const seen: { path: string; length: number; received: number; lag: number; complete: boolean }[] = [];
  let watching: { made: number } | null = null;
  const parsed: {
    fields: Record<string, string>;
    file: { name: string; type: string; hash: string; size: number };
  }[] = [];

  beforeAll(async () => {
    t = await networkApp("sqlite");
    server = Bun.serve({
      port: 0,
      hostname: "127.0.0.1",
      maxRequestBodySize: 100 * MB,
      async fetch(req) {
        const path = new URL(req.url).pathname;
        if (path === "/parse") {
          const form = await req.formData();
          const fields: Record<string, string> = {};
          let file = { name: "", type: "", hash: "", size: 0 };
          for (const [k, v] of form.entries()) {
            if (typeof v === "string") fields[k] = v;
            else {
              const bytes = new Uint8Array(await v.arrayBuffer());
              file = { name: v.name, type: v.type, hash: sha256(bytes), size: bytes.length };
            }
          }
          parsed.push({ fields, file });
          return Response.json({ ok: true });
        }
        // Counts the body as it arrives, keeping none of it, and notes how far the sender's source ran ahead.
        const row = {
          path,
          length: Number(req.headers.get("content-length")),
          received: 0,
          lag: 0,
          complete: false,
        };
        seen.push(row);
        try {
          const reader = req.body!.getReader();
          for (;;) {
            const { done, value } = await reader.read();
            if (done) break;
            row.received += value.byteLength;
            if (watching) row.lag = Math.max(row.lag, watching.made - row.received);
            // A slower reader than the sender: what the sender holds meanwhile is what this test measures.
            await Bun.sleep(0);
          }
        } catch {
          return new Response(null, { status: 400 });
        }
        row.complete = row.received === row.length;
        return Response.json({ received: row.received });
      },
    });
    url = `http://127.0.0.1:${server.port}`;
  });
  afterAll(async () => {
    server.stop(true);
    await t.close();
  });

  test("the server parses the form: fields, the file's name, type and exact bytes", async () => {
    const src = madeAsRead(300_000, 4096);
    const form = new StreamedForm();
    form.append("chat_id", "-1001");
    form.append("caption", 'Line one\r\nline "two" — ünïcode');
    form.append("video", {
      filename: 'clip "1".mp4',
      type: "video/mp4",
      size: 300_000,
      open: async () => src.stream(),
    });
    const res = await networkRequest(t.app, { method: "POST", url: `${url}/parse`, multipart: form });
    expect(res.status).toBe(200);
    expect(parsed.at(-1)).toEqual({
      fields: { chat_id: "-1001", caption: 'Line one\r\nline "two" — ünïcode' },
      file: { name: "clip %221%22.mp4", type: "video/mp4", hash: sha256(src.whole()), size: 300_000 },
    });
  });

  test("a 40 MB file is sent as it is read, never far ahead of the server, with an exact Content-Length", async () => {
    const size = 40 * MB;
    const src = madeAsRead(size);
    const form = new StreamedForm();
    form.append("payload_json", "{}");
    form.append("files[0]", { filename: "1.mp4", type: "video/mp4", size, open: async () => src.stream() });
    watching = src.counter;
    try {
      const res = await networkRequest(t.app, { method: "POST", url: `${url}/count`, multipart: form });
      expect(res.status).toBe(200);
    } finally {
      watching = null;
    }
    const row = seen.at(-1)!;
    expect(row).toMatchObject({ length: form.length, received: form.length, complete: true });
    // Sent whole, yet at no moment was much of it made and not yet received: about 9 MB on loopback, the sockets'
    // buffers on both sides; a body encoded whole first would run the full 40 MB ahead. (The process's RSS is no
    // measure here: each chunk read is fresh garbage, and 40 MB of garbage alone grows it by about 25 MB.)
    expect(src.counter.made).toBe(size);
    expect(row.lag).toBeLessThan(16 * MB);
  });

  test("a source that fails, or gives fewer bytes than announced, cuts the request: unsent, nothing complete", async () => {
    const failing = new StreamedForm();
    failing.append("file", {
      filename: "v.mp4",
      type: "video/mp4",
      size: 1 * MB,
      open: async () => {
        let sent = false;
        return new ReadableStream<Uint8Array>({
          pull(c) {
            if (sent) return c.error(new Error("the bucket stopped answering"));
            sent = true;
            c.enqueue(new Uint8Array(64 * 1024));
          },
        });
      },
    });
    const short = new StreamedForm();
    short.append("file", {
      filename: "v.mp4",
      type: "video/mp4",
      size: 1 * MB,
      open: async () => new Blob([new Uint8Array(1000)]).stream(),
    });
    for (const [form, why] of [
      [failing, "the bucket stopped answering"],
      [short, "v.mp4 ended after 1000 of its 1048576 bytes"],
    ] as const) {
      const before = seen.filter((r) => r.complete).length;
      const err = await networkRequest(t.app, { method: "POST", url: `${url}/cut`, multipart: form }).catch(
        (e) => e,
      );
      expect(err).toBeInstanceOf(NoAnswer);
      expect([err.sent, err.refused]).toEqual(["unsent", false]);
      expect(err.message).toContain(why);
      await Bun.sleep(50);
      expect(seen.filter((r) => r.complete).length).toBe(before);
    }
  });
});
