// notifications.send through a real SMTP receiver (smtp-server, in its own process), beside the floor: a bare loop
// that sends the same messages with nodemailer over one pooled connection. Members across orgs are each owed one
// notification, half immediate and half in the 08:00 summary; the run must stay under 30 emails per person per
// hour exactly (nothing suppressed, every message received). Also: what raising adds to the event's transaction,
// in wall time and in CPU time (this process, and a local Postgres's server processes).
// Run: bun bench/notifications.ts [--quick] [--database postgres://…]
//   prints `notifications: N emails/s, ratio R; raising adds X ms`
import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "kysely";
import { loadConfig } from "../src/app/config.ts";
import { createApp } from "../src/app/context.ts";
import { silentLogger } from "../src/app/log.ts";
import { registerHooks } from "../src/boot.ts";
import { openDatabase } from "../src/db/index.ts";
import { migrate } from "../src/db/migrate.ts";
import { afterEventHooks } from "../src/domain/events/hooks.ts";
import { recordEvent } from "../src/domain/events/record.ts";
import { notifyOnEvents } from "../src/domain/notifications/on-events.ts";
import { sendNotifications } from "../src/domain/notifications/send.ts";
import { FakeClock } from "../src/lib/clock.ts";
import { newId } from "../src/lib/ids.ts";

const quick = process.argv.includes("--quick");
const dbArg = process.argv[process.argv.indexOf("--database") + 1];
const databaseUrl =
  process.argv.includes("--database") && dbArg
    ? dbArg
    : `sqlite:${join(mkdtempSync(join(tmpdir(), "svc-bench-")), "bench.db")}`;
const ORGS = quick ? 10 : 100;
const PER_ORG = 100;
const total = ORGS * PER_ORG;

// The receiver: smtp-server in another process, counting what it accepts.
const receiver = Bun.spawn(
  [
    "bun",
    "-e",
    `const { SMTPServer } = require("smtp-server");
     let n = 0;
     const s = new SMTPServer({ secure: false, disabledCommands: ["STARTTLS", "AUTH"], logger: false,
       onData(stream, _s, cb) { stream.on("data", () => {}); stream.on("end", () => { n++; cb(); }); } });
     s.listen(0, "127.0.0.1", () => console.log(s.server.address().port));
     setInterval(() => console.error("count " + n), 200);`,
  ],
  { cwd: import.meta.dir, stdout: "pipe", stderr: "pipe" },
);
const port = Number(new TextDecoder().decode((await receiver.stdout.getReader().read()).value).trim());
let received = 0;
/** Messages the receiver took before the measured runs (the warm-up), left out of every count below. */
let warmed = 0;
(async () => {
  const dec = new TextDecoder();
  for await (const chunk of receiver.stderr) {
    const m = [...dec.decode(chunk).matchAll(/count (\d+)/g)].at(-1);
    if (m) received = Number(m[1]);
  }
})();
const waitReceived = async (n: number) => {
  while (received - warmed < n) await Bun.sleep(20);
};

const clock = new FakeClock(Date.parse("2026-03-02T09:00:00Z"));
const database = openDatabase(databaseUrl);
await migrate(database.db, database.dialect);
registerHooks();
const app = createApp(
  loadConfig({
    SVC_DATABASE_URL: databaseUrl,
    SVC_MASTER_KEYS: `k1:${randomBytes(32).toString("base64")}`,
    SVC_DATA_DIR: tmpdir(),
    SVC_BASE_URL: "https://svc.example.com",
    SVC_SMTP_HOST: "127.0.0.1",
    SVC_SMTP_PORT: String(port),
    SVC_SMTP_TLS: "none",
    SVC_SMTP_FROM: "svc <svc@example.com>",
  }),
  { database, log: silentLogger, clock },
);

// Seed: orgs of admins written directly (hashing 10,000 passwords would measure argon2, not notifications);
// half of the people take the daily summary, in four time zones.
const now = clock.now();
const orgIds: string[] = [];
const zones = ["UTC", "Europe/Berlin", "America/New_York", "Asia/Tokyo"];
async function seedOrg(o: number, people: number): Promise<string> {
  const orgId = newId("org", now);
  await app.db.transaction().execute(async (tx) => {
    await tx
      .insertInto("orgs")
      .values({
        id: orgId,
        name: `Bench org ${o}`,
        status: "active",
        status_note: null,
        require_mfa: 0,
        require_sso: 0,
        limit_brands: null,
        limit_channels: null,
        limit_members: null,
        limit_posts_per_month: null,
        external_ref: null,
        created_at: now,
        updated_at: now,
      })
      .execute();
    const users = Array.from({ length: people }, (_, i) => ({
      id: newId("user", now),
      email: `p${o}-${i}@example.com`,
      name: null,
      password_hash: null,
      password_printed_at: null,
      timezone: zones[i % zones.length]!,
      disabled_at: null,
      created_at: now,
      updated_at: now,
    }));
    await tx.insertInto("users").values(users).execute();
    await tx
      .insertInto("members")
      .values(users.map((u) => ({ org_id: orgId, user_id: u.id, role: "admin", created_at: now })))
      .execute();
    await tx
      .insertInto("notification_preferences")
      .values(
        users
          .filter((_, i) => i % 2 === 1)
          .map((u) => ({
            user_id: u.id,
            org_id: orgId,
            type: "channel.needs_reauth",
            email: 1 as const,
            delivery: "daily" as const,
            updated_at: now,
          })),
      )
      .execute();
  });
  return orgId;
}
for (let o = 0; o < ORGS; o++) orgIds.push(await seedOrg(o, PER_ORG));

// What raising adds: the same events written with and without the hooks, in an org of five admins (the people
// a channel notification reaches in a typical org).
const small = await seedOrg(ORGS, 5);
const reauth = (orgId: string, i: number) =>
  app.db.transaction().execute((tx) =>
    recordEvent(tx, app, { orgId, livemode: true, requestId: null }, "channel.needs_reauth", {
      id: `chan_${orgId}_${i}`,
      provider: "mastodon",
      display_name: `Channel ${i}`,
    }),
  );
// CPU time as well as wall time, which on a loaded machine measures the queue for a core more than the work:
// this process's, and on Postgres its server processes' for this database (from /proc, when the server runs on
// this machine), summed over the rounds of each side.
async function serverCpuMs(): Promise<number | null> {
  if (app.dialect !== "postgres") return null;
  const { rows } = await sql<{
    pid: number;
  }>`SELECT pid FROM pg_stat_activity WHERE datname = current_database()`.execute(app.db);
  let ticks = 0;
  for (const { pid } of rows) {
    try {
      const f = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
      ticks += Number(f[11]) + Number(f[12]);
    } catch {
      return null;
    }
  }
  return ticks * 10; // USER_HZ is 100 on Linux
}
const cpu = { with: { svc: 0, server: 0 }, without: { svc: 0, server: 0 }, events: 0, server: true };
async function timeEvents(
  n: number,
  orgId: string,
  offset: number,
  side?: "with" | "without",
): Promise<number> {
  const server0 = side ? await serverCpuMs() : null;
  const svc0 = process.cpuUsage();
  const started = performance.now();
  for (let i = 0; i < n; i++) await reauth(orgId, offset + i);
  const wall = (performance.now() - started) / n;
  if (side) {
    const used = process.cpuUsage(svc0);
    cpu[side].svc += (used.user + used.system) / 1000;
    const server1 = await serverCpuMs();
    if (server0 === null || server1 === null) cpu.server = false;
    else cpu[side].server += server1 - server0;
    if (side === "with") cpu.events += n;
  }
  return wall;
}
// Rounds alternate with and without the hook, and each side keeps its best round: on a shared machine a round
// can stall for reasons of its own, and alternating spreads what remains over both sides alike.
const at = afterEventHooks.indexOf(notifyOnEvents);
let without = Number.POSITIVE_INFINITY;
let withHook = Number.POSITIVE_INFINITY;
await timeEvents(100, small, 0);
for (let round = 1; round <= 10; round++) {
  afterEventHooks.splice(at, 1);
  without = Math.min(without, await timeEvents(100, small, round * 1_000_000, "without"));
  afterEventHooks.splice(at, 0, notifyOnEvents);
  withHook = Math.min(withHook, await timeEvents(100, small, round * 1_000_000 + 500_000, "with"));
}
await app.db.deleteFrom("notifications").execute();
await app.db.deleteFrom("events").execute();

// One notification per person: a channel of each org needs reauth.
for (const orgId of orgIds) await reauth(orgId, 0);

async function sent(): Promise<number> {
  const r = await app.db
    .selectFrom("mail_outbox")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("status", "=", "sent")
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

// Warm-up: nodemailer's sending path runs cold at first (the first few hundred messages go at a fraction of the
// later rate while the JIT compiles it). Whichever side ran first paid for that, and svc ran first, so both are
// measured warm: a throwaway transport sends WARM messages before either is timed.
{
  const WARM = 1000;
  const nm = (await import("nodemailer")).default;
  const warm = nm.createTransport({
    host: "127.0.0.1",
    port,
    secure: false,
    ignoreTLS: true,
    pool: true,
    maxConnections: 1,
  });
  const t0 = performance.now();
  for (let i = 0; i < WARM; i++)
    await warm.sendMail({
      from: "svc <svc@example.com>",
      to: `warm${i}@example.com`,
      subject: "Warm-up",
      text: "Warm-up message.",
      html: "<p>Warm-up message.</p>",
    });
  await waitReceived(WARM);
  console.log(
    `warm-up: ${WARM} messages at ${(WARM / ((performance.now() - t0) / 1000)).toFixed(0)} emails/s`,
  );
  warm.close();
  warmed = WARM;
}

// notifications.send: the immediate half now; the summaries once every zone's 08:00 has passed (Tokyo's 08:00 is
// 23:00 UTC the day before, New York's 13:00 UTC), all in one run.
let started = performance.now();
const first = await sendNotifications(app);
clock.set("2026-03-03T13:00:00Z");
const second = await sendNotifications(app);
await waitReceived(total);
const elapsed = (performance.now() - started) / 1000;
const rate = total / elapsed;
const suppressed = await app.db
  .selectFrom("notifications")
  .select("id")
  .where("email", "=", "suppressed")
  .execute();
if (first.queued + second.queued !== total || suppressed.length !== 0 || (await sent()) !== total)
  throw new Error(
    `expected ${total} queued and sent, none suppressed: ${JSON.stringify({ first, second, suppressed: suppressed.length, sent: await sent() })}`,
  );

// The floor: the same messages, from the outbox, by nodemailer over one pooled connection in a bare loop.
const messages = await app.db.selectFrom("mail_outbox").selectAll().execute();
const nodemailer = (await import("nodemailer")).default;
const transport = nodemailer.createTransport({
  host: "127.0.0.1",
  port,
  secure: false,
  ignoreTLS: true,
  pool: true,
  maxConnections: 1,
});
const before = received - warmed;
started = performance.now();
for (const m of messages)
  await transport.sendMail({
    from: "svc <svc@example.com>",
    to: m.to_address,
    subject: m.subject,
    text: m.body_text,
    html: m.body_html,
    ...(m.headers ? { headers: JSON.parse(m.headers) as Record<string, string> } : {}),
  });
await waitReceived(before + messages.length);
const floor = messages.length / ((performance.now() - started) / 1000);
transport.close();

console.log(
  `database ${app.dialect}; ${ORGS} orgs x ${PER_ORG} members, ${total / 2} immediate + ${total / 2} in the 08:00 summary`,
);
console.log(`floor: nodemailer over one pooled connection, bare loop: ${floor.toFixed(0)} emails/s`);
console.log(
  `raising: event transaction ${without.toFixed(3)} ms without the notification hook, ${withHook.toFixed(3)} ms with it`,
);
const perEvent = (ms: number) => (ms / cpu.events).toFixed(3);
console.log(
  `raising, CPU per event (all rounds): this process ${perEvent(cpu.with.svc - cpu.without.svc)} ms` +
    (cpu.server
      ? `, Postgres ${perEvent(cpu.with.server - cpu.without.server)} ms (without the hook: this process ${perEvent(cpu.without.svc)} ms, Postgres ${perEvent(cpu.without.server)} ms)`
      : ` (without the hook: ${perEvent(cpu.without.svc)} ms)`),
);
console.log(
  `load average at the end: ${readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ")}`,
);
console.log(
  `notifications: ${rate.toFixed(0)} emails/s, ratio ${(rate / floor).toFixed(2)}; none suppressed; raising adds ${(withHook - without).toFixed(3)} ms`,
);

await app.close();
receiver.kill();
process.exit(0);
