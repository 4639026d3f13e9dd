// A test App served on a real loopback port (127.0.0.1, port 0), for clients that speak HTTP: the svc CLI, SSE.
import type { Dialect } from "../../src/db/migration.ts";
import { type TestApp, type TestAppOptions, testApp } from "./app.ts";

export interface ListeningApp extends TestApp {
  url: string;
  port: number;
  /** Drops every open connection (as a restart or a network cut would) and stops answering. */
  stop(): void;
  /** Serves again on the same port. */
  resume(): void;
}

export async function listeningApp(dialect: Dialect, opts: TestAppOptions = {}): Promise<ListeningApp> {
  const t = await testApp(dialect, opts);
  const serve = (port: number) =>
    Bun.serve({
      hostname: "127.0.0.1",
      port,
      fetch: (req, srv) => t.http.handle(req, srv.requestIP(req)?.address ?? null),
      idleTimeout: 60,
    });
  let server: ReturnType<typeof serve> | null = serve(0);
  const port = server.port as number;
  const close = t.close;
  return Object.assign(t, {
    url: `http://127.0.0.1:${port}`,
    port,
    stop() {
      server?.stop(true);
      server = null;
    },
    resume() {
      server ??= serve(port);
    },
    async close() {
      server?.stop(true);
      await close();
    },
  });
}
