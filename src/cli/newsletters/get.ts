// svc newsletters get <id>: an issue and its deliveries.
import type { ClientCommand } from "../client/command.ts";
import { printObject } from "../client/printer.ts";
import { NEWSLETTER_FIELDS } from "./fields.ts";

interface Delivery {
  mail_account: string;
  provider: string;
  audiences: string[];
  status: string;
  error: string | null;
}

export const newslettersGet: ClientCommand = {
  name: "newsletters get",
  summary: "Show a newsletter issue and its deliveries",
  usage: "svc newsletters get <id>",
  help: "Example:\n  svc newsletters get nl_0123456789abcdefghjkmnpqrs",
  args: { min: 1, max: 1, names: ["<id>"] },
  fields: NEWSLETTER_FIELDS,
  async run(ctx) {
    const n = (await ctx.api("GET", `/v1/newsletters/${encodeURIComponent(ctx.args[0]!)}`)).body;
    const deliveries = (n.deliveries as Delivery[])
      .map(
        (d) =>
          `${d.mail_account} (${d.provider}) ${d.status} → ${d.audiences.join(", ")}${d.error ? `: ${d.error}` : ""}`,
      )
      .join("\n");
    await printObject(ctx, n, [
      ["ID", n.id],
      ["Status", n.status],
      ["Subject", n.subject],
      ["Preview text", n.preview_text],
      ["Send at", n.send_at],
      ["Deliveries", deliveries],
    ]);
    return 0;
  },
};
