// A test App served on a real loopback port (127.0.0.1, port 0), for clients that speak HTTP: the svc CLI, SSE.
import type { Dialect } from "../../src/db/migration.ts";
import { type TestApp, type TestAppOptions, testApp } from "./app.ts";

export interface ListeningApp extends TestApp {
  url: string;
  port: number;
}

export async function listeningApp(dialect: Dialect, opts: TestAppOptions = {}): Promise<ListeningApp> {
  const t = await testApp(dialect, opts);
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch: (req) => t.http.handle(req),
    idleTimeout: 60,
  });
  const close = t.close;
  return Object.assign(t, {
    url: `http://127.0.0.1:${server.port}`,
    port: server.port as number,
    async close() {
      server.stop(true);
      await close();
    },
  });
}
