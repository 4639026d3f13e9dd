// The floor for bench/start.ts: a bare Elysia + bun:sqlite + Kysely process answering /readyz from the database.
import { Database } from "bun:sqlite";
import { Elysia } from "elysia";
import { Kysely, sql } from "kysely";
import { BunSqliteDialect } from "../src/db/sqlite.ts";

const db = new Kysely<Record<string, never>>({
  dialect: new BunSqliteDialect(new Database(process.env.BARE_DB!, { create: true })),
});
const [host, port] = (process.env.SVC_LISTEN ?? "127.0.0.1:0").split(":");
const app = new Elysia().get("/readyz", async () => {
  await sql`SELECT 1`.execute(db);
  return new Response('{"status":"ready"}', { headers: { "content-type": "application/json" } });
});
Bun.serve({ hostname: host, port: Number(port), fetch: (r) => app.handle(r) });
