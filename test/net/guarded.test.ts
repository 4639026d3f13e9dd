import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import net from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseAllowSetting } from "../../src/net/allow.ts";
import {
  checkOutboundUrl,
  closeOutboundPools,
  guardedRequest,
  OutboundError,
  type OutboundErrorKind,
  type Resolver,
} from "../../src/net/guarded.ts";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
let server: ReturnType<typeof Bun.serve>;
let base: string; // http://127.0.0.1:<port>
let port: number;
let seen: { method: string; path: string; body: string; auth: string | null }[] = [];

beforeAll(() => {
  server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(req) {
      const url = new URL(req.url);
      // Answers at once, leaving the body unread (as a server refusing an upload by its headers does).
      if (url.pathname === "/refuse-unread") return new Response("too large", { status: 413 });
      const body = await req.text();
      seen.push({ method: req.method, path: url.pathname, body, auth: req.headers.get("authorization") });
      switch (url.pathname) {
        case "/ok":
          return new Response("hello", { headers: { "x-test": "yes" } });
        case "/echo":
          return Response.json({ method: req.method, body, type: req.headers.get("content-type") });
        case "/framing":
          return Response.json({
            body,
            length: req.headers.get("content-length"),
            chunked: req.headers.get("transfer-encoding"),
          });
        case "/redirect":
          return new Response(null, {
            status: Number(url.searchParams.get("status") ?? 302),
            headers: { location: url.searchParams.get("to") ?? "/ok" },
          });
        case "/loop":
          return new Response(null, { status: 302, headers: { location: "/loop" } });
        case "/slow":
          await sleep(3000);
          return new Response("late");
        case "/slow-body":
          return new Response(
            new ReadableStream({
              async start(c) {
                c.enqueue(new TextEncoder().encode("first"));
                await sleep(3000);
                c.enqueue(new TextEncoder().encode("second"));
                c.close();
              },
            }),
          );
        case "/big":
          return new Response(new Uint8Array(100_000).fill(65), { status: 500 });
        case "/endless":
          return new Response(
            new ReadableStream({
              async pull(c) {
                c.enqueue(new Uint8Array(16_384).fill(66));
                await sleep(1);
              },
            }),
          );
        default:
          return new Response("no", { status: 404 });
      }
    },
  });
  port = server.port!;
  base = `http://127.0.0.1:${port}`;
});

afterAll(() => {
  closeOutboundPools();
  server.stop(true);
});

async function failure(p: Promise<unknown>): Promise<OutboundError> {
  try {
    await p;
  } catch (err) {
    if (err instanceof OutboundError) return err;
    throw err;
  }
  throw new Error("expected the request to fail");
}

async function expectKind(p: Promise<unknown>, kind: OutboundErrorKind): Promise<OutboundError> {
  const err = await failure(p);
  expect(err.kind).toBe(kind);
  return err;
}

/** A resolver answering from a script, one answer per call; records the names asked. */
function scripted(...answers: string[][]): Resolver & { calls: string[] } {
  const calls: string[] = [];
  const resolve = async (host: string) => {
    calls.push(host);
    const next = answers[Math.min(calls.length, answers.length) - 1] ?? [];
    return next.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));
  };
  return Object.assign(resolve, { calls });
}

describe("address guard", () => {
  test("loopback is refused when nothing private is allowed, by literal and by name", async () => {
    seen = [];
    const literal = await expectKind(guardedRequest({ url: `${base}/ok` }), "blocked_address");
    expect(literal.message).toBe(
      `http://127.0.0.1:${port} is a non-public address (loopback) that this setting does not allow; ` +
        "to allow it, list the host or its network in the allow setting, or set it to true",
    );
    // A named setting is named in the refusal, so the reader knows what would allow the address.
    const webhooks = parseAllowSetting("", "SVC_ALLOW_PRIVATE_WEBHOOKS");
    const refused = await expectKind(
      guardedRequest({ url: `${base}/ok`, allow: webhooks }),
      "blocked_address",
    );
    expect(refused.message).toBe(
      `http://127.0.0.1:${port} is a non-public address (loopback) that SVC_ALLOW_PRIVATE_WEBHOOKS does not ` +
        "allow; to allow it, list the host or its network in SVC_ALLOW_PRIVATE_WEBHOOKS, or set " +
        "SVC_ALLOW_PRIVATE_WEBHOOKS=true",
    );
    const metadata = await expectKind(
      guardedRequest({ url: "http://169.254.169.254/", allow: parseAllowSetting("true", "SVC_X") }),
      "blocked_address",
    );
    expect(metadata.message).toContain(
      "SVC_X allows link-local addresses only through a CIDR inside 169.254.0.0/16 or fe80::/10",
    );
    const named = await expectKind(guardedRequest({ url: `http://localhost:${port}/ok` }), "blocked_address");
    expect(named.message).toContain("resolves to a non-public address (loopback)");
    await expectKind(guardedRequest({ url: `${base}/ok`, allow: "false" }), "blocked_address");
    expect(seen).toHaveLength(0);
  });

  test('loopback is reached with "true", a matching CIDR, or the hostname', async () => {
    const viaTrue = await guardedRequest({ url: `${base}/ok`, allow: "true" });
    expect(viaTrue.status).toBe(200);
    expect(new TextDecoder().decode(viaTrue.body)).toBe("hello");
    expect(viaTrue.headers.get("x-test")).toBe("yes");
    expect(viaTrue.url).toBe(`${base}/ok`);
    expect(viaTrue.truncated).toBe(false);
    expect(viaTrue.durationMs).toBeGreaterThanOrEqual(0);

    expect((await guardedRequest({ url: `${base}/ok`, allow: "127.0.0.1/32" })).status).toBe(200);
    expect((await guardedRequest({ url: `http://localhost:${port}/ok`, allow: "127.0.0.0/8" })).status).toBe(
      200,
    );
    expect((await guardedRequest({ url: `http://localhost:${port}/ok`, allow: "localhost" })).status).toBe(
      200,
    );
    // A hostname entry does not cover the IP literal, and a CIDR elsewhere does not cover loopback.
    await expectKind(guardedRequest({ url: `${base}/ok`, allow: "localhost" }), "blocked_address");
    await expectKind(guardedRequest({ url: `${base}/ok`, allow: "10.0.0.0/8" }), "blocked_address");
  });

  test("pooled connections opened under a lax setting are not reused under a strict one", async () => {
    const url = `http://localhost:${port}/ok`;
    expect((await guardedRequest({ url, allow: "true" })).status).toBe(200);
    await expectKind(guardedRequest({ url }), "blocked_address");
    await expectKind(guardedRequest({ url, allow: "10.0.0.0/8" }), "blocked_address");
  });

  test("DNS rebinding: a public answer when checked, loopback when connecting, is refused", async () => {
    const resolve = scripted(["93.184.216.34"], ["127.0.0.1"]);
    const url = `http://rebind.test:${port}/ok`;
    await checkOutboundUrl(url, { resolve });
    seen = [];
    const err = await expectKind(guardedRequest({ url, resolve }), "blocked_address");
    expect(err.message).toContain(`http://rebind.test:${port} resolves to a non-public address (loopback)`);
    expect(resolve.calls).toEqual(["rebind.test", "rebind.test"]);
    expect(seen).toHaveLength(0);
  });

  test("a name with any non-public answer is refused; an allowed name connects to the checked address", async () => {
    await expectKind(
      guardedRequest({
        url: `http://mixed.test:${port}/ok`,
        resolve: scripted(["93.184.216.34", "127.0.0.1"]),
      }),
      "blocked_address",
    );
    const ok = await guardedRequest({
      url: `http://svc.internal:${port}/ok`,
      allow: "svc.internal",
      resolve: scripted(["127.0.0.1"]),
    });
    expect(ok.status).toBe(200);
  });

  test("link-local is refused even with true, by literal and by name", async () => {
    await expectKind(
      guardedRequest({ url: "http://169.254.169.254/latest/meta-data", allow: "true" }),
      "blocked_address",
    );
    await expectKind(guardedRequest({ url: "http://[fe80::1]/", allow: "true" }), "blocked_address");
    await expectKind(
      guardedRequest({ url: "http://metadata.test/", allow: "true", resolve: scripted(["169.254.169.254"]) }),
      "blocked_address",
    );
    await expectKind(
      guardedRequest({
        url: "http://metadata.test/",
        allow: "metadata.test",
        resolve: scripted(["169.254.169.254"]),
      }),
      "blocked_address",
    );
  });

  test("IPv4-mapped IPv6 forms of loopback are refused", async () => {
    await expectKind(guardedRequest({ url: `http://[::ffff:127.0.0.1]:${port}/ok` }), "blocked_address");
    await expectKind(guardedRequest({ url: `http://[::ffff:7f00:1]:${port}/ok` }), "blocked_address");
    await expectKind(
      guardedRequest({ url: `http://mapped.test:${port}/ok`, resolve: scripted(["::ffff:127.0.0.1"]) }),
      "blocked_address",
    );
    await expectKind(guardedRequest({ url: `http://[::1]:${port}/ok` }), "blocked_address");
    // IPv4-compatible ::a.b.c.d, and a name resolving to one.
    await expectKind(guardedRequest({ url: `http://[::127.0.0.1]:${port}/ok` }), "blocked_address");
    await expectKind(
      guardedRequest({ url: `http://compat.test:${port}/ok`, resolve: scripted(["::169.254.169.254"]) }),
      "blocked_address",
    );
    await expectKind(guardedRequest({ url: `http://0.0.0.0:${port}/ok` }), "blocked_address");
    await expectKind(guardedRequest({ url: `http://2130706433:${port}/ok` }), "blocked_address");
  });
});

describe("URLs and redirects", () => {
  test("non-http schemes, credentials and garbage are invalid_url", async () => {
    await expectKind(guardedRequest({ url: "ftp://example.com/x" }), "invalid_url");
    await expectKind(guardedRequest({ url: "file:///etc/passwd" }), "invalid_url");
    const creds = await expectKind(
      guardedRequest({ url: "https://user:secret@example.com/" }),
      "invalid_url",
    );
    expect(creds.message).not.toContain("secret");
    await expectKind(guardedRequest({ url: "not a url" }), "invalid_url");
  });

  test("redirects are returned unless followRedirects is set", async () => {
    const res = await guardedRequest({ url: `${base}/redirect?to=/ok`, allow: "true" });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/ok");
    const followed = await guardedRequest({
      url: `${base}/redirect?to=/ok`,
      allow: "true",
      followRedirects: true,
    });
    expect(followed.status).toBe(200);
    expect(followed.url).toBe(`${base}/ok`);
  });

  test("a redirect to a private address is refused when the first host is allowed only by name", async () => {
    const to = encodeURIComponent(`${base}/ok`);
    seen = [];
    const err = await expectKind(
      guardedRequest({
        url: `http://localhost:${port}/redirect?to=${to}`,
        allow: "localhost",
        followRedirects: true,
      }),
      "blocked_address",
    );
    expect(err.message).toContain(`http://127.0.0.1:${port} is a non-public address`);
    expect(seen.map((s) => s.path)).toEqual(["/redirect"]);
    const same = encodeURIComponent(`http://localhost:${port}/ok`);
    const ok = await guardedRequest({
      url: `http://localhost:${port}/redirect?to=${same}`,
      allow: "localhost",
      followRedirects: true,
    });
    expect(ok.status).toBe(200);
  });

  test("a redirect rebinding to loopback through a second name is refused", async () => {
    const resolve: Resolver = async (host) => [
      { address: host === "first.test" ? "127.0.0.1" : "10.0.0.1", family: 4 },
    ];
    const to = encodeURIComponent(`http://second.test:${port}/ok`);
    await expectKind(
      guardedRequest({
        url: `http://first.test:${port}/redirect?to=${to}`,
        allow: "first.test",
        resolve,
        followRedirects: true,
      }),
      "blocked_address",
    );
  });

  test("a redirect to another scheme or to nonsense is invalid_url", async () => {
    await expectKind(
      guardedRequest({ url: `${base}/redirect?to=http://%5B::1`, allow: "true", followRedirects: true }),
      "invalid_url",
    );
    await expectKind(
      guardedRequest({ url: `${base}/redirect?to=file:///etc/passwd`, allow: "true", followRedirects: true }),
      "invalid_url",
    );
  });

  test("303, and 301/302 after POST, become GET without a body; 307/308 keep method and body", async () => {
    const post = (status: number) =>
      guardedRequest({
        method: "POST",
        url: `${base}/redirect?status=${status}&to=/echo`,
        headers: { "content-type": "application/json", authorization: "Bearer same-origin" },
        body: '{"a":1}',
        allow: "true",
        followRedirects: true,
      }).then((r) => JSON.parse(new TextDecoder().decode(r.body)));
    for (const status of [301, 302, 303]) {
      expect(await post(status)).toEqual({ method: "GET", body: "", type: null });
    }
    for (const status of [307, 308]) {
      expect(await post(status)).toEqual({ method: "POST", body: '{"a":1}', type: "application/json" });
    }
    const put = await guardedRequest({
      method: "PUT",
      url: `${base}/redirect?status=302&to=/echo`,
      body: new TextEncoder().encode("bytes"),
      allow: "true",
      followRedirects: true,
    });
    expect(JSON.parse(new TextDecoder().decode(put.body))).toMatchObject({ method: "PUT", body: "bytes" });
  });

  test("authorization is dropped when a redirect changes origin", async () => {
    const to = encodeURIComponent(`http://localhost:${port}/ok`);
    seen = [];
    await guardedRequest({
      url: `${base}/redirect?to=${to}`,
      headers: { Authorization: "Bearer t" },
      allow: "true",
      followRedirects: true,
    });
    expect(seen.map((s) => s.auth)).toEqual(["Bearer t", null]);
  });

  test("more than 5 redirects is too_many_redirects, after exactly 6 requests", async () => {
    seen = [];
    await expectKind(
      guardedRequest({ url: `${base}/loop`, allow: "true", followRedirects: true }),
      "too_many_redirects",
    );
    expect(seen).toHaveLength(6);
  });
});

describe("limits and failures", () => {
  test("the deadline covers waiting for headers", async () => {
    const started = performance.now();
    const err = await expectKind(
      guardedRequest({ url: `${base}/slow`, allow: "true", timeoutMs: 200 }),
      "timeout",
    );
    expect(err.message).toBe("no complete response within 200 ms");
    expect(performance.now() - started).toBeLessThan(1500);
  });

  test("the deadline covers a slow body", async () => {
    const started = performance.now();
    await expectKind(guardedRequest({ url: `${base}/slow-body`, allow: "true", timeoutMs: 300 }), "timeout");
    expect(performance.now() - started).toBeLessThan(1500);
  });

  test("a streamed body goes with its announced length, read as it is sent; a redirect is returned, not followed", async () => {
    const text = "0123456789".repeat(10_000);
    const stream = () => new Blob([text]).stream();
    const res = await guardedRequest({
      method: "POST",
      url: `${base}/framing`,
      body: { stream: stream(), length: text.length },
      allow: "true",
    });
    expect(JSON.parse(new TextDecoder().decode(res.body))).toEqual({
      body: text,
      length: String(text.length),
      chunked: null,
    });
    // It can be sent once: a redirect that would send it again comes back as the answer.
    const redirected = await guardedRequest({
      method: "POST",
      url: `${base}/redirect?status=307&to=/echo`,
      body: { stream: stream(), length: text.length },
      allow: "true",
      followRedirects: true,
    });
    expect(redirected.status).toBe(307);
  });

  test("a streamed body's source is released when the deadline passes mid-read, or an answer comes first", async () => {
    const released: string[] = [];
    const source = (name: string, chunks: number) => {
      let given = 0;
      return new ReadableStream<Uint8Array>({
        async pull(c) {
          // After `chunks` chunks the source stalls, as a bucket that stops answering.
          if (given++ < chunks) c.enqueue(new Uint8Array(16_384));
          else await new Promise(() => {});
        },
        cancel() {
          released.push(name);
        },
      });
    };
    const started = performance.now();
    const err = await expectKind(
      guardedRequest({
        method: "POST",
        url: `${base}/echo`,
        body: { stream: source("stalled", 2), length: 1_000_000 },
        allow: "true",
        timeoutMs: 300,
      }),
      "timeout",
    );
    expect(err.message).toBe("no complete response within 300 ms");
    expect(performance.now() - started).toBeLessThan(1500);
    const refused = await guardedRequest({
      method: "POST",
      url: `${base}/refuse-unread`,
      body: { stream: source("answered", 2), length: 1_000_000 },
      allow: "true",
      timeoutMs: 5000,
    });
    expect(refused.status).toBe(413);
    await sleep(20);
    expect(released).toEqual(["stalled", "answered"]);
  });

  test("maxResponseBytes keeps the first bytes and still reports the status", async () => {
    const res = await guardedRequest({ url: `${base}/big`, allow: "true", maxResponseBytes: 1024 });
    expect(res.status).toBe(500);
    expect(res.body.byteLength).toBe(1024);
    expect(res.body.every((b) => b === 65)).toBe(true);
    expect(res.truncated).toBe(true);
    const none = await guardedRequest({ url: `${base}/ok`, allow: "true", maxResponseBytes: 0 });
    expect(none.body.byteLength).toBe(0);
    expect(none.truncated).toBe(true);
  });

  test("an endless body is cut off without waiting for the deadline", async () => {
    const started = performance.now();
    const res = await guardedRequest({
      url: `${base}/endless`,
      allow: "true",
      maxResponseBytes: 1024,
      timeoutMs: 5000,
    });
    expect(res.status).toBe(200);
    expect(res.body.byteLength).toBe(1024);
    expect(res.truncated).toBe(true);
    expect(performance.now() - started).toBeLessThan(2000);
    // The pool still works after the socket was hung up.
    expect((await guardedRequest({ url: `${base}/ok`, allow: "true" })).status).toBe(200);
  });

  test("a closed port is a connection error naming only the origin", async () => {
    const probe = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response() });
    const closed = probe.port;
    probe.stop(true);
    const err = await expectKind(
      guardedRequest({ url: `http://127.0.0.1:${closed}/x?token=s`, allow: "true" }),
      "connection",
    );
    expect(err.message).toBe(`http://127.0.0.1:${closed}: connection refused`);
  });

  test("a body cut short or a response that is not HTTP is a connection error", async () => {
    const raw = async (reply: (socket: net.Socket) => void) => {
      const srv = net.createServer((socket) => socket.once("data", () => reply(socket)));
      await new Promise<void>((r) => srv.listen(0, "127.0.0.1", r));
      try {
        const { port: rawPort } = srv.address() as net.AddressInfo;
        return await expectKind(
          guardedRequest({ url: `http://127.0.0.1:${rawPort}/`, allow: "true" }),
          "connection",
        );
      } finally {
        srv.close();
      }
    };
    const short = await raw((socket) => {
      socket.write("HTTP/1.1 200 OK\r\ncontent-length: 1000\r\n\r\n0123456789");
      setTimeout(() => socket.destroy(), 20);
    });
    expect(short.message).toEndWith("connection reset");
    const garbage = await raw((socket) => socket.end("garbage\r\n\r\n"));
    expect(garbage.message).toContain("sent an invalid HTTP response");
  });

  test("an unresolvable name is a connection error", async () => {
    await expectKind(guardedRequest({ url: "http://nowhere.test/", resolve: scripted([]) }), "connection");
    const failing: Resolver = async () => {
      throw Object.assign(new Error("getaddrinfo ENOTFOUND"), { code: "ENOTFOUND" });
    };
    const err = await expectKind(
      guardedRequest({ url: "http://nowhere.test/", resolve: failing }),
      "connection",
    );
    expect(err.message).toBe("http://nowhere.test: host not found");
  });

  test("an untrusted certificate is a tls error", async () => {
    const dir = mkdtempSync(join(tmpdir(), "svc-tls-"));
    try {
      const made = Bun.spawnSync(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=localhost"]
          .concat(["-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1"])
          .concat(["-keyout", join(dir, "key.pem"), "-out", join(dir, "cert.pem")]),
      );
      expect(made.exitCode).toBe(0);
      const tls = Bun.serve({
        hostname: "127.0.0.1",
        port: 0,
        tls: {
          key: readFileSync(join(dir, "key.pem"), "utf8"),
          cert: readFileSync(join(dir, "cert.pem"), "utf8"),
        },
        fetch: () => new Response("secret"),
      });
      try {
        const err = await expectKind(
          guardedRequest({ url: `https://localhost:${tls.port}/`, allow: "true" }),
          "tls",
        );
        expect(err.message).toStartWith(`TLS handshake with https://localhost:${tls.port} failed`);
        await expectKind(guardedRequest({ url: `https://localhost:${tls.port}/` }), "blocked_address");
      } finally {
        tls.stop(true);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
