// Every body on every dashboard route is bounded while it is read (issue item 18): a chunked body with no length,
// of any type, is read only up to the dashboard's limit and refused with 413 and every security header, before a
// session is even looked up; a declared length over the limit is refused unread; a truncated multipart form is a
// 400, not a 500 (item 34). Measured by counting what the server pulled from the body, not by the process's RSS.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { webRoutes } from "../../../src/http/web/index.tsx";
import { MAX_FORM_BYTES } from "../../../src/http/web/page.ts";
import { describeEachDialect } from "../../helpers/db.ts";
import { type ListeningApp, listeningApp } from "../../helpers/listening.ts";

const CHUNK = 64 * 1024;

/** A body of `total` bytes made as it is pulled; `pulled()` says how much the reader asked for. */
function endless(total: number) {
  let sent = 0;
  const chunk = new Uint8Array(CHUNK).fill(0x61);
  const stream = new ReadableStream<Uint8Array>({
    pull(c) {
      if (sent >= total) return c.close();
      sent += CHUNK;
      c.enqueue(chunk);
    },
  });
  return { stream, pulled: () => sent };
}

function expectPageHeaders(h: Headers) {
  expect(h.get("content-security-policy")).toContain("default-src 'none'");
  expect(h.get("x-content-type-options")).toBe("nosniff");
  expect(h.get("x-frame-options")).toBe("DENY");
  expect(h.get("referrer-policy")).toBe("same-origin");
  expect(h.get("cache-control")).toBe("no-store");
}

const TYPES = [
  "application/x-www-form-urlencoded",
  "multipart/form-data; boundary=xyz",
  "application/json",
  null,
] as const;

describeEachDialect("dashboard request bodies", (dialect) => {
  let t: ListeningApp;
  beforeAll(async () => {
    t = await listeningApp(dialect);
  });
  afterAll(() => t.close());

  test("every POST route, every body type: a chunked body stops being read at the limit; 413 with headers", async () => {
    const posts = webRoutes.filter((r) => r.method === "POST");
    expect(posts.length).toBeGreaterThan(20);
    for (const r of posts) {
      for (const type of TYPES) {
        const body = endless(64 * 1024 * 1024);
        const res = await t.http.handle(
          new Request(`http://localhost${r.path.replace(/:[a-z]+/g, "x")}`, {
            method: "POST",
            headers: {
              ...(type ? { "content-type": type } : {}),
              "sec-fetch-site": "same-origin",
              origin: "http://localhost",
            },
            body: body.stream,
            duplex: "half",
          }),
        );
        // An upload route leaves a multipart body to its own streamed reader (16 MiB, domain/media/multipart.ts):
        // a request without a session's CSRF token is refused before a byte of it is read.
        if (r.rawBody && type?.startsWith("multipart/")) {
          expect({ route: r.path, type, status: res.status }).toEqual({ route: r.path, type, status: 403 });
          expectPageHeaders(res.headers);
          expect(body.pulled()).toBeLessThan(8 * CHUNK);
          continue;
        }
        expect({ route: r.path, type, status: res.status }).toEqual({ route: r.path, type, status: 413 });
        expectPageHeaders(res.headers);
        expect(await res.text()).toContain("too large");
        // Read no further than the limit and what the stream had buffered ahead of it.
        expect(body.pulled()).toBeLessThan(MAX_FORM_BYTES + 8 * CHUNK);
      }
    }
  });

  test("over a real connection: a chunked 256 MiB POST /signin is refused long before it is sent", async () => {
    const body = endless(256 * 1024 * 1024);
    const res = await fetch(`${t.url}/signin`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: body.stream,
    });
    expect(res.status).toBe(413);
    expectPageHeaders(res.headers);
    await res.text();
    // The socket's buffers hold a few MiB at most; the rest was never sent.
    expect(body.pulled()).toBeLessThan(32 * 1024 * 1024);
  });

  test("a declared length over the limit is refused unread, with the headers", async () => {
    for (const path of ["/signin", "/reset", "/invite/abc", "/signin/two-factor", "/signin/passkey"]) {
      const res = await t.http.handle(
        new Request(`http://localhost${path}`, {
          method: "POST",
          headers: {
            "content-type": "application/x-www-form-urlencoded",
            "content-length": String(MAX_FORM_BYTES + 1),
          },
          body: "a".repeat(MAX_FORM_BYTES + 1),
        }),
      );
      expect(res.status).toBe(413);
      expectPageHeaders(res.headers);
    }
  });

  test("a truncated multipart form is 400 body_unreadable, with the headers (not a 500)", async () => {
    const res = await t.http.handle(
      new Request("http://localhost/signin", {
        method: "POST",
        headers: { "content-type": "multipart/form-data; boundary=xyz", "sec-fetch-site": "same-origin" },
        body: '--xyz\r\nContent-Disposition: form-data; name="email"\r\n\r\nsomeone@exa',
      }),
    );
    expect(res.status).toBe(400);
    expectPageHeaders(res.headers);
    expect(await res.text()).toContain("could not be read");
  });

  test("a form within the limit still works: multipart and urlencoded fields reach the page", async () => {
    const page = await t.http.handle(new Request("http://localhost/signin"));
    const cookie = page.headers.getSetCookie()[0]!.split(";")[0]!;
    const csrf = /name="_csrf" value="([^"]+)"/.exec(await page.text())![1]!;
    const form = new FormData();
    form.append("_csrf", csrf);
    form.append("email", "nobody@example.com");
    form.append("password", "not the password");
    const res = await t.http.handle(
      new Request("http://localhost/signin", {
        method: "POST",
        headers: { cookie, "sec-fetch-site": "same-origin", origin: "http://localhost" },
        body: form,
      }),
    );
    // The CSRF token was read from the multipart body: the sign-in itself is what refused.
    expect(res.status).toBe(401);
  });
});
