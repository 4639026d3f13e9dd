// svc review-links withdraw <ID>: the link stops working at once.
import type { ClientCommand } from "../client/command.ts";
import { printJson, wantsJson } from "../client/printer.ts";
import { REVIEW_LINK_FIELDS } from "./fields.ts";

export const reviewLinksWithdraw: ClientCommand = {
  name: "review-links withdraw",
  summary: "Withdraw a client review link",
  usage: "svc review-links withdraw <ID>",
  help: "Example:\n  svc review-links withdraw rvl_01j9...",
  args: { min: 1, max: 1, names: ["<ID>"] },
  fields: REVIEW_LINK_FIELDS.filter((f) => f !== "url"),
  async run(ctx) {
    const id = ctx.args[0]!;
    const link = (await ctx.api("POST", `/v1/review_links/${encodeURIComponent(id)}/withdraw`)).body;
    if (wantsJson(ctx)) await printJson(ctx, link);
    else ctx.io.err(`${ctx.c.green("✓")} Withdrew review link ${link.id} (${link.name})`);
    return 0;
  },
};
