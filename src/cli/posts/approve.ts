// svc posts approve <id> [--note TEXT]
import type { ClientCommand } from "../client/command.ts";
import { printAction } from "./action.ts";
import { POST_FIELDS } from "./fields.ts";

export const postsApprove: ClientCommand = {
  name: "posts approve",
  summary: "Approve a post waiting for approval (it takes its slot)",
  usage: "svc posts approve <id> [--note TEXT]",
  help: 'Flags:\n  --note TEXT   a note kept with the review (at most 500 characters)\n\nExample:\n  svc posts approve post_0123456789abcdefghjkmnpqrs --note "Good to go"',
  args: { min: 1, max: 1, names: ["<id>"] },
  options: { note: { type: "string" } },
  fields: POST_FIELDS,
  async run(ctx) {
    const body = ctx.flags.note === undefined ? {} : { note: ctx.flags.note };
    const r = await ctx.api("POST", `/v1/posts/${encodeURIComponent(ctx.args[0]!)}/approve`, { body });
    return printAction(ctx, r.body);
  },
};
