// svc analytics summary: visitors and goal conversions grouped by post, source, medium, campaign, content or day.
import type { ClientCommand } from "../client/command.ts";
import type { Item } from "../client/pages.ts";
import { printJson, printList, wantsJson } from "../client/printer.ts";
import { WINDOW_HELP } from "../insights/flags.ts";

export const analyticsSummary: ClientCommand = {
  name: "analytics summary",
  summary: "Sum visitors and goal conversions by post, source, medium, campaign, content or day",
  usage:
    "svc analytics summary [--group-by post|source|medium|campaign|content|day] [--brand BRAND] [--since DATE] [--until DATE]",
  help: `Flags:\n  --group-by G      post (default), source, medium, campaign, content or day\n${WINDOW_HELP}`,
  options: {
    "group-by": { type: "string" },
    brand: { type: "string" },
    since: { type: "string" },
    until: { type: "string" },
  },
  fields: ["object", "group_by", "brand", "since", "until", "data", "totals"],
  async run(ctx) {
    const by = ctx.flags["group-by"] ?? "post";
    const s = (
      await ctx.api("GET", "/v1/analytics/summary", {
        query: { group_by: by, brand: ctx.flags.brand, since: ctx.flags.since, until: ctx.flags.until },
      })
    ).body;
    if (wantsJson(ctx)) return (await printJson(ctx, s), 0);
    await printList(ctx, s.data as Item[], [
      { header: by.toUpperCase(), value: (r) => r[by], max: 50 },
      { header: "VISITORS", value: (r) => String(r.visitors) },
      { header: "CONVERSIONS", value: (r) => String(r.conversions_total) },
    ]);
    return 0;
  },
};
