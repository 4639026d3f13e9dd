// Starts a PLC directory, a Bluesky AppView (@atproto/bsky, on the local Postgres in a schema of its own) and a
// PDS that sends app.bsky.* reads to that AppView, using @atproto/dev-env's building blocks from .tools/devenv,
// all on 127.0.0.1. Prints {pds, appview} when they answer; lives until stdin closes; drops its schema on exit.
import net from "node:net";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const devenv = path.resolve(here, "../../../.tools/devenv/node_modules/@atproto/dev-env/dist");
const load = (f) => import(pathToFileURL(path.join(devenv, f)).href);

const listen = net.Server.prototype.listen;
net.Server.prototype.listen = function (...args) {
  if (typeof args[0] === "number" && (args.length === 1 || typeof args[1] === "function"))
    args.splice(1, 0, "127.0.0.1");
  if (typeof args[0] === "object" && args[0] && args[0].host === undefined && args[0].path === undefined)
    args[0] = { ...args[0], host: "127.0.0.1" };
  return listen.apply(this, args);
};

const { TestPlc } = await load("plc.js");
const { TestBsky } = await load("bsky.js");
const { TestPds } = await load("pds.js");
const getPort = (await load("get-port.js")).default;

// Letters and underscores only (the AppView refuses anything else).
const letters = (n) =>
  Array.from({ length: n }, () => "abcdefghijklmnopqrstuvwxyz"[Math.floor(Math.random() * 26)]).join("");
const schema = `appview_${letters(12)}`;
const dbUrl = process.env.APPVIEW_DB_URL || "postgres://postgres@127.0.0.1:5432/postgres";
const plc = await TestPlc.create({});
const pdsPort = await getPort();
const bsky = await TestBsky.create({
  plcUrl: plc.url,
  repoProvider: `ws://localhost:${pdsPort}`,
  dbPostgresUrl: dbUrl,
  dbPostgresSchema: schema,
  redisHost: process.env.REDIS_HOST,
  bsyncUrl: "http://127.0.0.1:1",
});
const pds = await TestPds.create({
  port: pdsPort,
  didPlcUrl: plc.url,
  bskyAppViewUrl: bsky.url,
  bskyAppViewDid: bsky.ctx.cfg.serverDid,
  rateLimitsEnabled: false,
});
process.stdout.write(`${JSON.stringify({ pds: pds.url, appview: bsky.url, schema })}\n`);
const stop = async () => {
  try {
    await pds.close();
    await bsky.close();
    const pg = await import(pathToFileURL(path.resolve(here, "../../../node_modules/pg/lib/index.js")).href);
    const client = new pg.default.Client({ connectionString: dbUrl });
    await client.connect();
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await client.end();
  } finally {
    process.exit(0);
  }
};
process.stdin.on("end", stop);
process.on("SIGTERM", stop);
process.stdin.resume();
