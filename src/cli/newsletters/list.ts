// svc newsletters list: the issues of the credential's mode, newest first.
import type { ClientCommand } from "../client/command.ts";
import { listItems } from "../client/pages.ts";
import { printList } from "../client/printer.ts";
import { NEWSLETTER_FIELDS } from "./fields.ts";

export const newslettersList: ClientCommand = {
  name: "newsletters list",
  summary: "List newsletter issues",
  usage: "svc newsletters list [--brand BRAND] [--status STATUS]",
  help:
    "Statuses: draft, pending_approval, scheduled, sending, sent, partially_sent, canceled, failed.\n" +
    "Examples:\n  svc newsletters list --brand acme --status scheduled\n  svc newsletters list --json id,subject",
  options: { brand: { type: "string" }, status: { type: "string" } },
  fields: NEWSLETTER_FIELDS,
  async run(ctx) {
    const rows = await listItems(ctx, "/v1/newsletters", {
      brand: ctx.flags.brand,
      status: ctx.flags.status,
    });
    await printList(ctx, rows, [
      { header: "STATUS", value: (r) => r.status },
      { header: "SEND AT", value: (r) => r.send_at ?? "" },
      { header: "SUBJECT", value: (r) => r.subject, max: 60 },
      { header: "DELIVERIES", value: (r) => String(r.deliveries.length) },
      { header: "ID", value: (r) => r.id },
    ]);
    return 0;
  },
};
