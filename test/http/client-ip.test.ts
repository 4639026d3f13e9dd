// The client's address behind a proxy that appends to X-Forwarded-For: the entry the trusted proxy added counts,
// never what the client wrote before it. Unit checks of the parsing, then the two places it matters in process:
// sign-in's per-address limit and the address /device shows for a CLI sign-in.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { clientIp } from "../../src/http/client-ip.ts";
import { FakeClock } from "../../src/lib/clock.ts";
import type { TestApp } from "../helpers/app.ts";
import { TestBrowser, webApp } from "../helpers/browser.ts";
import { describeEachDialect } from "../helpers/db.ts";
import { type Tenant, tenant } from "../helpers/factories.ts";

const PASSWORD = "correct horse battery staple";

const req = (headers: Record<string, string>) => new Request("http://localhost/", { headers });

describe("clientIp (unit)", () => {
  const xff = { clientIpHeader: "X-Forwarded-For", clientIpHops: 1 };

  test("without the setting: the socket's peer, whatever the headers say", () => {
    expect(
      clientIp({ clientIpHeader: null, clientIpHops: 1 }, req({ "x-forwarded-for": "6.6.6.6" }), "10.0.0.2"),
    ).toBe("10.0.0.2");
  });

  test("the right-most entry is the one the proxy added; entries the client wrote are ignored", () => {
    expect(clientIp(xff, req({ "x-forwarded-for": "6.6.6.6, 203.0.113.9" }), "10.0.0.2")).toBe("203.0.113.9");
    expect(clientIp(xff, req({ "x-forwarded-for": "203.0.113.9" }), "10.0.0.2")).toBe("203.0.113.9");
    // Two header lines are one list (the proxy added the second).
    const h = new Headers();
    h.append("x-forwarded-for", "6.6.6.6");
    h.append("x-forwarded-for", "203.0.113.10");
    expect(clientIp(xff, new Request("http://localhost/", { headers: h }), null)).toBe("203.0.113.10");
  });

  test("SVC_CLIENT_IP_HOPS counts proxies from the right", () => {
    const two = { clientIpHeader: "X-Forwarded-For", clientIpHops: 2 };
    expect(clientIp(two, req({ "x-forwarded-for": "6.6.6.6, 203.0.113.9, 10.0.0.7" }), "10.0.0.8")).toBe(
      "203.0.113.9",
    );
    // Fewer entries than proxies: all were written by them, the left-most is the client.
    expect(clientIp(two, req({ "x-forwarded-for": "203.0.113.9" }), "10.0.0.8")).toBe("203.0.113.9");
  });

  test("ports, brackets, RFC 7239 Forwarded; no header or no address falls back to the peer", () => {
    expect(clientIp(xff, req({ "x-forwarded-for": "6.6.6.6, 203.0.113.9:4711" }), null)).toBe("203.0.113.9");
    expect(clientIp(xff, req({ "x-forwarded-for": "[2001:db8::1]:443" }), null)).toBe("2001:db8::1");
    const fwd = { clientIpHeader: "Forwarded", clientIpHops: 1 };
    expect(
      clientIp(
        fwd,
        req({ forwarded: 'for=6.6.6.6;proto=https, for="[2001:db8::2]:80";proto=https;by=10.0.0.1' }),
        null,
      ),
    ).toBe("2001:db8::2");
    expect(clientIp(xff, req({}), "10.0.0.2")).toBe("10.0.0.2");
    expect(clientIp(xff, req({ "x-forwarded-for": "6.6.6.6, not-an-address" }), "10.0.0.2")).toBe("10.0.0.2");
  });
});

describeEachDialect("the client's address behind an appending proxy", (dialect) => {
  let t: TestApp;
  let a: Tenant;
  beforeAll(async () => {
    // A fake clock: the per-address limit refills one attempt every 6 s, and a slow machine must not see one.
    t = await webApp(dialect, {
      env: { SVC_CLIENT_IP_HEADER: "X-Forwarded-For" },
      clock: new FakeClock(Date.parse("2026-03-02T09:00:00Z")),
    });
    a = await tenant(t.app, "Proxy Org");
  });
  afterAll(() => t.close());

  /** A browser behind the proxy: its requests arrive with a forged first entry and the proxy's real one last. */
  function behindProxy(real: string) {
    const b = new TestBrowser(t);
    let n = 0;
    const request = b.request.bind(b);
    b.request = (method, path, init = {}) =>
      request(method, path, {
        ...init,
        headers: { ...init.headers, "x-forwarded-for": `10.${++n % 250}.${n % 7}.1, ${real}` },
      });
    return b;
  }

  test("25 sign-ins from one address with a different forged first entry each: the per-address limit holds", async () => {
    const b = behindProxy("203.0.113.50");
    await b.get("/signin");
    const statuses: number[] = [];
    for (let i = 0; i < 25; i++)
      statuses.push((await b.post("/signin", { email: `nobody${i}@example.com`, password: "x" })).status);
    // Ten go through at once, then one every 6 seconds (the clock does not move here).
    expect(statuses.filter((s) => s === 429).length).toBe(15);
    // Another real address is not held up.
    expect((await behindProxy("203.0.113.51").signIn(a.email, PASSWORD)).status).toBe(200);
  });

  test("/device shows the address the proxy added, not the one the CLI wrote", async () => {
    const s = await t.request("POST", "/v1/auth/device", {
      body: { device_name: "laptop" },
      headers: { "x-forwarded-for": "198.18.0.66, 203.0.113.77" },
    });
    expect(s.status).toBe(200);
    const b = behindProxy("203.0.113.52");
    await b.signIn(a.email, PASSWORD);
    const shown = await b.post("/device", { user_code: s.body.user_code });
    expect(shown.status).toBe(200);
    expect(shown.html).toContain("203.0.113.77");
    expect(shown.html).not.toContain("198.18.0.66");
  });
});
