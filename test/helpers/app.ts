// A test App over a fresh database, with its HTTP surface, a fake clock and a master key.

import { randomBytes } from "node:crypto";
import { loadConfig } from "../../src/app/config.ts";
import { type App, createApp } from "../../src/app/context.ts";
import { silentLogger } from "../../src/app/log.ts";
import { registerHooks } from "../../src/boot.ts";
import { openDatabase } from "../../src/db/index.ts";
import type { Dialect } from "../../src/db/migration.ts";
import { createHttp, type HttpServer } from "../../src/http/server.ts";
import type { Clock } from "../../src/lib/clock.ts";
import { freshDatabase } from "./db.ts";

export interface TestApp {
  app: App;
  http: HttpServer;
  dbUrl: string;
  masterKeys: string;
  /** In-process request: path relative to the server, JSON body, bearer credential. */
  request(
    method: string,
    path: string,
    opts?: { key?: string; body?: unknown; raw?: string; headers?: Record<string, string> },
  ): Promise<TestResponse>;
  close(): Promise<void>;
}

export interface TestResponse {
  status: number;
  headers: Headers;
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON
  body: any;
}

export interface TestAppOptions {
  clock?: Clock;
  /** Deployment variables over the defaults (SVC_MASTER_KEYS: "" means no master key). */
  env?: Record<string, string>;
  /** Open this existing database (a second App on the same database) instead of a fresh one. */
  url?: string;
  /** false: a fresh database with no schema at all (as before the first migration). */
  migrated?: boolean;
}

export async function testApp(dialect: Dialect, opts: TestAppOptions = {}): Promise<TestApp> {
  // An App on a database it made drops that database on close (an App on an existing one leaves it).
  const { database, url, drop } = opts.url
    ? { database: openDatabase(opts.url, { poolSize: 5 }), url: opts.url, drop: async () => {} }
    : await freshDatabase(dialect, { migrated: opts.migrated ?? true });
  const masterKeys = opts.env?.SVC_MASTER_KEYS ?? `k1:${randomBytes(32).toString("base64")}`;
  const config = loadConfig({
    SVC_DATABASE_URL: url,
    SVC_BASE_URL: "http://localhost:8080",
    SVC_DATA_DIR: "/tmp/svc-test-data",
    ...opts.env,
    SVC_MASTER_KEYS: masterKeys,
  });
  registerHooks();
  const app = createApp(config, {
    database,
    log: silentLogger,
    ...(opts.clock ? { clock: opts.clock } : {}),
  });
  const http = createHttp(app);
  return {
    app,
    http,
    dbUrl: url,
    masterKeys,
    async request(method, path, o = {}) {
      const headers: Record<string, string> = { ...o.headers };
      if (o.key) headers.authorization = `Bearer ${o.key}`;
      let body: string | undefined = o.raw;
      // Raw text is sent as JSON too (a Request with a string body would otherwise say text/plain).
      if (o.raw !== undefined && !Object.keys(headers).some((h) => h.toLowerCase() === "content-type"))
        headers["content-type"] = "application/json";
      if (o.body !== undefined) {
        body = JSON.stringify(o.body);
        headers["content-type"] = "application/json";
      }
      const res = await http.handle(new Request(`http://localhost${path}`, { method, headers, body }));
      const text = await res.text();
      let parsed: unknown = text;
      try {
        parsed = text ? JSON.parse(text) : null;
      } catch {}
      return { status: res.status, headers: res.headers, body: parsed };
    },
    async close() {
      await http.ctx.requestLog.flush();
      await app.close();
      await drop();
    },
  };
}
