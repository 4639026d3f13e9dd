// Starting telemetry for a process role (svc server, worker, all): the SDK loads only when the environment asks for
// an exporter (telemetryWanted), so a process without OTEL_* variables never pays for it.
import type { App } from "./context.ts";
import { telemetryWanted } from "./telemetry.ts";

/** Starts the SDK when the environment asks for it and puts this process's instruments on the App. */
export async function startTelemetry(
  app: App,
  env: Record<string, string | undefined> = process.env,
): Promise<void> {
  const wanted = telemetryWanted(env);
  if (!wanted) return;
  const { createTelemetry } = await import("./telemetry-sdk.ts");
  app.telemetry = await createTelemetry(app, env, wanted);
  app.log.info("telemetry started", wanted);
}
