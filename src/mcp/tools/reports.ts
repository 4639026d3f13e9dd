// One brand's report: what its posts brought in a month (or a window) beside the period before.
import * as v from "valibot";
import { BRAND, described } from "../fields.ts";
import { READ, type Tool } from "../tool.ts";

export const reportTools: Tool[] = [
  {
    name: "brand_report",
    description:
      "One brand's report for a calendar `month` (YYYY-MM in the brand's time zone; default the last whole " +
      "month) or a `since`/`until` window (dates or RFC 3339 times, at most a year apart), beside the previous " +
      "period of the same length: posts published per network, engagement (likes, reposts, replies, quotes, " +
      "views, per day and per network), the top posts, and the ads, web analytics and newsletter figures this " +
      "install has. Each figure is {value, previous}; a section is null when it is empty or this key may not see " +
      "it. Use it to tell a client how the month went. Needs brands:read (posts:read for the post sections).",
    annotations: { title: "Brand report", ...READ },
    input: v.strictObject({
      brand: described(v.string(), BRAND),
      month: described(v.optional(v.string()), "The month, YYYY-MM (default the last whole month).", {
        pattern: "^\\d{4}-\\d{2}$",
      }),
      since: described(
        v.optional(v.string()),
        "Start of a window instead of a month: YYYY-MM-DD or RFC 3339.",
      ),
      until: described(
        v.optional(v.string()),
        "End of the window: YYYY-MM-DD (that day included) or RFC 3339.",
      ),
    }),
    run: (api, a: { brand: string; month?: string; since?: string; until?: string }) =>
      api({
        method: "GET",
        path: "/v1/reports",
        query: { brand: a.brand, month: a.month, since: a.since, until: a.until },
      }),
  },
];
