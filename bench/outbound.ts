// Guarded outbound client vs bare Bun fetch: signed webhook-sized POSTs to a local receiver, sequentially and
// with 20 in flight (a worker's delivery concurrency, reference §7). Prints each figure and its ratio to fetch.
// Run: bun bench/outbound.ts [requests]

import { closeOutboundPools, guardedRequest } from "../src/net/guarded.ts";
import { signPayload } from "../src/net/signature.ts";

const total = Number(process.argv[2] ?? 5000);
const server = Bun.serve({
  hostname: "127.0.0.1",
  port: 0,
  async fetch(req) {
    await req.arrayBuffer();
    return new Response("ok");
  },
});
const url = `http://localhost:${server.port}/hook`;
const body = JSON.stringify({ id: "evt_bench", type: "post.published", data: { text: "x".repeat(800) } });
const headers = () => ({
  "content-type": "application/json",
  "user-agent": "svc-webhooks/1",
  "svc-signature": signPayload(body, ["whsec_bench"], Math.floor(Date.now() / 1000)),
});

const viaFetch = async () => {
  const res = await fetch(url, { method: "POST", headers: headers(), body });
  await res.arrayBuffer();
};
const viaGuarded = async () => {
  await guardedRequest({
    method: "POST",
    url,
    headers: headers(),
    body,
    allow: "localhost",
    maxResponseBytes: 1024,
  });
};

async function rate(send: () => Promise<void>, concurrency: number): Promise<number> {
  let left = total;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (left-- > 0) await send();
    }),
  );
  return total / ((performance.now() - started) / 1000);
}

for (const concurrency of [1, 20]) {
  await rate(viaFetch, concurrency); // warm up both paths
  await rate(viaGuarded, concurrency);
  const floor = await rate(viaFetch, concurrency);
  const guarded = await rate(viaGuarded, concurrency);
  console.log(
    `concurrency ${concurrency}: fetch ${floor.toFixed(0)} req/s, guarded ${guarded.toFixed(0)} req/s, ratio ${(guarded / floor).toFixed(2)}`,
  );
}
closeOutboundPools();
server.stop(true);
