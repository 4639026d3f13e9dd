// svc ads connect: connects an ad account read-only (needs ads:write). Secret fields are read from stdin with
// --secret-stdin NAME rather than given on the command line, where other users of the machine could see them.
import type { ClientCommand } from "../client/command.ts";
import { printObject } from "../client/printer.ts";
import { fieldsOf } from "../insights/flags.ts";
import { AD_ACCOUNT_FIELDS } from "./fields.ts";

export const adsConnect: ClientCommand = {
  name: "ads connect",
  summary: "Connect an ad account (read-only)",
  usage: "svc ads connect --brand BRAND --network NETWORK [--field NAME=VALUE ...] [--secret-stdin NAME]",
  help:
    "Examples:\n  svc ads connect --brand acme --network sandbox --field currency=EUR\n" +
    '  printf %s "$TOKEN" | svc ads connect --live --brand acme --network meta --field ad_account_id=123 --secret-stdin access_token',
  options: {
    brand: { type: "string" },
    network: { type: "string" },
    field: { type: "string", multiple: true },
    "secret-stdin": { type: "string" },
  },
  fields: AD_ACCOUNT_FIELDS,
  async run(ctx) {
    const fields = fieldsOf(ctx.flags.field);
    if (ctx.flags["secret-stdin"]) fields[ctx.flags["secret-stdin"]] = (await Bun.stdin.text()).trim();
    const a = (
      await ctx.api("POST", "/v1/ad_accounts", {
        body: { brand: ctx.flags.brand, network: ctx.flags.network, fields },
      })
    ).body;
    await printObject(ctx, a, [
      ["ID", a.id],
      ["Network", a.network],
      ["Account", `${a.name} (${a.account_id})`],
      ["Currency", a.currency],
      ["Status", a.status],
    ]);
    return 0;
  },
};
