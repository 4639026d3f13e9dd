// svc ads summary: spend, impressions and clicks grouped by brand, account, campaign or day (and currency).
import type { ClientCommand } from "../client/command.ts";
import type { Item } from "../client/pages.ts";
import { printJson, printList, wantsJson } from "../client/printer.ts";
import { money, WINDOW_HELP } from "../insights/flags.ts";

export const adsSummary: ClientCommand = {
  name: "ads summary",
  summary: "Sum ad spend by brand, account, campaign or day",
  usage:
    "svc ads summary [--group-by campaign|account|brand|day] [--brand BRAND] [--account ID] [--since DATE] [--until DATE]",
  help: `Flags:\n  --group-by G      brand, account, campaign (default) or day\n${WINDOW_HELP}`,
  options: {
    "group-by": { type: "string" },
    brand: { type: "string" },
    account: { type: "string" },
    since: { type: "string" },
    until: { type: "string" },
  },
  fields: ["object", "group_by", "brand", "account", "since", "until", "data", "totals"],
  async run(ctx) {
    const by = ctx.flags["group-by"] ?? "campaign";
    const s = (
      await ctx.api("GET", "/v1/ads/summary", {
        query: {
          group_by: by,
          brand: ctx.flags.brand,
          account: ctx.flags.account,
          since: ctx.flags.since,
          until: ctx.flags.until,
        },
      })
    ).body;
    if (wantsJson(ctx)) return (await printJson(ctx, s), 0);
    await printList(ctx, s.data as Item[], [
      {
        header: by.toUpperCase(),
        value: (r) => (by === "campaign" ? `${r.campaign_name} (${r.campaign})` : r[by]),
        max: 50,
      },
      { header: "SPEND", value: (r) => money(r.spend, r.currency) },
      { header: "IMPRESSIONS", value: (r) => String(r.impressions) },
      { header: "CLICKS", value: (r) => String(r.clicks) },
    ]);
    return 0;
  },
};
