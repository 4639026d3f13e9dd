// svc analytics list: the analytics sources of the credential's mode.
import type { ClientCommand } from "../client/command.ts";
import { listItems } from "../client/pages.ts";
import { printList, when } from "../client/printer.ts";
import { ANALYTICS_SOURCE_FIELDS } from "./fields.ts";

export const analyticsList: ClientCommand = {
  name: "analytics list",
  summary: "List connected analytics sources",
  usage: "svc analytics list [--brand BRAND]",
  options: { brand: { type: "string" } },
  fields: ANALYTICS_SOURCE_FIELDS,
  async run(ctx) {
    const rows = await listItems(ctx, "/v1/analytics_sources", { brand: ctx.flags.brand });
    await printList(ctx, rows, [
      { header: "ID", value: (r) => r.id },
      { header: "PROVIDER", value: (r) => r.provider },
      { header: "SITE", value: (r) => r.site, max: 40 },
      { header: "GOALS", value: (r) => r.goals.join(", "), max: 40 },
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
