// The Helm chart (deploy/helm/svc). Helm cannot be installed here, so a small renderer built from Debian's Go and
// sprig packages (test/ops/helm-render) renders the templates as `helm template` would; every object it produces is
// checked against Kubernetes' published schemas (kubernetes-models) and the Prometheus operator's
// (@kubernetes-models/prometheus-operator), the values against values.schema.json as Helm checks them, and the four
// alerts with `promtool test rules` on series that must fire and series that must not.
import { beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PodMonitor, PrometheusRule } from "@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1";
import Ajv from "ajv";
import { Deployment } from "kubernetes-models/apps/v1";
import { Job } from "kubernetes-models/batch/v1";
import { PodDisruptionBudget } from "kubernetes-models/policy/v1";
import { Service, ServiceAccount } from "kubernetes-models/v1";
import { parse, parseAllDocuments, stringify } from "yaml";

const root = join(import.meta.dir, "../..");
const chart = join(root, "deploy/helm/svc");
const work = mkdtempSync(join(tmpdir(), "svc-chart-"));
const renderer = join(work, "helm-render");

const MODELS: Record<string, { validate(): void } & (new (o: never) => { validate(): void })> = {
  Deployment: Deployment as never,
  Service: Service as never,
  ServiceAccount: ServiceAccount as never,
  Job: Job as never,
  PodDisruptionBudget: PodDisruptionBudget as never,
  PodMonitor: PodMonitor as never,
  PrometheusRule: PrometheusRule as never,
};

const valuesSchema = JSON.parse(readFileSync(join(chart, "values.schema.json"), "utf8"));
const defaults = parse(readFileSync(join(chart, "values.yaml"), "utf8"));
const checkValues = new Ajv({ strict: false, allErrors: true }).compile(valuesSchema);

type Obj = { kind: string; metadata: { name: string; annotations?: Record<string, string> }; spec: any };

function merge(a: any, b: any): any {
  if (!b || typeof b !== "object" || Array.isArray(b)) return b;
  const out = { ...a };
  for (const [k, v] of Object.entries(b)) out[k] = merge(a?.[k], v);
  return out;
}

/** `helm template rel . -n apps -f <overrides>`: the objects, each validated against its published schema. */
function render(overrides: object): Obj[] {
  const values = merge(defaults, overrides);
  if (!checkValues(values)) throw new Error(`values.schema.json: ${JSON.stringify(checkValues.errors)}`);
  const p = Bun.spawnSync([renderer, chart, "rel", "apps"], {
    stdin: new TextEncoder().encode(stringify(overrides)),
  });
  if (p.exitCode !== 0) throw new Error(p.stderr.toString());
  const objects = parseAllDocuments(p.stdout.toString())
    .map((d) => d.toJS() as Obj | null)
    .filter((o): o is Obj => o !== null);
  for (const o of objects) {
    const Model = MODELS[o.kind];
    if (!Model) throw new Error(`no schema for ${o.kind}`);
    new Model(o as never).validate(); // throws with the schema's complaint
  }
  return objects;
}

const base = { baseUrl: "https://svc.example.org", existingSecret: "svc-env" };
const find = (objs: Obj[], kind: string, name?: string) =>
  objs.filter((o) => o.kind === kind && (name === undefined || o.metadata.name === name));
const env = (d: Obj) =>
  Object.fromEntries(
    (d.spec.template.spec.containers[0].env as { name: string; value: string }[]).map((e) => [
      e.name,
      e.value,
    ]),
  );

beforeAll(() => {
  const build = Bun.spawnSync(["go", "build", "-o", renderer, "."], {
    cwd: join(import.meta.dir, "helm-render"),
    env: { ...process.env, GO111MODULE: "off", GOPATH: "/usr/share/gocode", GOCACHE: join(work, "go-cache") },
  });
  if (build.exitCode !== 0) throw new Error(`renderer: ${build.stderr.toString()}`);
}, 120_000);

describe("values", () => {
  test("the base URL and the existing secret are required, by the schema and by the templates", () => {
    expect(checkValues(defaults)).toBe(false);
    expect(checkValues.errors!.map((e) => e.instancePath)).toEqual(expect.arrayContaining(["/baseUrl"]));
    const p = Bun.spawnSync([renderer, chart, "rel", "apps"], { stdin: new TextEncoder().encode("{}") });
    expect(p.exitCode).toBe(1);
    expect(p.stderr.toString()).toContain("baseUrl is required");
  });

  test("the published schemas refuse a malformed object (so the checks in render() are not vacuous)", () => {
    const bad = {
      apiVersion: "apps/v1",
      kind: "Deployment",
      metadata: { name: "x" },
      spec: { replicas: "two" },
    };
    expect(() => new Deployment(bad as never).validate()).toThrow();
  });

  test("unknown values and bad thresholds are refused", () => {
    expect(checkValues(merge(defaults, { ...base, metrics: { enabeld: true } }))).toBe(false);
    const ratio = { metrics: { prometheusRule: { alerts: { publishFailing: { minFailureRatio: 2 } } } } };
    expect(checkValues(merge(defaults, { ...base, ...ratio }))).toBe(false);
    expect(
      checkValues(merge(defaults, { ...base, transit: { enabled: true, addr: "vault:8200", key: "k" } })),
    ).toBe(false);
  });
});

describe("the default install", () => {
  let objs: Obj[];
  beforeAll(() => {
    objs = render(base);
  });

  test("server and worker run as separate Deployments from one secret, migrated by a hook job", () => {
    const server = find(objs, "Deployment", "rel-server")[0]!;
    const worker = find(objs, "Deployment", "rel-worker")[0]!;
    expect(server.spec.template.spec.containers[0].args).toEqual(["server"]);
    expect(worker.spec.template.spec.containers[0].args).toEqual(["worker"]);
    for (const d of [server, worker]) {
      expect(env(d).SVC_BASE_URL).toBe("https://svc.example.org");
      expect(env(d).SVC_AUTO_MIGRATE).toBe("false");
      expect(d.spec.template.spec.containers[0].envFrom).toEqual([{ secretRef: { name: "svc-env" } }]);
      expect(d.spec.template.spec.containers[0].securityContext.readOnlyRootFilesystem).toBe(true);
    }
    const job = find(objs, "Job", "rel-migrate")[0]!;
    expect(job.spec.template.spec.containers[0].args).toEqual(["migrate"]);
    expect(job.metadata.annotations!["helm.sh/hook"]).toBe("pre-install,pre-upgrade");
  });

  test("a disruption budget for the role with more than one replica only", () => {
    expect(find(objs, "PodDisruptionBudget").map((o) => o.metadata.name)).toEqual(["rel-server"]);
    const two = render({ ...base, worker: { replicas: 3 } });
    expect(find(two, "PodDisruptionBudget").map((o) => o.metadata.name)).toEqual([
      "rel-server",
      "rel-worker",
    ]);
  });

  test("no metrics, monitors or rules unless asked", () => {
    expect(find(objs, "PodMonitor")).toEqual([]);
    expect(find(objs, "PrometheusRule")).toEqual([]);
    expect(JSON.stringify(objs)).not.toContain("OTEL_");
  });

  test("migrations.job=false: no job, the pods migrate at start", () => {
    const o = render({ ...base, migrations: { job: false } });
    expect(find(o, "Job")).toEqual([]);
    expect(env(find(o, "Deployment", "rel-server")[0]!).SVC_AUTO_MIGRATE).toBe("true");
  });
});

describe("metrics", () => {
  let objs: Obj[];
  beforeAll(() => {
    objs = render({
      ...base,
      metrics: { enabled: true, podMonitor: { enabled: true }, prometheusRule: { enabled: true } },
    });
  });

  test("the exporter listens on its own port on both roles; the Service never exposes it", () => {
    for (const d of find(objs, "Deployment")) {
      expect(env(d).OTEL_METRICS_EXPORTER).toBe("prometheus");
      expect(env(d).OTEL_EXPORTER_PROMETHEUS_PORT).toBe("9464");
      expect(d.spec.template.spec.containers[0].ports).toContainEqual({
        name: "metrics",
        containerPort: 9464,
      });
    }
    const svc = find(objs, "Service")[0]!;
    expect(svc.spec.ports.map((p: { name: string }) => p.name)).toEqual(["http"]);
    expect(find(objs, "PodMonitor")[0]!.spec.podMetricsEndpoints[0].port).toBe("metrics");
  });

  test("four alerts with the specification's expressions; each can be turned off or retuned", () => {
    const rules = find(objs, "PrometheusRule")[0]!.spec.groups[0].rules as { alert: string; expr: string }[];
    expect(rules.map((r) => r.alert)).toEqual([
      "SvcPostNeedsAttention",
      "SvcPublishFailing",
      "SvcPublishingStalled",
      "SvcBackgroundTaskFailing",
    ]);
    expect(rules[0]!.expr).toBe('max(svc_post_targets{mode="live",status="needs_attention"}) > 0');
    const tuned = render({
      ...base,
      metrics: {
        enabled: true,
        prometheusRule: {
          enabled: true,
          alerts: { taskFailing: { enabled: false }, publishingStalled: { oldestDueSeconds: 1800 } },
        },
      },
    });
    const r2 = find(tuned, "PrometheusRule")[0]!.spec.groups[0].rules as { alert: string; expr: string }[];
    expect(r2.map((r) => r.alert)).not.toContain("SvcBackgroundTaskFailing");
    expect(r2.find((r) => r.alert === "SvcPublishingStalled")!.expr).toContain("> 1800");
  });

  test("promtool: each alert fires on the series it is for, and not on the others", () => {
    const group = find(objs, "PrometheusRule")[0]!.spec.groups;
    writeFileSync(join(work, "rules.yaml"), stringify({ groups: group }));
    writeFileSync(join(work, "rules.test.yaml"), readFileSync(join(import.meta.dir, "alerts.test.yaml")));
    const check = Bun.spawnSync(["promtool", "check", "rules", join(work, "rules.yaml")]);
    expect(check.stdout.toString() + check.stderr.toString()).toContain("SUCCESS: 4 rules found");
    const run = Bun.spawnSync(["promtool", "test", "rules", "rules.test.yaml"], { cwd: work });
    const out = run.stdout.toString() + run.stderr.toString();
    expect(out).toContain("SUCCESS");
    expect(run.exitCode).toBe(0);
  });
});

test("Transit with a role: each pod logs in with a projected service-account token for the role's audience", () => {
  const objs = render({
    ...base,
    transit: {
      enabled: true,
      addr: "https://vault.example.org:8200",
      key: "svc",
      role: "svc",
      audience: "vault",
    },
  });
  for (const d of [...find(objs, "Deployment"), ...find(objs, "Job")]) {
    const pod = d.spec.template.spec;
    const projected = pod.volumes.find((v: { name: string }) => v.name === "transit-token").projected;
    expect(projected.sources[0].serviceAccountToken.audience).toBe("vault");
    expect(env(d)).toMatchObject({
      SVC_TRANSIT_ADDR: "https://vault.example.org:8200",
      SVC_TRANSIT_KEY: "svc",
      SVC_TRANSIT_ROLE: "svc",
      SVC_TRANSIT_JWT_FILE: "/var/run/secrets/svc/transit/token",
    });
    expect(pod.containers[0].volumeMounts).toContainEqual({
      name: "transit-token",
      mountPath: "/var/run/secrets/svc/transit",
      readOnly: true,
    });
  }
});
