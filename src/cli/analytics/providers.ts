// svc analytics providers: the analytics tools svc reads and the fields each needs to connect.
import type { ClientCommand } from "../client/command.ts";
import type { Item } from "../client/pages.ts";
import { printList } from "../client/printer.ts";

export const analyticsProviders: ClientCommand = {
  name: "analytics providers",
  summary: "List the analytics tools and their connect fields",
  usage: "svc analytics providers",
  fields: ["object", "provider", "name", "livemode", "connect_fields"],
  async run(ctx) {
    const rows: Item[] = (await ctx.api("GET", "/v1/analytics_providers")).body.data;
    await printList(ctx, rows, [
      { header: "PROVIDER", value: (r) => r.provider },
      { header: "NAME", value: (r) => r.name },
      { header: "MODE", value: (r) => (r.livemode ? "live" : "test") },
      {
        header: "FIELDS",
        value: (r) =>
          r.connect_fields
            .map((f: { name: string; optional: boolean }) => (f.optional ? `[${f.name}]` : f.name))
            .join(" "),
      },
    ]);
    return 0;
  },
};
