// svc analytics connect: connects a brand's analytics tool with the goals to count (needs brands:write). Secret
// fields are read from stdin with --secret-stdin NAME rather than given on the command line.
import type { ClientCommand } from "../client/command.ts";
import { printObject } from "../client/printer.ts";
import { fieldsOf } from "../insights/flags.ts";
import { ANALYTICS_SOURCE_FIELDS } from "./fields.ts";

export const analyticsConnect: ClientCommand = {
  name: "analytics connect",
  summary: "Connect an analytics tool with goals",
  usage:
    "svc analytics connect --brand BRAND --provider PROVIDER [--goal NAME ...] [--field NAME=VALUE ...] [--secret-stdin NAME]",
  help:
    "Examples:\n  svc analytics connect --brand acme --provider sandbox --goal Signup\n" +
    '  printf %s "$KEY" | svc analytics connect --live --brand acme --provider plausible --field site_id=acme.com --goal Signup --secret-stdin api_key',
  options: {
    brand: { type: "string" },
    provider: { type: "string" },
    goal: { type: "string", multiple: true },
    field: { type: "string", multiple: true },
    "secret-stdin": { type: "string" },
  },
  fields: ANALYTICS_SOURCE_FIELDS,
  async run(ctx) {
    const fields = fieldsOf(ctx.flags.field);
    if (ctx.flags["secret-stdin"]) fields[ctx.flags["secret-stdin"]] = (await Bun.stdin.text()).trim();
    const s = (
      await ctx.api("POST", "/v1/analytics_sources", {
        body: { brand: ctx.flags.brand, provider: ctx.flags.provider, goals: ctx.flags.goal ?? [], fields },
      })
    ).body;
    await printObject(ctx, s, [
      ["ID", s.id],
      ["Provider", s.provider],
      ["Site", s.site],
      ["Goals", s.goals.join(", ")],
      ["Status", s.status],
    ]);
    return 0;
  },
};
