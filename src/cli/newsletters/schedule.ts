// svc newsletters schedule <id> --at TIME and svc newsletters cancel <id>.
import type { ClientCommand } from "../client/command.ts";
import { printObject } from "../client/printer.ts";
import { NEWSLETTER_FIELDS } from "./fields.ts";

export const newslettersSchedule: ClientCommand = {
  name: "newsletters schedule",
  summary: "Schedule a draft issue, or move a scheduled one",
  usage: "svc newsletters schedule <id> --at TIME",
  help: "TIME is RFC 3339, 2 minutes to one year ahead.\nExample:\n  svc newsletters schedule nl_… --at 2026-03-02T09:00:00Z",
  args: { min: 1, max: 1, names: ["<id>"] },
  options: { at: { type: "string" } },
  fields: NEWSLETTER_FIELDS,
  async run(ctx) {
    const n = (
      await ctx.api("POST", `/v1/newsletters/${encodeURIComponent(ctx.args[0]!)}/schedule`, {
        body: { send_at: ctx.flags.at },
      })
    ).body;
    await printObject(ctx, n, [
      ["ID", n.id],
      ["Status", n.status],
      ["Send at", n.send_at],
    ]);
    return 0;
  },
};

export const newslettersCancel: ClientCommand = {
  name: "newsletters cancel",
  summary: "Cancel an issue that is not sent",
  usage: "svc newsletters cancel <id>",
  help: "Example:\n  svc newsletters cancel nl_0123456789abcdefghjkmnpqrs",
  args: { min: 1, max: 1, names: ["<id>"] },
  fields: NEWSLETTER_FIELDS,
  async run(ctx) {
    const n = (await ctx.api("POST", `/v1/newsletters/${encodeURIComponent(ctx.args[0]!)}/cancel`)).body;
    await printObject(ctx, n, [
      ["ID", n.id],
      ["Status", n.status],
    ]);
    return 0;
  },
};
