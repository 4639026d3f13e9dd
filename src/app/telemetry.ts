// OpenTelemetry metrics and traces (interface.md "Metrics and traces"). Off, and not even loaded, until a standard
// OTEL_* variable asks for an exporter: then the SDK (@opentelemetry/sdk-node, configured by those variables)
// starts with this process's instruments. Labels are bounded: provider, mode, outcome, error kind, task, status;
// never an ID, a text, a URL or an error message. Spans start their own trace (an incoming traceparent is ignored).
// The SDK itself starts in start-telemetry.ts.
export type Mode = "live" | "test";
export type PublishMetricOutcome = "published" | "retry" | "rate_limited" | "needs_attention" | "failed";

export interface Telemetry {
  readonly enabled: boolean;
  publishAttempt(a: {
    provider: string;
    live: boolean;
    outcome: PublishMetricOutcome;
    errorKind: string;
    latenessMs: number | null;
  }): void;
  webhookAttempt(live: boolean, outcome: "succeeded" | "retry" | "failed"): void;
  taskFailed(task: string): void;
  /** Runs fn inside a span of a new trace; `end` adds attributes known only at the end (a status, an outcome). */
  span<T>(
    name: string,
    attributes: Record<string, string | number | boolean>,
    fn: (end: (attributes: Record<string, string | number | boolean>) => void) => Promise<T>,
  ): Promise<T>;
  /** The trace and span a log record written now belongs to, if any. */
  logContext(): { trace_id: string; span_id: string } | null;
  shutdown(): Promise<void>;
}

export const NO_TELEMETRY: Telemetry = {
  enabled: false,
  publishAttempt() {},
  webhookAttempt() {},
  taskFailed() {},
  span: (_name, _attributes, fn) => fn(() => {}),
  logContext: () => null,
  async shutdown() {},
};

const EXPORT_VARIABLES = [
  "OTEL_METRICS_EXPORTER",
  "OTEL_TRACES_EXPORTER",
  "OTEL_EXPORTER_OTLP_ENDPOINT",
  "OTEL_EXPORTER_OTLP_METRICS_ENDPOINT",
  "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT",
];

/**
 * The exporters the environment asks for, or null when it asks for none (nothing is exported, nothing loaded).
 * An OTLP endpoint alone turns OTLP on for both; an exporter not named is "none" (the SDK's own default would
 * export traces to localhost:4318 even when only Prometheus metrics were asked for).
 */
export function telemetryWanted(
  env: Record<string, string | undefined>,
): { metrics: string; traces: string } | null {
  if (env.OTEL_SDK_DISABLED?.toLowerCase() === "true") return null;
  if (!EXPORT_VARIABLES.some((v) => env[v])) return null;
  const endpoint = (specific: string | undefined) =>
    env.OTEL_EXPORTER_OTLP_ENDPOINT || specific ? "otlp" : "none";
  const metrics = env.OTEL_METRICS_EXPORTER || endpoint(env.OTEL_EXPORTER_OTLP_METRICS_ENDPOINT);
  const traces = env.OTEL_TRACES_EXPORTER || endpoint(env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT);
  if (metrics === "none" && traces === "none") return null;
  return { metrics, traces };
}
