// The fetch-compatible face of the guarded client, as libraries use it: requests and answers pass through whole,
// private addresses are refused unless allowed, an abort ends the request, and a failure says whether the request
// may have reached the server; a stream of known length is sent as it is read (never first gathered whole).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { guardedFetch, mayHaveBeenSent, outboundCause } from "../../src/net/guarded-fetch.ts";

let server: http.Server;
let base: string;
beforeAll(async () => {
  server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      if (req.url === "/reset") return req.socket.destroy();
      if (req.url === "/slow") return setTimeout(() => res.end("late"), 2000);
      if (req.url === "/moved") {
        res.writeHead(302, { location: "/echo" });
        return res.end();
      }
      res.writeHead(201, { "content-type": "application/json", "x-seen": req.headers["x-test"] ?? "" });
      res.end(JSON.stringify({ method: req.method, url: req.url, body: Buffer.concat(chunks).toString() }));
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => {
  server.close();
});

describe("guardedFetch", () => {
  const allowed = guardedFetch({ allow: "true" });

  test("passes method, headers and body, and returns status, headers and body", async () => {
    const res = await allowed(`${base}/echo?x=1`, {
      method: "POST",
      headers: { "x-test": "yes", "content-type": "application/json" },
      body: JSON.stringify({ a: 1 }),
    });
    expect(res.status).toBe(201);
    expect(res.headers.get("x-seen")).toBe("yes");
    expect(await res.json()).toEqual({ method: "POST", url: "/echo?x=1", body: '{"a":1}' });
    const viaRequest = await allowed(new Request(`${base}/moved`));
    expect(((await viaRequest.json()) as { url: string }).url).toBe("/echo");
  });

  test("refuses a private address unless the setting allows it, before anything is sent", async () => {
    const strict = guardedFetch();
    const err = await strict(`${base}/echo`).catch((e) => e);
    const cause = outboundCause(err)!;
    expect(cause.kind).toBe("blocked_address");
    expect(mayHaveBeenSent(cause)).toBe(false);
    expect(await guardedFetch({ allow: "127.0.0.0/8" })(`${base}/echo`).then((r) => r.status)).toBe(201);
  });

  test("a reset after sending may have been sent; a refused connection was not; an abort ends the request", async () => {
    const reset = outboundCause(await allowed(`${base}/reset`).catch((e) => e))!;
    expect(reset.kind).toBe("connection");
    expect(mayHaveBeenSent(reset)).toBe(true);
    const refused = outboundCause(await allowed("http://127.0.0.1:9/").catch((e) => e))!;
    expect(mayHaveBeenSent(refused)).toBe(false);
    const controller = new AbortController();
    const started = performance.now();
    setTimeout(() => controller.abort(), 50);
    const aborted = outboundCause(
      await allowed(`${base}/slow`, { signal: controller.signal }).catch((e) => e),
    )!;
    expect(aborted.kind).toBe("timeout");
    expect(performance.now() - started).toBeLessThan(1000);
  });
});

describe("guardedFetch with a streamed body", () => {
  const allowed = guardedFetch({ allow: "true" });
  // What the server has seen of each upload so far, and a server that refuses a large body before reading it.
  let seen = 0;
  let streamServer: http.Server;
  let streamBase: string;
  beforeAll(async () => {
    streamServer = http.createServer((req, res) => {
      if (req.url === "/again") {
        res.writeHead(307, { location: "/upload", connection: "close" });
        res.end();
        return;
      }
      if (req.url === "/too-large") {
        res.writeHead(413, { "content-type": "application/json", connection: "close" });
        res.end(JSON.stringify({ error: "PayloadTooLarge" }));
        return;
      }
      seen = 0;
      const hash = createHash("sha256");
      req.on("data", (c: Buffer) => {
        seen += c.length;
        hash.update(c);
      });
      req.on("end", () => {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(
          JSON.stringify({
            length: req.headers["content-length"] ?? null,
            chunked: req.headers["transfer-encoding"] ?? null,
            received: seen,
            sha256: hash.digest("hex"),
          }),
        );
      });
      req.on("error", () => {});
    });
    await new Promise<void>((r) => streamServer.listen(0, "127.0.0.1", r));
    streamBase = `http://127.0.0.1:${(streamServer.address() as AddressInfo).port}`;
  });
  afterAll(() => {
    streamServer.close();
  });

  /** `count` chunks of `size` bytes; each after the first waits until the server has what came before. */
  function paced(count: number, size: number, wait = true) {
    const chunks = Array.from({ length: count }, (_, i) => new Uint8Array(size).fill(i + 1));
    let i = 0;
    const stream = new ReadableStream<Uint8Array>({
      async pull(controller) {
        if (i === count) return controller.close();
        // Were the body read whole before it is sent, the server would see nothing and this would never end.
        while (wait && i > 0 && seen < i * size) await Bun.sleep(2);
        controller.enqueue(chunks[i++]!);
      },
    });
    const all = createHash("sha256");
    for (const c of chunks) all.update(c);
    return { stream, sha256: all.digest("hex"), length: count * size };
  }

  test("a stream with a Content-Length is sent as it is read, with that length, and arrives whole", async () => {
    const body = paced(8, 256 * 1024);
    const res = await allowed(
      new Request(`${streamBase}/upload`, {
        method: "POST",
        headers: { "content-type": "video/mp4", "content-length": String(body.length) },
        body: body.stream,
        duplex: "half",
      } as RequestInit),
    );
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      length: String(body.length),
      chunked: null,
      received: body.length,
      sha256: body.sha256,
    });
  });

  test("a stream shorter or longer than its Content-Length fails, and says so", async () => {
    for (const declared of [3 * 1024 + 1, 3 * 1024 - 1]) {
      const body = paced(3, 1024, false);
      const err = await allowed(`${streamBase}/upload`, {
        method: "POST",
        headers: { "content-length": String(declared) },
        body: body.stream,
        duplex: "half",
      } as RequestInit).catch((e) => e);
      const cause = outboundCause(err)!;
      expect(cause.kind).toBe("body");
      expect(cause.message).toContain(
        declared > body.length
          ? "ended after 3072 of the 3073 bytes announced"
          : "longer than the 3071 bytes announced",
      );
    }
  });

  test("a server that refuses the body before reading it: its answer is returned, not a broken pipe", async () => {
    const body = paced(64, 256 * 1024, false);
    const res = await allowed(`${streamBase}/too-large`, {
      method: "POST",
      headers: { "content-length": String(body.length) },
      body: body.stream,
      duplex: "half",
    } as RequestInit);
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({ error: "PayloadTooLarge" });
  });

  test("a redirect that would send a streamed body again is returned, not followed (it can be sent once)", async () => {
    const body = paced(2, 1024, false);
    const res = await allowed(`${streamBase}/again`, {
      method: "POST",
      headers: { "content-length": String(body.length) },
      body: body.stream,
      duplex: "half",
    } as RequestInit);
    expect(res.status).toBe(307);
    expect(res.headers.get("location")).toBe("/upload");
  });
});
