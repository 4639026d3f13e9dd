// Plausible's Stats API v2 (plausible.io/docs/stats-api): `POST /api/v2/query` with a bearer Stats API key. Every
// query is checked against Plausible's own query schema (api-specs/plausible/query-api-schema.json, JSON Schema
// draft-07) before it is answered; a query it refuses is a 400 `{error}` as Plausible answers it. The answer
// shape `{results: [{metrics, dimensions}], meta, query}`, "(none)" for a visit without a tag, 401 for a bad key,
// 400 for an unknown site and 429 for the rate limit follow the same page (Plausible publishes no answer schema).
import { join } from "node:path";
import Ajv from "ajv";
import addFormats from "ajv-formats";
import { type Answer, type StandIn, startStandIn } from "./server.ts";
import { specsDir } from "./spec.ts";

export interface PlausibleVisit {
  day: string;
  source?: string;
  medium?: string;
  campaign?: string;
  content?: string;
  visitors: number;
  /** Conversions per goal name. */
  goals?: Record<string, number>;
}

export interface PlausibleStandIn extends StandIn {
  /** site_id → its API key and daily aggregates. */
  sites: Map<string, { key: string; visits: PlausibleVisit[] }>;
}

const DIMENSION: Record<string, (v: PlausibleVisit) => string> = {
  "time:day": (v) => v.day,
  "visit:utm_source": (v) => v.source || "(none)",
  "visit:utm_medium": (v) => v.medium || "(none)",
  "visit:utm_campaign": (v) => v.campaign || "(none)",
  "visit:utm_content": (v) => v.content || "(none)",
};

export async function startPlausible(): Promise<PlausibleStandIn> {
  const dir = specsDir();
  if (!dir) throw new Error("the Plausible stand-in needs ../shared/api-specs");
  const schema = JSON.parse(await Bun.file(join(dir, "plausible", "query-api-schema.json")).text());
  const ajv = new Ajv({ strict: false, allErrors: true, logger: false });
  addFormats(ajv as never);
  const validate = ajv.compile(schema);
  const sites = new Map<string, { key: string; visits: PlausibleVisit[] }>();
  const err = (status: number, error: string): Answer => ({ status, body: { error } });
  let s: StandIn;

  s = startStandIn({
    spec: null,
    route: (path) => (path === "/api/v2/query" ? { path } : null),
    handle(req) {
      if (req.method !== "POST") return err(404, "Not found");
      if (!validate(req.body)) {
        const problems = (validate.errors ?? []).map((e) => `${e.instancePath || "/"} ${e.message}`);
        s.problems.push(...problems.map((p) => `request POST /api/v2/query: ${p}`));
        return err(400, `#${problems[0]}`);
      }
      const q = req.body as {
        site_id: string;
        metrics: string[];
        date_range: string | [string, string];
        dimensions?: string[];
        filters?: unknown[];
        pagination?: { limit?: number; offset?: number };
      };
      const token = req.headers.authorization?.replace(/^Bearer /, "");
      const site = sites.get(q.site_id);
      if (
        !token ||
        (site && site.key !== token) ||
        (!site && ![...sites.values()].some((x) => x.key === token))
      )
        return err(
          401,
          "Invalid API key or site ID. Please make sure you're using a valid API key with access to the site you've requested.",
        );
      if (!site) return err(400, `Site ${q.site_id} not found`);
      const dims = q.dimensions ?? [];
      const goalFilter = (q.filters ?? []).find((f) => Array.isArray(f) && f[1] === "event:goal") as
        | [string, string, string[]]
        | undefined;
      const [from, to] = Array.isArray(q.date_range) ? q.date_range : ["0000-00-00", "9999-99-99"];
      const groups = new Map<string, { dimensions: string[]; metrics: number[] }>();
      for (const v of site.visits) {
        if (v.day < from || v.day > to) continue;
        const entries: [string | null, number][] =
          dims.includes("event:goal") || goalFilter
            ? Object.entries(v.goals ?? {}).filter(([g]) => !goalFilter || goalFilter[2].includes(g))
            : [[null, v.visitors]];
        for (const [goal, n] of entries) {
          const d = dims.map((name) => (name === "event:goal" ? goal! : DIMENSION[name]!(v)));
          const k = JSON.stringify(d);
          const g = groups.get(k) ?? { dimensions: d, metrics: q.metrics.map(() => 0) };
          g.metrics = g.metrics.map((m) => m + n);
          groups.set(k, g);
        }
      }
      const all = [...groups.values()];
      const offset = q.pagination?.offset ?? 0;
      const results = all.slice(offset, offset + (q.pagination?.limit ?? 10_000));
      return {
        status: 200,
        body: { results, meta: {}, query: { ...q, date_range: [`${from}T00:00:00Z`, `${to}T23:59:59Z`] } },
      };
    },
    invalid: (problems) => err(400, problems[0] ?? "invalid"),
    failure(kind) {
      if (kind === "rate_limited")
        return { ...err(429, "Too many API requests"), headers: { "retry-after": "60" } };
      if (kind === "revoked")
        return err(
          401,
          "Invalid API key or site ID. Please make sure you're using a valid API key with access to the site you've requested.",
        );
      return err(500, "Internal server error");
    },
  });
  return Object.assign(s, { sites });
}
