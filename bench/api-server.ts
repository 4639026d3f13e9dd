// The servers bench/api.ts compares: `svc` (the real /v1 app on SQLite, server role), `bare` (Elysia with one
// POST route that parses the same JSON body and answers 201) and `required` (the rows the specification requires
// of a post, written in the leanest code: bench/required-writes-server.ts).
import { Elysia } from "elysia";
import { loadConfig } from "../src/app/config.ts";
import { createApp } from "../src/app/context.ts";
import { silentLogger } from "../src/app/log.ts";
import { startTelemetry } from "../src/app/start-telemetry.ts";
import { registerHooks } from "../src/boot.ts";
import { createHttp } from "../src/http/server.ts";

const port = Number(process.env.PORT);
if (process.argv[2] === "bare") {
  const app = new Elysia().post("/v1/posts", async ({ request }) => {
    const body = (await request.json()) as { brand: string };
    return new Response(JSON.stringify({ id: "post_x", object: "post", brand: body.brand }), {
      status: 201,
      headers: { "content-type": "application/json" },
    });
  });
  Bun.serve({ hostname: "127.0.0.1", port, fetch: (r) => app.handle(r) });
} else if (process.argv[2] === "required") {
  // Imported only here: it opens the database when loaded.
  (await import("./required-writes-server.ts")).requiredWritesServer(port);
} else {
  registerHooks();
  const app = createApp(loadConfig(), { log: silentLogger });
  await startTelemetry(app); // only when the bench passes OTEL_* variables (bench/telemetry.ts)
  const http = createHttp(app);
  Bun.serve({ hostname: "127.0.0.1", port, fetch: (r) => http.handle(r) });
}
process.stdout.write("ready\n");
process.on("SIGINT", () => process.exit(0));
