// A real HTTP receiver on loopback for webhook tests. It records every request and answers by path:
// /ok 200, /fail 500 with a long body, /slow after `?ms=`, /redirect 302 to `?to=`. It checks signatures with
// its own code (node:crypto), not the service's.
import { createHmac, timingSafeEqual } from "node:crypto";

export interface Received {
  path: string;
  headers: Headers;
  body: string;
  at: number;
}

export interface Receiver {
  url: string;
  port: number;
  received: Received[];
  /** Most requests seen at once, by path and query. */
  maxConcurrent: Map<string, number>;
  reset(): void;
  stop(): void;
}

export function startReceiver(hostname = "127.0.0.1"): Receiver {
  const concurrent = new Map<string, number>();
  const r: Receiver = {
    url: "",
    port: 0,
    received: [],
    maxConcurrent: new Map(),
    reset() {
      r.received = [];
      r.maxConcurrent.clear();
    },
    stop() {
      server.stop(true);
    },
  };
  const server = Bun.serve({
    hostname,
    port: 0,
    idleTimeout: 30,
    async fetch(req) {
      const url = new URL(req.url);
      const key = `${url.pathname}${url.search}`;
      const now = (concurrent.get(key) ?? 0) + 1;
      concurrent.set(key, now);
      r.maxConcurrent.set(key, Math.max(r.maxConcurrent.get(key) ?? 0, now));
      try {
        r.received.push({ path: url.pathname, headers: req.headers, body: await req.text(), at: Date.now() });
        switch (url.pathname) {
          case "/fail": {
            // Invalid UTF-8 first, then more than 1 KiB: the log keeps 1 KiB with U+FFFD for the bad bytes.
            const body = new Uint8Array(3000).fill(0x61);
            body[0] = 0xff;
            return new Response(body, { status: 500 });
          }
          case "/slow":
            await Bun.sleep(Number(url.searchParams.get("ms") ?? 3000));
            return new Response("late");
          case "/redirect":
            return new Response(null, { status: 302, headers: { location: url.searchParams.get("to")! } });
          default:
            return new Response("ok");
        }
      } finally {
        concurrent.set(key, (concurrent.get(key) ?? 1) - 1);
      }
    },
  });
  r.port = server.port!;
  r.url = `http://${hostname}:${r.port}`;
  return r;
}

/** Verifies `Svc-Signature` the way a receiver would: HMAC-SHA256 of "<t>.<body>", any v1, t within 5 min. */
export function receiverVerifies(
  header: string | null,
  body: string,
  secret: string,
  nowSec = Math.floor(Date.now() / 1000),
): boolean {
  if (!header) return false;
  const parts = header.split(",").map((p) => p.split("="));
  const t = Number(parts.find(([k]) => k === "t")?.[1]);
  if (!Number.isInteger(t) || Math.abs(nowSec - t) > 300) return false;
  const expected = createHmac("sha256", secret).update(`${t}.${body}`).digest();
  return parts
    .filter(([k, v]) => k === "v1" && v && /^[0-9a-f]{64}$/.test(v))
    .some(([, v]) => timingSafeEqual(Buffer.from(v!, "hex"), expected));
}
