// How posts did: likes, reposts, replies, quotes and views read back from the networks after publishing.
import * as v from "valibot";
import { rule } from "../../domain/validate.ts";
import { BRAND, described } from "../fields.ts";
import { READ, type Tool } from "../tool.ts";

const DAY = 86_400_000;

export const engagementTools: Tool[] = [
  {
    name: "engagement_summary",
    description:
      "Sum the engagement (likes, reposts, replies, quotes, views where the network reports them) of posts " +
      "published in the last `days` (1-365, default 30), grouped by `post`, `channel` or `template` (default " +
      "post), most engaging first; optionally of one `brand`. Counts are read 1 h, 6 h, 1 d, 3 d, 7 d and 30 d " +
      "after publishing, so recent posts are still growing; networks that report nothing count zero. Use it to " +
      "find what worked before writing the next post. Needs posts:read.",
    annotations: { title: "Engagement summary", ...READ },
    input: v.strictObject({
      brand: described(v.optional(v.string()), `${BRAND} Without it, every brand.`),
      group_by: described(
        v.optional(v.string()),
        "How to group the sums: post (default), channel or template.",
        {
          enum: ["post", "channel", "template"],
        },
      ),
      days: described(
        v.optional(
          v.pipe(
            v.number(),
            v.integer(rule("window_invalid", "days is a whole number from 1 to 365.")),
            v.minValue(1, rule("window_invalid", "days is a whole number from 1 to 365.")),
            v.maxValue(365, rule("window_invalid", "days is a whole number from 1 to 365.")),
          ),
        ),
        "How many days back from now, 1 to 365 (default 30).",
      ),
    }),
    run: (api, a: { brand?: string; group_by?: string; days?: number }) => {
      const until = Date.now();
      const since = until - (a.days ?? 30) * DAY;
      return api({
        method: "GET",
        path: "/v1/engagement/summary",
        query: {
          brand: a.brand,
          group_by: a.group_by ?? "post",
          since: new Date(since).toISOString(),
          until: new Date(until).toISOString(),
        },
      });
    },
  },
];
