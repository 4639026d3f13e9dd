// svc posts reject <id> [--note TEXT]
import type { ClientCommand } from "../client/command.ts";
import { printAction } from "./action.ts";
import { POST_FIELDS } from "./fields.ts";

export const postsReject: ClientCommand = {
  name: "posts reject",
  summary: "Reject a post waiting for approval",
  usage: "svc posts reject <id> [--note TEXT]",
  help: 'Flags:\n  --note TEXT   why (at most 500 characters), kept with the review\n\nExample:\n  svc posts reject post_0123456789abcdefghjkmnpqrs --note "Wrong price"',
  args: { min: 1, max: 1, names: ["<id>"] },
  options: { note: { type: "string" } },
  fields: POST_FIELDS,
  async run(ctx) {
    const body = ctx.flags.note === undefined ? {} : { note: ctx.flags.note };
    const r = await ctx.api("POST", `/v1/posts/${encodeURIComponent(ctx.args[0]!)}/reject`, { body });
    return printAction(ctx, r.body);
  },
};
