// Webhook deliveries per second through the whole path (outbox rows claimed with leases, event and secrets
// loaded, signed, POSTed through the guarded client, attempt logged) to a local receiver, beside the floor: a bare
// loop of HTTP POSTs from Bun (fetch) to the same receiver with the same body and the same 20 in flight.
// The receiver runs in its own process, so it competes with neither side for this event loop.
// Run: bun bench/webhooks.ts [--quick] [--database postgres://…]   (prints `webhooks: N deliveries/s, ratio R`)
import { randomBytes } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../src/app/config.ts";
import { createApp } from "../src/app/context.ts";
import { silentLogger } from "../src/app/log.ts";
import { registerHooks } from "../src/boot.ts";
import { openDatabase } from "../src/db/index.ts";
import { migrate } from "../src/db/migrate.ts";
import { adminActor } from "../src/domain/actor.ts";
import { bootstrap } from "../src/domain/bootstrap/service.ts";
import { recordEvent } from "../src/domain/events/record.ts";
import { scopesOfRole } from "../src/domain/scopes.ts";
import { createEndpoint } from "../src/domain/webhooks/service.ts";
import { closeOutboundPools, guardedRequest } from "../src/net/guarded.ts";
import { signPayload } from "../src/net/signature.ts";
import { DeliveryWorker, MAX_IN_FLIGHT } from "../src/queue/webhook-deliveries.ts";

const quick = process.argv.includes("--quick");
const dbArg = process.argv[process.argv.indexOf("--database") + 1];
const databaseUrl =
  process.argv.includes("--database") && dbArg
    ? dbArg
    : `sqlite:${join(mkdtempSync(join(tmpdir(), "svc-bench-")), "bench.db")}`;
const total = quick ? 3000 : 20_000;

// The receiver: another process answering 200 to every POST after reading the body.
const receiver = Bun.spawn(
  [
    "bun",
    "-e",
    `const s = Bun.serve({ hostname: "127.0.0.1", port: 0, async fetch(r) { await r.arrayBuffer(); return new Response("ok"); } });
     console.log(s.port);`,
  ],
  { stdout: "pipe", stderr: "inherit" },
);
const reader = receiver.stdout.getReader();
const port = Number(new TextDecoder().decode((await reader.read()).value).trim());
const url = `http://127.0.0.1:${port}/hook`;

const database = openDatabase(databaseUrl);
await migrate(database.db, database.dialect);
registerHooks();
const app = createApp(
  loadConfig({
    SVC_DATABASE_URL: databaseUrl,
    SVC_MASTER_KEYS: `k1:${randomBytes(32).toString("base64")}`,
    SVC_ALLOW_PRIVATE_WEBHOOKS: "127.0.0.1",
    SVC_DATA_DIR: tmpdir(),
  }),
  { database, log: silentLogger },
);
const b = await bootstrap(app, {
  email: `bench-${randomBytes(4).toString("hex")}@example.com`,
  org: `Bench ${randomBytes(3).toString("hex")}`,
});
const actor = adminActor(b.org.id, "bench", scopesOfRole("owner"));
await createEndpoint(app, actor, { url });

const object = { id: "post_bench", object: "post", text: "x".repeat(800) };
async function writeEvents(n: number) {
  for (let done = 0; done < n; ) {
    const batch = Math.min(500, n - done);
    await app.db.transaction().execute(async (tx) => {
      for (let i = 0; i < batch; i++)
        await recordEvent(
          tx,
          app,
          { orgId: b.org.id, livemode: false, requestId: null },
          "post.published",
          object,
        );
    });
    done += batch;
  }
}

async function pending(): Promise<number> {
  const r = await app.db
    .selectFrom("webhook_deliveries")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("status", "!=", "succeeded")
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

async function deliveries(n: number): Promise<number> {
  await writeEvents(n);
  if ((await pending()) !== n) throw new Error(`expected ${n} pending deliveries, found ${await pending()}`);
  const worker = new DeliveryWorker(app, { pollMs: 1000 });
  const started = performance.now();
  worker.start();
  while ((await pending()) > 0) await Bun.sleep(20);
  const rate = n / ((performance.now() - started) / 1000);
  await worker.stop();
  return rate;
}

// The floors: the same body and headers, signed the same way, sent by fetch in a bare loop (one at a time, and
// with the worker's 20 in flight), and by the guarded client alone with 20 in flight (no database at all).
const body = JSON.stringify({ id: "evt_bench", object: "event", type: "post.published", data: { object } });
const headers = () => ({
  "content-type": "application/json",
  "user-agent": "svc-webhooks/1",
  "svc-signature": signPayload(body, ["whsec_bench"], Math.floor(Date.now() / 1000)),
});
const viaFetch = async () => {
  await (await fetch(url, { method: "POST", body, headers: headers() })).arrayBuffer();
};
const viaGuarded = async () => {
  await guardedRequest({
    method: "POST",
    url,
    body,
    headers: headers(),
    allow: "127.0.0.1",
    maxResponseBytes: 1024,
  });
};
async function floor(n: number, concurrency: number, send = viaFetch): Promise<number> {
  let left = n;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (left-- > 0) await send();
    }),
  );
  return n / ((performance.now() - started) / 1000);
}

// Warm every path, then measure.
await floor(Math.min(1000, total), MAX_IN_FLIGHT);
await floor(Math.min(1000, total), MAX_IN_FLIGHT, viaGuarded);
await deliveries(Math.min(500, total));
const bareLoop = await floor(Math.min(total, 3000), 1);
const concurrent = await floor(total, MAX_IN_FLIGHT);
const guarded = await floor(total, MAX_IN_FLIGHT, viaGuarded);
const rate = await deliveries(total);

console.log(`database ${app.dialect}; ${total} deliveries to a receiver in another process`);
console.log(`floor: bare loop of fetch POSTs, one at a time: ${bareLoop.toFixed(0)} req/s`);
console.log(
  `fetch with ${MAX_IN_FLIGHT} in flight: ${concurrent.toFixed(0)} req/s (deliveries ratio ${(rate / concurrent).toFixed(2)}); ` +
    `guarded client alone with ${MAX_IN_FLIGHT} in flight: ${guarded.toFixed(0)} req/s (ratio ${(guarded / concurrent).toFixed(2)})`,
);
console.log(`webhooks: ${rate.toFixed(0)} deliveries/s, ratio ${(rate / bareLoop).toFixed(2)}`);

closeOutboundPools();
await app.close();
receiver.kill();
