// The fetch-compatible face of the guarded client, as libraries use it: requests and answers pass through whole,
// private addresses are refused unless allowed, an abort ends the request, and a failure says whether the request
// may have reached the server.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
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
