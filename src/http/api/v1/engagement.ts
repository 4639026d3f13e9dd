import { engagementSummary, GROUP_BY, listTargetEngagement } from "../../../domain/engagement/service.ts";
import { nstr, ntime, obj, str } from "../../openapi-schemas.ts";
import type { RouteDef } from "../../route.ts";

export const engagementRoutes: RouteDef[] = [
  {
    method: "GET",
    path: "/v1/post_targets/:id/engagement",
    tag: "Engagement",
    summary: "A published target's engagement readings, oldest first",
    scope: "posts:read",
    response: "EngagementReadingList",
    handler: ({ app, actor, params }) => listTargetEngagement(app, actor, params.id!),
  },
  {
    method: "GET",
    path: "/v1/engagement/summary",
    tag: "Engagement",
    summary:
      "Engagement of targets published between since and until (default the last 30 days, at most a year apart), grouped by post, channel or template, most engaging first",
    scope: "posts:read",
    query: ["group_by", "brand", "since", "until"],
    response: "EngagementSummary",
    handler: ({ app, actor, query }) => engagementSummary(app, actor, query),
  },
];

const int = { type: "integer" };
const nint = { type: ["integer", "null"] };
const counts = { likes: int, reposts: int, replies: int, quotes: int, views: nint, total: int };

export const engagementSchemas: Record<string, unknown> = {
  Engagement: obj({
    ...counts,
    state: { enum: ["collecting", "done", "deleted", "unsupported"] },
    read_at: ntime,
    next_read_at: ntime,
  }),
  EngagementReading: obj({
    object: { const: "engagement_reading" },
    ...counts,
    read_at: { type: "string", format: "date-time" },
  }),
  EngagementSummary: obj({
    object: { const: "engagement_summary" },
    group_by: { enum: [...GROUP_BY] },
    brand: nstr,
    since: { type: "string", format: "date-time" },
    until: { type: "string", format: "date-time" },
    data: {
      type: "array",
      items: {
        type: "object",
        description:
          "One group: its key under the group_by name (post, channel or template), brand, targets and summed counts",
        properties: { brand: str, targets: int, ...counts, read_at: ntime },
      },
    },
  }),
};
