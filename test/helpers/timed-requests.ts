// Sends requests to a server from a separate process and prints how long each took, as JSON on stdout. A test
// that measures whether one request holds up the server's event loop cannot time it from the server's process:
// its own timers and fetches wait on the same loop.
// Input (stdin, JSON): { base, requests: [{ key, method, path, body?, after? (ms after start) }] }
interface Req {
  key: string;
  method: string;
  path: string;
  body?: unknown;
  after?: number;
}
const input = (await Bun.stdin.json()) as { base: string; requests: Req[] };
const t0 = performance.now();
const results = await Promise.all(
  input.requests.map(async (r) => {
    if (r.after) await Bun.sleep(r.after);
    const started = performance.now();
    const res = await fetch(`${input.base}${r.path}`, {
      method: r.method,
      headers: { authorization: `Bearer ${r.key}`, "content-type": "application/json" },
      body: r.body === undefined ? undefined : JSON.stringify(r.body),
    });
    const body = await res.json();
    return { status: res.status, body, started: started - t0, ms: performance.now() - started };
  }),
);
console.log(JSON.stringify(results));

export {};
