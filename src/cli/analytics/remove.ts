// svc analytics remove <id>
import type { ClientCommand } from "../client/command.ts";
import { printObject } from "../client/printer.ts";

export const analyticsRemove: ClientCommand = {
  name: "analytics remove",
  summary: "Remove an analytics source and the counts read from it",
  usage: "svc analytics remove <id>",
  args: { min: 1, max: 1, names: ["<id>"] },
  fields: ["id", "object", "deleted"],
  async run(ctx) {
    const d = (await ctx.api("DELETE", `/v1/analytics_sources/${encodeURIComponent(ctx.args[0]!)}`)).body;
    await printObject(ctx, d, [["Removed", d.id]]);
    return 0;
  },
};
