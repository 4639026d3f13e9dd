// svc ads list: the ad accounts of the credential's mode.
import type { ClientCommand } from "../client/command.ts";
import { listItems } from "../client/pages.ts";
import { printList, when } from "../client/printer.ts";
import { AD_ACCOUNT_FIELDS } from "./fields.ts";

export const adsList: ClientCommand = {
  name: "ads list",
  summary: "List connected ad accounts",
  usage: "svc ads list [--brand BRAND]",
  options: { brand: { type: "string" } },
  fields: AD_ACCOUNT_FIELDS,
  async run(ctx) {
    const rows = await listItems(ctx, "/v1/ad_accounts", { brand: ctx.flags.brand });
    await printList(ctx, rows, [
      { header: "ID", value: (r) => r.id },
      { header: "NETWORK", value: (r) => r.network },
      { header: "NAME", value: (r) => r.name, max: 40 },
      { header: "CURRENCY", value: (r) => r.currency },
      {
        header: "STATUS",
        value: (r) => r.status,
        style: (s) => (s === "active" ? ctx.c.green(s) : ctx.c.yellow(s)),
      },
      { header: "READ", value: (r) => when(ctx, r.collected_at) },
    ]);
    return 0;
  },
};
