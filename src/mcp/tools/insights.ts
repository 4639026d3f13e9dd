// What ads cost and what visits they and the posts brought: the ad and web-analytics summaries.
import * as v from "valibot";
import { rule } from "../../domain/validate.ts";
import { BRAND, described } from "../fields.ts";
import { READ, type Tool } from "../tool.ts";

const DAY = 86_400_000;
const days = described(
  v.optional(
    v.pipe(
      v.number(),
      v.integer(rule("window_invalid", "days is a whole number from 1 to 365.")),
      v.minValue(1, rule("window_invalid", "days is a whole number from 1 to 365.")),
      v.maxValue(365, rule("window_invalid", "days is a whole number from 1 to 365.")),
    ),
  ),
  "How many days back from today, 1 to 365 (default 30), today included.",
);
/** The window as the summaries take it: whole UTC days ending today. */
const window = (n: number | undefined) => {
  const until = Date.now();
  return {
    since: new Date(until - ((n ?? 30) - 1) * DAY).toISOString().slice(0, 10),
    until: new Date(until).toISOString().slice(0, 10),
  };
};

export const insightTools: Tool[] = [
  {
    name: "ads_summary",
    description:
      "Sum ad spend, impressions and clicks of the connected ad accounts over the last `days` (1-365, default " +
      "30), grouped by `brand`, `account`, `campaign` (default) or `day`, and always by currency. Spend is in the " +
      "currency's minor unit (cents): 1234 USD is $12.34. Figures of the last days may still be corrected by the " +
      "network and are re-read daily. Optionally of one `brand`. Needs ads:read.",
    annotations: { title: "Ad spend summary", ...READ },
    input: v.strictObject({
      brand: described(v.optional(v.string()), `${BRAND} Without it, every brand.`),
      group_by: described(
        v.optional(v.string()),
        "How to group: brand, account, campaign (default) or day.",
        {
          enum: ["brand", "account", "campaign", "day"],
        },
      ),
      days,
    }),
    run: (api, a: { brand?: string; group_by?: string; days?: number }) =>
      api({
        method: "GET",
        path: "/v1/ads/summary",
        query: { brand: a.brand, group_by: a.group_by ?? "campaign", ...window(a.days) },
      }),
  },
  {
    name: "analytics_summary",
    description:
      "Sum visitors and goal conversions read from the brand's own web analytics over the last `days` (1-365, " +
      "default 30), grouped by `post` (default: from the UTM tags svc puts on its links, utm_content = post ID), " +
      "`source`, `medium`, `campaign`, `content` or `day`. Visits without tags are the group `untagged`. " +
      "Visitors are summed daily visitors. Use it to see which posts brought visits and signups. Needs brands:read.",
    annotations: { title: "Web analytics summary", ...READ },
    input: v.strictObject({
      brand: described(v.optional(v.string()), `${BRAND} Without it, every brand.`),
      group_by: described(
        v.optional(v.string()),
        "How to group: post (default), source, medium, campaign, content or day.",
        { enum: ["post", "source", "medium", "campaign", "content", "day"] },
      ),
      days,
    }),
    run: (api, a: { brand?: string; group_by?: string; days?: number }) =>
      api({
        method: "GET",
        path: "/v1/analytics/summary",
        query: { brand: a.brand, group_by: a.group_by ?? "post", ...window(a.days) },
      }),
  },
];
