// OpenTelemetry as an operator turns it on: `svc all` started with only standard OTEL_* variables serves the
// specification's metrics on its own Prometheus port (scraped, linted by promtool and parsed by an exposition-format
// parser) and sends spans over OTLP (protobuf) to a local receiver that decodes them; labels and spans carry no IDs or text, an incoming
// traceparent is ignored, and log lines written inside a span carry its trace_id and span_id. Without any OTEL_*
// variable nothing listens and nothing is sent.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import parsePrometheusTextFormat from "parse-prometheus-text-format";
import type { App } from "../../src/app/context.ts";
import { createLogger } from "../../src/app/log.ts";
import { telemetryWanted } from "../../src/app/telemetry.ts";
import { createTelemetry } from "../../src/app/telemetry-sdk.ts";
import { describeEachDialect, freshDatabase } from "../helpers/db.ts";
import { type DecodedSpan, decodeSpans } from "../helpers/otlp.ts";

const repo = join(import.meta.dir, "../..");
const work = mkdtempSync(join(tmpdir(), "svc-otel-"));
const free = () => 24000 + Math.floor(Math.random() * 8000);

test("only an OTEL_* exporter variable turns telemetry on; an endpoint alone means OTLP for both", () => {
  expect(telemetryWanted({})).toBeNull();
  expect(telemetryWanted({ OTEL_SERVICE_NAME: "svc" })).toBeNull();
  expect(telemetryWanted({ OTEL_METRICS_EXPORTER: "prometheus" })).toEqual({
    metrics: "prometheus",
    traces: "none",
  });
  expect(telemetryWanted({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318" })).toEqual({
    metrics: "otlp",
    traces: "otlp",
  });
  expect(telemetryWanted({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "http://c:4318/v1/traces" })).toEqual({
    metrics: "none",
    traces: "otlp",
  });
  expect(telemetryWanted({ OTEL_METRICS_EXPORTER: "prometheus", OTEL_SDK_DISABLED: "true" })).toBeNull();
  expect(telemetryWanted({ OTEL_METRICS_EXPORTER: "none", OTEL_TRACES_EXPORTER: "none" })).toBeNull();
});

type Env = Record<string, string>;
async function cli(args: string[], env: Env): Promise<string> {
  const p = Bun.spawn(["bun", "src/main.ts", ...args], {
    cwd: repo,
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: work, ...env },
    stdout: "pipe",
    stderr: "pipe",
  });
  const [out, err, code] = await Promise.all([
    new Response(p.stdout).text(),
    new Response(p.stderr).text(),
    p.exited,
  ]);
  if (code !== 0) throw new Error(`svc ${args.join(" ")}: ${err}`);
  return out;
}

describeEachDialect("telemetry", (dialect) => {
  const spans: DecodedSpan[] = [];
  const hooks: string[] = [];
  let receiver: ReturnType<typeof Bun.serve>;
  let webhook: ReturnType<typeof Bun.serve>;
  let svc: ReturnType<typeof Bun.spawn>;
  let stderr = "";
  let base: string;
  let metricsUrl: string;
  let key: string;
  let env: Env;

  beforeAll(async () => {
    receiver = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      async fetch(req) {
        // OTLP/HTTP with protobuf bodies (the default protocol), as a collector receives them.
        expect(req.headers.get("content-type")).toBe("application/x-protobuf");
        spans.push(...decodeSpans(new Uint8Array(await req.arrayBuffer())));
        return new Response(null, { status: 200 });
      },
    });
    webhook = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      async fetch(req) {
        hooks.push(await req.text());
        return new Response("ok");
      },
    });
    const db =
      dialect === "sqlite"
        ? `sqlite:${join(work, `otel-${Date.now()}.db`)}`
        : (await freshDatabase("postgres", { migrated: false })).url;
    env = { SVC_DATABASE_URL: db, SVC_DATA_DIR: work, SVC_LOG_LEVEL: "info" };
    env.SVC_MASTER_KEYS = (await cli(["admin", "keys", "generate", "--id", "otel"], env)).trim();
    await cli(["migrate"], env);
    await cli(["admin", "bootstrap", "--email", "otel@example.com", "--org", "Otel", "--brand", "Otel"], env);
    key = (await cli(["admin", "apikeys", "create", "--org", "Otel", "--name", "otel"], env)).trim();

    const port = free();
    const promPort = free();
    base = `http://127.0.0.1:${port}`;
    metricsUrl = `http://127.0.0.1:${promPort}/metrics`;
    svc = Bun.spawn(["bun", "src/main.ts", "all"], {
      cwd: repo,
      env: {
        PATH: process.env.PATH ?? "/usr/bin:/bin",
        HOME: work,
        ...env,
        SVC_LISTEN: `127.0.0.1:${port}`,
        SVC_BASE_URL: base,
        SVC_ALLOW_PRIVATE_WEBHOOKS: "true",
        OTEL_METRICS_EXPORTER: "prometheus",
        OTEL_EXPORTER_PROMETHEUS_HOST: "127.0.0.1",
        OTEL_EXPORTER_PROMETHEUS_PORT: String(promPort),
        OTEL_TRACES_EXPORTER: "otlp",
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `http://127.0.0.1:${receiver.port}/v1/traces`,
        OTEL_BSP_SCHEDULE_DELAY: "100",
      },
      stdout: "ignore",
      stderr: "pipe",
    });
    void (async () => {
      for await (const chunk of svc.stderr as ReadableStream<Uint8Array>)
        stderr += new TextDecoder().decode(chunk);
    })();
    for (let i = 0; i < 200; i++) {
      const r = await fetch(`${base}/readyz`).catch(() => null);
      if (r?.ok) break;
      await Bun.sleep(50);
    }
  }, 120_000);

  afterAll(async () => {
    svc?.kill();
    await svc?.exited;
    receiver?.stop(true);
    webhook?.stop(true);
  });

  test("a publish, a webhook delivery and requests show up as the specification's metrics and spans", async () => {
    const auth = { authorization: `Bearer ${key}`, "content-type": "application/json" };
    const channels = (await (await fetch(`${base}/v1/channels`, { headers: auth })).json()) as {
      data: { id: string; brand: string }[];
    };
    const { id: channel, brand } = channels.data[0]!;
    const hook = await fetch(`${base}/v1/webhook_endpoints`, {
      method: "POST",
      headers: auth,
      body: JSON.stringify({
        url: `http://127.0.0.1:${webhook.port}/hook`,
        enabled_events: ["post.published"],
      }),
    });
    expect(hook.status).toBe(201);
    const incoming = "0af7651916cd43dd8448eb211c80319c";
    const created = await fetch(`${base}/v1/posts`, {
      method: "POST",
      headers: { ...auth, traceparent: `00-${incoming}-b7ad6b7169203331-01` },
      body: JSON.stringify({ brand, channels: [channel], content: { body: "Secret launch text 7d1c" } }),
    });
    expect(created.status).toBe(201);
    const post = (await created.json()) as { id: string };
    let status = "";
    for (let i = 0; i < 200 && status !== "published"; i++) {
      await Bun.sleep(50);
      status = (
        (await (await fetch(`${base}/v1/posts/${post.id}`, { headers: auth })).json()) as { status: string }
      ).status;
    }
    expect(status).toBe("published");
    for (let i = 0; i < 100 && hooks.length === 0; i++) await Bun.sleep(50);
    expect(hooks.length).toBe(1);

    // Metrics: linted by Prometheus' own tool, then parsed.
    let text = "";
    for (let i = 0; i < 50; i++) {
      text = await (await fetch(metricsUrl)).text();
      if (text.includes("svc_webhook_delivery_attempts_total")) break;
      await Bun.sleep(100);
    }
    const lint = Bun.spawnSync(["promtool", "check", "metrics"], { stdin: new TextEncoder().encode(text) });
    expect(lint.stdout.toString() + lint.stderr.toString()).toBe("");
    const families = parsePrometheusTextFormat(text) as {
      name: string;
      type: string;
      metrics: { labels?: Record<string, string>; value?: string; buckets?: Record<string, string> }[];
    }[];
    const family = (name: string) => families.find((f) => f.name === name);
    const labelKeys = (name: string) => [
      ...new Set(
        family(name)!.metrics.map((m) =>
          Object.keys(m.labels ?? {})
            .sort()
            .join(","),
        ),
      ),
    ];

    expect(family("svc_post_targets")!.type).toBe("GAUGE");
    expect(family("svc_post_targets")!.metrics).toHaveLength(14); // every status in both modes, zeros included
    expect(labelKeys("svc_post_targets")).toEqual(["mode,status"]);
    const published = family("svc_post_targets")!.metrics.find(
      (m) => m.labels!.status === "published" && m.labels!.mode === "test",
    );
    expect(Number(published!.value)).toBe(1);
    for (const name of ["svc_post_targets_due", "svc_post_targets_oldest_due_age_seconds"]) {
      expect(labelKeys(name)).toEqual(["mode"]);
      expect(family(name)!.metrics).toHaveLength(2);
    }
    expect(labelKeys("svc_task_consecutive_failures")).toEqual(["task"]);
    expect(family("svc_task_consecutive_failures")!.metrics.map((m) => m.labels!.task)).toContain(
      "publish.reclaim",
    );

    const attempts = family("svc_publish_attempts_total")!;
    expect(attempts.type).toBe("COUNTER");
    expect(attempts.metrics).toEqual([
      {
        labels: { provider: "sandbox", mode: "test", outcome: "published", error_kind: "none" },
        value: "1",
      },
    ]);
    expect(family("svc_webhook_delivery_attempts_total")!.metrics).toEqual([
      { labels: { mode: "test", outcome: "succeeded" }, value: "1" },
    ]);
    const lateness = family("svc_publish_lateness_seconds")!;
    expect(lateness.type).toBe("HISTOGRAM");
    // (The parser keeps a histogram's buckets but not its labels: those are read from the text.)
    expect(text).toMatch(/^svc_publish_lateness_seconds_count\{provider="sandbox",mode="test"\} 1$/m);
    expect(Object.keys(lateness.metrics[0]!.buckets!)).toEqual([
      "1",
      "2",
      "5",
      "10",
      "30",
      "60",
      "120",
      "300",
      "600",
      "1800",
      "3600",
      "+Inf",
    ]);
    // No ID and no text anywhere in the exposition.
    expect(text).not.toMatch(/(post|chan|org|brand|evt|whep)_[0-9a-z]{10,}/);
    expect(text).not.toContain("Secret launch text");

    // Spans: named by route pattern, each request its own trace, no IDs, text or URLs in attributes.
    const expected = [
      "POST /v1/posts",
      "GET /v1/posts/:id",
      "GET /v1/channels",
      "publish",
      "webhook.deliver",
    ];
    // Spans leave in batches (every 100 ms here): wait for the last of them.
    for (let i = 0; i < 100 && !expected.every((n) => spans.some((s) => s.name === n)); i++)
      await Bun.sleep(50);
    const names = new Set(spans.map((s) => s.name));
    for (const name of expected) {
      expect(names.has(name) ? name : `missing ${name}`).toBe(name);
    }
    expect(spans.some((s) => s.traceId === incoming)).toBe(false);
    const postSpan = spans.find((s) => s.name === "POST /v1/posts")!;
    expect(postSpan.attributes).toEqual({
      "http.request.method": "POST",
      "http.route": "/v1/posts",
      "http.response.status_code": 201,
    });
    expect(postSpan.resource["service.name"]).toBe("svc");
    const publish = spans.find((s) => s.name === "publish")!;
    expect(publish.attributes).toEqual({
      provider: "sandbox",
      mode: "test",
      attempt: 1,
      outcome: "published",
    });
    const everything = JSON.stringify(spans);
    expect(everything).not.toMatch(/(post|chan|org|brand|evt|whep)_[0-9a-z]{10,}/);
    expect(everything).not.toContain("Secret launch text");
    expect(everything).not.toContain("127.0.0.1");
  }, 90_000);
});

test("without OTEL_* variables nothing listens on the metrics port", async () => {
  const db = `sqlite:${join(work, `quiet-${Date.now()}.db`)}`;
  const env: Env = { SVC_DATABASE_URL: db, SVC_DATA_DIR: work };
  env.SVC_MASTER_KEYS = (await cli(["admin", "keys", "generate", "--id", "quiet"], env)).trim();
  const port = free();
  const p = Bun.spawn(["bun", "src/main.ts", "all"], {
    cwd: repo,
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: work, ...env, SVC_LISTEN: `127.0.0.1:${port}` },
    stdout: "ignore",
    stderr: "pipe",
  });
  try {
    for (let i = 0; i < 200; i++) {
      const r = await fetch(`http://127.0.0.1:${port}/readyz`).catch(() => null);
      if (r?.ok) break;
      await Bun.sleep(50);
    }
    expect(await fetch("http://127.0.0.1:9464/metrics").catch(() => "refused")).toBe("refused");
  } finally {
    p.kill();
    await p.exited;
  }
  expect(await new Response(p.stderr as ReadableStream).text()).not.toContain("telemetry started");
}, 60_000);

test("a log line written inside a span carries its trace_id and span_id; outside, none", async () => {
  const spans: DecodedSpan[] = [];
  const receiver = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(req) {
      spans.push(...decodeSpans(new Uint8Array(await req.arrayBuffer())));
      return new Response(null, { status: 200 });
    },
  });
  const env = {
    OTEL_TRACES_EXPORTER: "otlp",
    OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `http://127.0.0.1:${receiver.port}/v1/traces`,
  };
  Object.assign(process.env, env);
  // Only the tracer is asked for, so the App is never read (no gauges without metrics).
  const telemetry = await createTelemetry({} as App, env, { metrics: "none", traces: "otlp" });
  const lines: string[] = [];
  const log = createLogger(
    "info",
    (l) => lines.push(l),
    () => telemetry.logContext(),
  );
  try {
    await telemetry.span("task media.prune", {}, async () => {
      await Bun.sleep(5); // across an await, as a task's work is
      log.info("inside");
    });
    log.info("outside");
  } finally {
    await telemetry.shutdown(); // flushes the span
    receiver.stop(true);
    for (const k of Object.keys(env)) delete process.env[k];
  }
  const [inside, outside] = lines.map((l) => JSON.parse(l) as { trace_id?: string; span_id?: string });
  expect(inside!.trace_id).toMatch(/^[0-9a-f]{32}$/);
  expect(inside!.span_id).toMatch(/^[0-9a-f]{16}$/);
  expect(outside!.trace_id).toBeUndefined();
  const span = spans.find((x) => x.name === "task media.prune");
  expect(span?.traceId).toBe(inside!.trace_id!);
  expect(span?.spanId).toBe(inside!.span_id!);
});
