// svc newsletters preview <id>: the issue as recipients will see it, the text version (--html: the HTML).
import type { ClientCommand } from "../client/command.ts";

export const newslettersPreview: ClientCommand = {
  name: "newsletters preview",
  summary: "Print an issue as recipients will see it (text, or --html)",
  usage: "svc newsletters preview <id> [--html] [--mail-account ID]",
  help: "Examples:\n  svc newsletters preview nl_… \n  svc newsletters preview nl_… --html > issue.html",
  args: { min: 1, max: 1, names: ["<id>"] },
  options: { html: { type: "boolean" }, "mail-account": { type: "string" } },
  async run(ctx) {
    const p = (
      await ctx.api("GET", `/v1/newsletters/${encodeURIComponent(ctx.args[0]!)}/preview`, {
        query: { mail_account: ctx.flags["mail-account"] },
      })
    ).body;
    ctx.io.out(ctx.flags.html ? p.html : p.text);
    return 0;
  },
};
