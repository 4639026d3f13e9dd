import { connectAnalyticsSource } from "../../../domain/analytics/connect.ts";
import { getAnalyticsSource } from "../../../domain/analytics/get.ts";
import { listAnalyticsSources } from "../../../domain/analytics/list.ts";
import { listAnalyticsProviders } from "../../../domain/analytics/list-providers.ts";
import { removeAnalyticsSource } from "../../../domain/analytics/remove.ts";
import { ANALYTICS_GROUP_BY, AnalyticsSourceCreate } from "../../../domain/analytics/schema.ts";
import { analyticsSummary } from "../../../domain/analytics/summary.ts";
import { bool, nstr, ntime, obj, str, time } from "../../openapi-schemas.ts";
import { type RouteDef, reply } from "../../route.ts";

export const analyticsRoutes: RouteDef[] = [
  {
    method: "GET",
    path: "/v1/analytics_providers",
    tag: "Analytics",
    summary: "List the web-analytics tools svc reads, with their mode and connect fields",
    scope: "brands:read",
    response: "AnalyticsProviderList",
    handler: async ({ actor }) => listAnalyticsProviders(actor),
  },
  {
    method: "GET",
    path: "/v1/analytics_sources",
    tag: "Analytics",
    summary: "List analytics sources in the caller's mode, optionally of one brand",
    scope: "brands:read",
    query: ["brand"],
    list: true,
    response: "AnalyticsSourceList",
    handler: ({ app, actor, query }) => listAnalyticsSources(app, actor, query),
  },
  {
    method: "POST",
    path: "/v1/analytics_sources",
    tag: "Analytics",
    summary:
      "Connect a brand's analytics tool with the goals to count (at most 20, names at most 120 characters)",
    scope: "brands:write",
    body: AnalyticsSourceCreate,
    response: "AnalyticsSource",
    status: 201,
    handler: async ({ app, actor, body }) => reply(201, await connectAnalyticsSource(app, actor, body)),
  },
  {
    method: "GET",
    path: "/v1/analytics_sources/:id",
    tag: "Analytics",
    summary: "Get an analytics source",
    scope: "brands:read",
    response: "AnalyticsSource",
    handler: ({ app, actor, params }) => getAnalyticsSource(app, actor, params.id!),
  },
  {
    method: "DELETE",
    path: "/v1/analytics_sources/:id",
    tag: "Analytics",
    summary: "Remove an analytics source with the counts read from it",
    scope: "brands:write",
    response: "Deleted",
    handler: ({ app, actor, params }) => removeAnalyticsSource(app, actor, params.id!),
  },
  {
    method: "GET",
    path: "/v1/analytics/summary",
    tag: "Analytics",
    summary:
      "Visitors and goal conversions between since and until (dates; default the last 30 days, at most a year), grouped by post, source, medium, campaign, content or day; visits without tags are `untagged`",
    scope: "brands:read",
    query: ["group_by", "brand", "since", "until"],
    response: "AnalyticsSummary",
    handler: ({ app, actor, query }) => analyticsSummary(app, actor, query),
  },
];

const int = { type: "integer" };
const date = { type: "string", format: "date" };
const counts = {
  visitors: int,
  conversions: { type: "object", additionalProperties: int, description: "Conversions per goal name" },
  conversions_total: int,
};

export const analyticsSchemas: Record<string, unknown> = {
  AnalyticsProvider: obj({
    object: { const: "analytics_provider" },
    provider: str,
    name: str,
    livemode: bool,
    connect_fields: {
      type: "array",
      items: obj({ name: str, label: str, help: str, secret: bool, optional: bool, default: nstr }),
    },
  }),
  AnalyticsSource: obj({
    id: str,
    object: { const: "analytics_source" },
    brand: str,
    livemode: bool,
    provider: str,
    site: str,
    name: str,
    goals: { type: "array", items: str },
    settings: { type: "object", additionalProperties: str },
    status: { enum: ["active", "needs_reauth"] },
    status_note: nstr,
    collected_at: ntime,
    next_collect_at: ntime,
    created_at: time,
  }),
  AnalyticsSummary: obj({
    object: { const: "analytics_summary" },
    group_by: { enum: [...ANALYTICS_GROUP_BY] },
    brand: nstr,
    since: date,
    until: date,
    data: {
      type: "array",
      items: {
        type: "object",
        description:
          "One group: its key under the group_by name (a post ID or `untagged`, a UTM value or `untagged`, a day), visitors, conversions per goal and their total",
        properties: counts,
        required: Object.keys(counts),
      },
    },
    totals: obj(counts),
  }),
};
