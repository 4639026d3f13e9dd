// svc ads remove <id>
import type { ClientCommand } from "../client/command.ts";
import { printObject } from "../client/printer.ts";

export const adsRemove: ClientCommand = {
  name: "ads remove",
  summary: "Remove an ad account and the figures read from it",
  usage: "svc ads remove <id>",
  args: { min: 1, max: 1, names: ["<id>"] },
  fields: ["id", "object", "deleted"],
  async run(ctx) {
    const d = (await ctx.api("DELETE", `/v1/ad_accounts/${encodeURIComponent(ctx.args[0]!)}`)).body;
    await printObject(ctx, d, [["Removed", d.id]]);
    return 0;
  },
};
