// svc ads get <id>
import type { ClientCommand } from "../client/command.ts";
import { printObject } from "../client/printer.ts";
import { AD_ACCOUNT_FIELDS } from "./fields.ts";

export const adsGet: ClientCommand = {
  name: "ads get",
  summary: "Show an ad account",
  usage: "svc ads get <id>",
  args: { min: 1, max: 1, names: ["<id>"] },
  fields: AD_ACCOUNT_FIELDS,
  async run(ctx) {
    const a = (await ctx.api("GET", `/v1/ad_accounts/${encodeURIComponent(ctx.args[0]!)}`)).body;
    await printObject(ctx, a, [
      ["ID", a.id],
      ["Network", a.network],
      ["Account", `${a.name} (${a.account_id})`],
      ["Currency", a.currency],
      ["Status", a.status],
      ["Note", a.status_note],
      ["Read", a.collected_at],
      ["Next read", a.next_collect_at],
    ]);
    return 0;
  },
};
