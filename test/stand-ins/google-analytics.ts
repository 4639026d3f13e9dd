// Google Analytics 4's Data API v1beta (developers.google.com/analytics/devguides/reporting/data/v1) and Google's
// OAuth token endpoint for it. `POST /v1beta/properties/{id}:runReport` bodies are checked against the Discovery
// document's RunReportRequest and every answer against RunReportResponse (api-specs/google-analytics/
// analyticsdata-v1beta.json, its schemas turned into JSON Schema here, in memory, with unknown properties
// refused). The token endpoint (developers.google.com/identity/protocols/oauth2/web-server#offline: refresh_token
// grant, `invalid_grant` when revoked) has no description and follows that page. Errors are Google's
// `{error: {code, message, status}}`.
import { join } from "node:path";
import Ajv from "ajv";
import { type Answer, type StandIn, startStandIn } from "./server.ts";
import { specsDir } from "./spec.ts";

export interface GaDay {
  date: string;
  source: string;
  medium: string;
  campaign: string;
  content: string;
  activeUsers: number;
  /** eventCount per event name. */
  events?: Record<string, number>;
}

export interface GaStandIn extends StandIn {
  /** property ID → its rows and the access tokens allowed on it. */
  properties: Map<string, GaDay[]>;
  /** refresh token → client ID; revoke by deleting. */
  grants: Map<string, string>;
}

type Json = Record<string, unknown>;

/** A Discovery schema as JSON Schema: $ref to definitions, objects closed. */
function toJsonSchema(s: Json): Json {
  if (typeof s.$ref === "string") return { $ref: `#/definitions/${s.$ref}` };
  const out: Json = {};
  // Discovery writes "any" for a value of any type; JSON Schema leaves the type out.
  if (s.type && s.type !== "any") out.type = s.type;
  if (s.enum) out.enum = s.enum;
  if (s.items) out.items = toJsonSchema(s.items as Json);
  if (s.properties) {
    out.properties = Object.fromEntries(
      Object.entries(s.properties as Record<string, Json>).map(([k, v]) => [k, toJsonSchema(v)]),
    );
    out.additionalProperties = false;
  }
  if (s.additionalProperties) out.additionalProperties = toJsonSchema(s.additionalProperties as Json);
  return out;
}

const googleError = (code: number, status: string, message: string): Answer => ({
  status: code,
  body: { error: { code, message, status } },
});

export async function startGoogleAnalytics(): Promise<GaStandIn> {
  const dir = specsDir();
  if (!dir) throw new Error("the GA4 stand-in needs ../shared/api-specs");
  const doc = JSON.parse(await Bun.file(join(dir, "google-analytics", "analyticsdata-v1beta.json")).text());
  const definitions = Object.fromEntries(
    Object.entries(doc.schemas as Record<string, Json>).map(([k, v]) => [k, toJsonSchema(v)]),
  );
  const ajv = new Ajv({ strict: false, allErrors: true, logger: false });
  const request = ajv.compile({ $ref: "#/definitions/RunReportRequest", definitions });
  const response = ajv.compile({ $ref: "#/definitions/RunReportResponse", definitions });
  const describe = (errs: typeof request.errors) =>
    (errs ?? []).map((e) => `${e.instancePath || "/"} ${e.message}`);
  const properties = new Map<string, GaDay[]>();
  const grants = new Map<string, string>();
  const tokens = new Map<string, string>(); // access token → refresh token
  let s: StandIn;

  s = startStandIn({
    spec: null,
    route(path) {
      if (path === "/token")
        return { path, unchecked: "Google's token endpoint has no description; it follows the OAuth page" };
      const m = /^\/v1beta\/properties\/(\d+):runReport$/.exec(path);
      return m ? { path, params: { property: m[1]! } } : null;
    },
    handle(req, params) {
      if (req.path === "/token") {
        const b = req.body as Record<string, string>;
        if (b.grant_type !== "refresh_token")
          return { status: 400, body: { error: "unsupported_grant_type" } };
        if (!b.refresh_token || grants.get(b.refresh_token) !== b.client_id || !b.client_secret)
          return {
            status: 400,
            body: { error: "invalid_grant", error_description: "Token has been expired or revoked." },
          };
        const access = `ya29.${crypto.randomUUID()}`;
        tokens.set(access, b.refresh_token);
        return {
          status: 200,
          body: {
            access_token: access,
            expires_in: 3599,
            scope: "https://www.googleapis.com/auth/analytics.readonly",
            token_type: "Bearer",
          },
        };
      }
      if (!request(req.body)) {
        const problems = describe(request.errors);
        s.problems.push(...problems.map((p) => `request runReport: ${p}`));
        return googleError(400, "INVALID_ARGUMENT", `Invalid JSON payload received. ${problems[0]}`);
      }
      const token = req.headers.authorization?.replace(/^Bearer /, "") ?? "";
      const refresh = tokens.get(token);
      if (!refresh || !grants.has(refresh))
        return googleError(
          401,
          "UNAUTHENTICATED",
          "Request had invalid authentication credentials. Expected OAuth 2 access token.",
        );
      const rows = properties.get(params.property!);
      if (!rows)
        return googleError(
          403,
          "PERMISSION_DENIED",
          "User does not have sufficient permissions for this property.",
        );
      const b = req.body as {
        dateRanges: { startDate: string; endDate: string }[];
        dimensions?: { name: string }[];
        metrics: { name: string }[];
        dimensionFilter?: { filter?: { fieldName: string; inListFilter?: { values: string[] } } };
        limit?: string;
        offset?: string;
      };
      const range = b.dateRanges[0]!;
      const relative = (d: string) => (/^\d{4}-\d{2}-\d{2}$/.test(d) ? d.replaceAll("-", "") : null);
      const from = relative(range.startDate) ?? "00000000";
      const to = relative(range.endDate) ?? "99999999";
      const dims = (b.dimensions ?? []).map((d) => d.name);
      const metric = b.metrics[0]!.name;
      const allowed = b.dimensionFilter?.filter?.inListFilter?.values;
      const value = (r: GaDay, name: string, event: string | null) =>
        ({
          date: r.date,
          sessionSource: r.source || "(direct)",
          sessionMedium: r.medium || "(none)",
          sessionCampaignName: r.campaign || "(not set)",
          sessionManualAdContent: r.content || "(not set)",
          eventName: event ?? "",
        })[name] ?? "";
      const out: Json[] = [];
      for (const r of rows) {
        if (r.date < from || r.date > to) continue;
        const entries: [string | null, number][] =
          metric === "eventCount"
            ? Object.entries(r.events ?? {}).filter(([e]) => !allowed || allowed.includes(e))
            : [[null, r.activeUsers]];
        for (const [event, n] of entries)
          out.push({
            dimensionValues: dims.map((d) => ({ value: value(r, d, event) })),
            metricValues: [{ value: String(n) }],
          });
      }
      const offset = Number(b.offset ?? 0);
      const limit = Number(b.limit ?? 10000);
      const body: Json = {
        dimensionHeaders: dims.map((name) => ({ name })),
        metricHeaders: [{ name: metric, type: "TYPE_INTEGER" }],
        rows: out.slice(offset, offset + limit),
        rowCount: out.length,
        metadata: { currencyCode: "USD", timeZone: "Etc/UTC" },
        kind: "analyticsData#runReport",
      };
      if (!response(body)) s.problems.push(...describe(response.errors).map((p) => `answer runReport: ${p}`));
      return { status: 200, body };
    },
    invalid: (problems) => googleError(400, "INVALID_ARGUMENT", problems[0] ?? "invalid"),
    failsOn: (req) => req.path !== "/token",
    failure(kind) {
      if (kind === "rate_limited")
        return googleError(429, "RESOURCE_EXHAUSTED", "Exhausted property tokens per day for this property.");
      if (kind === "revoked")
        return googleError(401, "UNAUTHENTICATED", "Request had invalid authentication credentials.");
      return googleError(503, "UNAVAILABLE", "The service is currently unavailable.");
    },
  });
  return Object.assign(s, { properties, grants });
}
