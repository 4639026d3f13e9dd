// The CLI's streamed multipart body: framed so a form parser reads the fields and the file back byte for byte,
// its declared length exact, a file that changes while sent refused, and a large file sent through fetch with
// memory that does not grow with the file.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import {
  appendFileSync,
  closeSync,
  ftruncateSync,
  mkdtempSync,
  openSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { send } from "../../../src/cli/client/api.ts";
import { SourceChanged, streamedForm } from "../../../src/cli/client/multipart.ts";
import { jpeg } from "../../helpers/media.ts";

describe("streamedForm", () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "svc-multipart-"));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test("a form parser reads the fields and the file back; the length is the bytes sent", async () => {
    const bytes = await jpeg(64, 48);
    const path = join(dir, "a.jpg");
    writeFileSync(path, bytes);
    const seen: number[] = [];
    const f = streamedForm(
      { brand: "acme", alt: 'A "quoted" alt, two\nlines' },
      { field: "file", path, filename: "a.jpg", size: bytes.length, type: "image/jpeg" },
      (sent) => seen.push(sent),
    );
    const raw = new Uint8Array(await new Response(f.body).arrayBuffer());
    expect(raw.length).toBe(f.length);
    const form = await new Response(raw, { headers: { "content-type": f.contentType } }).formData();
    expect(form.get("brand")).toBe("acme");
    expect(form.get("alt")).toBe('A "quoted" alt, two\nlines');
    const file = form.get("file") as File;
    expect(file.name).toBe("a.jpg");
    expect(file.type).toBe("image/jpeg");
    expect(Buffer.from(await file.arrayBuffer()).equals(bytes)).toBe(true);
    expect(seen.at(-1)).toBe(bytes.length);
  });

  test("a file that grows after it was measured is refused, not sent with a wrong length", async () => {
    const path = join(dir, "grows.bin");
    writeFileSync(path, "0123456789");
    const form = () =>
      streamedForm({}, { field: "file", path, filename: "g", size: 10, type: "application/octet-stream" });
    const f = form();
    appendFileSync(path, "more");
    await expect(new Response(f.body).arrayBuffer()).rejects.toThrow(
      `${path} changed while it was being sent`,
    );
    // Through the CLI's client it reads as what happened, not as a server that cannot be reached.
    const server = Bun.serve({
      port: 0,
      hostname: "127.0.0.1",
      fetch: async (req) => new Response(String((await req.arrayBuffer()).byteLength)),
    });
    try {
      writeFileSync(path, "0123456789");
      const g = form();
      appendFileSync(path, "more");
      await expect(
        send({ url: `http://127.0.0.1:${server.port}` }, "POST", "/v1/media", { stream: g }),
      ).rejects.toThrow(new SourceChanged(`${path} changed while it was being sent`));
    } finally {
      server.stop(true);
    }
  });

  test("a 512 MiB file goes through fetch no further ahead of the server than the sockets hold (not read whole)", async () => {
    const size = 512 * 1024 * 1024;
    const path = join(dir, "big.bin");
    const fd = openSync(path, "w");
    ftruncateSync(fd, size);
    closeSync(fd);
    // What the server has received so far, against what has been read from the file: a body read whole first would
    // be the whole file ahead. (The process's memory is not the measure: the server in this process makes garbage
    // of its own, collected when the runtime pleases.)
    let received = 0;
    const server = Bun.serve({
      port: 0,
      hostname: "127.0.0.1",
      maxRequestBodySize: size * 2,
      async fetch(req) {
        const reader = req.body!.getReader();
        for (let r = await reader.read(); !r.done; r = await reader.read()) received += r.value.byteLength;
        return Response.json({ received, length: Number(req.headers.get("content-length")) });
      },
    });
    try {
      let ahead = 0;
      const f = streamedForm(
        { brand: "acme" },
        { field: "file", path, filename: "big.bin", size, type: "application/octet-stream" },
        (sent) => {
          ahead = Math.max(ahead, sent - received);
        },
      );
      const res = await fetch(`http://127.0.0.1:${server.port}/`, {
        method: "POST",
        headers: { "content-type": f.contentType, "content-length": String(f.length) },
        body: f.body,
      });
      expect(await res.json()).toEqual({ received: f.length, length: f.length });
      expect(ahead).toBeGreaterThan(0);
      expect(ahead).toBeLessThan(32 * 1024 * 1024);
    } finally {
      server.stop(true);
    }
  }, 60_000);
});
