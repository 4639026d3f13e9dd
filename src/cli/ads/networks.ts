// svc ads networks: the ad networks svc reads and the fields each needs to connect.
import type { ClientCommand } from "../client/command.ts";
import type { Item } from "../client/pages.ts";
import { printList } from "../client/printer.ts";

export const adsNetworks: ClientCommand = {
  name: "ads networks",
  summary: "List the ad networks and their connect fields",
  usage: "svc ads networks",
  fields: ["object", "network", "name", "livemode", "connect_fields"],
  async run(ctx) {
    const rows: Item[] = (await ctx.api("GET", "/v1/ad_networks")).body.data;
    await printList(ctx, rows, [
      { header: "NETWORK", value: (r) => r.network },
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
