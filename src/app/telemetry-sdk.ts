// The OpenTelemetry SDK and svc's instruments, loaded only when telemetry.ts finds an exporter asked for. The SDK
// configures its exporters from the standard OTEL_* variables; the metric names, types and labels are the
// specification's table. Gauges are read from the database at most every 10 s per process and cover every org.
import { type Attributes, context, metrics, ROOT_CONTEXT, SpanStatusCode, trace } from "@opentelemetry/api";
import { OTLPMetricExporter as GrpcMetrics } from "@opentelemetry/exporter-metrics-otlp-grpc";
import { OTLPMetricExporter as JsonMetrics } from "@opentelemetry/exporter-metrics-otlp-http";
import { OTLPMetricExporter as ProtobufMetrics } from "@opentelemetry/exporter-metrics-otlp-proto";
import { PrometheusExporter } from "@opentelemetry/exporter-prometheus";
import {
  ConsoleMetricExporter,
  type MetricReader,
  PeriodicExportingMetricReader,
} from "@opentelemetry/sdk-metrics";
import { NodeSDK } from "@opentelemetry/sdk-node";
import type { App } from "./context.ts";
import type { Telemetry } from "./telemetry.ts";

const TARGET_STATUSES = [
  "queued",
  "publishing",
  "held",
  "needs_attention",
  "failed",
  "published",
  "canceled",
];
const MODES = ["live", "test"] as const;
const GAUGE_EVERY_MS = 10_000;
/** svc_publish_lateness_seconds: 1 second to an hour. */
const LATENESS_BUCKETS = [1, 2, 5, 10, 30, 60, 120, 300, 600, 1800, 3600];

const mode = (live: unknown) => (live === true || live === 1 || live === "1" ? "live" : "test");

interface GaugeReading {
  targets: Map<string, number>; // `${status}|${mode}`
  due: Map<string, number>;
  oldestDue: Map<string, number>;
  tasks: { name: string; lastSuccess: number | null; failures: number }[];
}

async function readGauges(app: App): Promise<GaugeReading> {
  const now = app.clock.now();
  const [byStatus, due, tasks] = await Promise.all([
    app.db
      .selectFrom("post_targets")
      .select((eb) => ["status", "livemode", eb.fn.countAll<number>().as("n")])
      .groupBy(["status", "livemode"])
      .execute(),
    // Claimable now, as the claim judges it: due, channel active and not held by a rate limit, org not suspended.
    app.db
      .selectFrom("post_targets as t")
      .innerJoin("channels as c", "c.id", "t.channel_id")
      .innerJoin("orgs as o", "o.id", "t.org_id")
      .select((eb) => [
        "t.livemode",
        eb.fn.countAll<number>().as("n"),
        eb.fn.min("t.next_attempt_at").as("oldest"),
      ])
      .where("t.status", "=", "queued")
      .where("t.next_attempt_at", "<=", now)
      .where("c.status", "=", "active")
      .where((eb) => eb.or([eb("c.rate_limited_until", "is", null), eb("c.rate_limited_until", "<=", now)]))
      .where("o.status", "<>", "suspended")
      .groupBy("t.livemode")
      .execute(),
    app.db.selectFrom("task_leases").select(["name", "last_success_at", "consecutive_failures"]).execute(),
  ]);
  const targets = new Map<string, number>();
  for (const r of byStatus) {
    const key = `${r.status}|${mode(r.livemode)}`;
    targets.set(key, (targets.get(key) ?? 0) + Number(r.n));
  }
  const dueCount = new Map<string, number>();
  const oldestDue = new Map<string, number>();
  for (const r of due) {
    dueCount.set(mode(r.livemode), Number(r.n));
    if (r.oldest !== null) oldestDue.set(mode(r.livemode), Math.max(0, (now - Number(r.oldest)) / 1000));
  }
  return {
    targets,
    due: dueCount,
    oldestDue,
    tasks: tasks.map((t) => ({
      name: t.name,
      lastSuccess: t.last_success_at === null ? null : Number(t.last_success_at),
      failures: Number(t.consecutive_failures),
    })),
  };
}

/**
 * The metric readers OTEL_METRICS_EXPORTER names, as the SDK would make them from the environment, except that
 * the Prometheus exporter leaves out its scope labels and target_info: each metric carries exactly the labels of
 * the specification's table.
 */
function metricReaders(names: string, env: Record<string, string | undefined>): MetricReader[] {
  const every = Number(env.OTEL_METRIC_EXPORT_INTERVAL) || 60_000;
  const periodic = (exporter: ConstructorParameters<typeof PeriodicExportingMetricReader>[0]["exporter"]) =>
    new PeriodicExportingMetricReader({ exporter, exportIntervalMillis: every });
  const readers: MetricReader[] = [];
  for (const name of new Set(names.split(",").map((n) => n.trim()))) {
    if (name === "prometheus") {
      readers.push(
        new PrometheusExporter({
          host: env.OTEL_EXPORTER_PROMETHEUS_HOST || "localhost",
          port: Number(env.OTEL_EXPORTER_PROMETHEUS_PORT) || 9464,
          withoutScopeInfo: true,
          withoutTargetInfo: true,
        }),
      );
    } else if (name === "console") readers.push(periodic(new ConsoleMetricExporter()));
    else if (name === "otlp") {
      const protocol =
        env.OTEL_EXPORTER_OTLP_METRICS_PROTOCOL || env.OTEL_EXPORTER_OTLP_PROTOCOL || "http/protobuf";
      readers.push(
        periodic(
          protocol === "grpc"
            ? new GrpcMetrics()
            : protocol === "http/json"
              ? new JsonMetrics()
              : new ProtobufMetrics(),
        ),
      );
    }
  }
  return readers;
}

export async function createTelemetry(
  app: App,
  env: Record<string, string | undefined>,
  wanted: { metrics: string; traces: string },
): Promise<Telemetry> {
  // The SDK reads its span exporters from the environment: name the choice so it never picks its default.
  process.env.OTEL_TRACES_EXPORTER = wanted.traces;
  const named = env.OTEL_SERVICE_NAME || /(^|,)\s*service\.name=/.test(env.OTEL_RESOURCE_ATTRIBUTES ?? "");
  const sdk = new NodeSDK({
    ...(named ? {} : { serviceName: "svc" }),
    instrumentations: [], // Bun's server is not instrumented; the pipeline's stages make the request spans
    autoDetectResources: false,
    metricReaders: metricReaders(wanted.metrics, env),
  });
  sdk.start();

  const traced = wanted.traces !== "none";
  const meter = metrics.getMeter("svc");
  const tracer = trace.getTracer("svc");
  const attempts = meter.createCounter("svc_publish_attempts_total", {
    description: "Publish attempts by provider, mode, outcome and error kind",
  });
  const webhookAttempts = meter.createCounter("svc_webhook_delivery_attempts_total", {
    description: "Webhook delivery attempts by mode and outcome",
  });
  const taskFailures = meter.createCounter("svc_task_failures_total", {
    description: "Failed task runs (errors, panics, timeouts)",
  });
  const lateness = meter.createHistogram("svc_publish_lateness_seconds", {
    description: "Delay between a target's due time and its attempt's start",
    unit: "s",
    advice: { explicitBucketBoundaries: LATENESS_BUCKETS },
  });

  let reading: { at: number; value: Promise<GaugeReading> } | null = null;
  const gauges = () => {
    const now = Date.now();
    if (!reading || now - reading.at >= GAUGE_EVERY_MS) {
      const value = readGauges(app);
      value.catch(() => {
        reading = null; // a failed reading (database away) is tried again at the next collection
      });
      reading = { at: now, value };
    }
    return reading.value;
  };
  const targets = meter.createObservableGauge("svc_post_targets", { description: "Targets per status" });
  const due = meter.createObservableGauge("svc_post_targets_due", {
    description: "Queued targets claimable now",
  });
  const oldest = meter.createObservableGauge("svc_post_targets_oldest_due_age_seconds", {
    description: "Age of the oldest due target; 0 if none",
    unit: "s",
  });
  const lastSuccess = meter.createObservableGauge("svc_task_last_success_timestamp_seconds", {
    description: "Unix time of a task's last success",
    unit: "s",
  });
  const consecutive = meter.createObservableGauge("svc_task_consecutive_failures", {
    description: "Failures since a task's last success",
  });
  meter.addBatchObservableCallback(
    async (r) => {
      const g = await gauges();
      for (const m of MODES) {
        for (const status of TARGET_STATUSES)
          r.observe(targets, g.targets.get(`${status}|${m}`) ?? 0, { status, mode: m });
        r.observe(due, g.due.get(m) ?? 0, { mode: m });
        r.observe(oldest, g.oldestDue.get(m) ?? 0, { mode: m });
      }
      for (const t of g.tasks) {
        if (t.lastSuccess !== null) r.observe(lastSuccess, t.lastSuccess / 1000, { task: t.name });
        r.observe(consecutive, t.failures, { task: t.name });
      }
    },
    [targets, due, oldest, lastSuccess, consecutive],
  );

  return {
    enabled: true,
    publishAttempt(a) {
      const labels = { provider: a.provider, mode: a.live ? "live" : "test" };
      attempts.add(1, { ...labels, outcome: a.outcome, error_kind: a.errorKind });
      if (a.latenessMs !== null) lateness.record(Math.max(0, a.latenessMs / 1000), labels);
    },
    webhookAttempt(live, outcome) {
      webhookAttempts.add(1, { mode: live ? "live" : "test", outcome });
    },
    taskFailed(task) {
      taskFailures.add(1, { task });
    },
    // Without a span exporter there is nothing to trace: no span and no async context, which would cost every
    // request for nothing.
    span: !traced
      ? (_name, _attributes, fn) => fn(() => {})
      : (name, attributes, fn) => {
          // ROOT_CONTEXT: every request and task starts its own trace, whatever a caller sent.
          return tracer.startActiveSpan(name, { attributes }, ROOT_CONTEXT, async (span) => {
            try {
              return await fn((more: Attributes) => span.setAttributes(more));
            } catch (e) {
              // The kind of error only: its message may carry text or addresses.
              span.setStatus({ code: SpanStatusCode.ERROR });
              span.setAttribute("error.type", (e as Error)?.constructor?.name ?? "Error");
              throw e;
            } finally {
              span.end();
            }
          });
        },
    logContext() {
      if (!traced) return null;
      const span = trace.getSpan(context.active());
      if (!span) return null;
      const c = span.spanContext();
      return { trace_id: c.traceId, span_id: c.spanId };
    },
    async shutdown() {
      await sdk.shutdown();
    },
  };
}
