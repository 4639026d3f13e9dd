// svc analytics get <id>
import type { ClientCommand } from "../client/command.ts";
import { printObject } from "../client/printer.ts";
import { ANALYTICS_SOURCE_FIELDS } from "./fields.ts";

export const analyticsGet: ClientCommand = {
  name: "analytics get",
  summary: "Show an analytics source",
  usage: "svc analytics get <id>",
  args: { min: 1, max: 1, names: ["<id>"] },
  fields: ANALYTICS_SOURCE_FIELDS,
  async run(ctx) {
    const s = (await ctx.api("GET", `/v1/analytics_sources/${encodeURIComponent(ctx.args[0]!)}`)).body;
    await printObject(ctx, s, [
      ["ID", s.id],
      ["Provider", s.provider],
      ["Site", s.site],
      ["Goals", s.goals.join(", ")],
      ["Status", s.status],
      ["Note", s.status_note],
      ["Read", s.collected_at],
      ["Next read", s.next_collect_at],
    ]);
    return 0;
  },
};
