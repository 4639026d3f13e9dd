// svc posts mark-published <target-id> [--permalink URL]: the target is on the network (someone saw it there).
import type { ClientCommand } from "../client/command.ts";
import { printAction } from "./action.ts";
import { TARGET_FIELDS } from "./fields.ts";

export const postsMarkPublished: ClientCommand = {
  name: "posts mark-published",
  summary: "Record that a failed or uncertain target is on the network",
  usage: "svc posts mark-published <target-id> [--permalink URL]",
  help: "Flags:\n  --permalink URL   where the post is on the network\n\nThe target ID (ptgt_…) is in 'svc posts get ID'.\n\nExample:\n  svc posts mark-published ptgt_0123456789abcdefghjkmnpqrs --permalink https://bsky.app/profile/acme/post/3k",
  args: { min: 1, max: 1, names: ["<target-id>"] },
  options: { permalink: { type: "string" } },
  fields: TARGET_FIELDS,
  async run(ctx) {
    const body = ctx.flags.permalink === undefined ? {} : { permalink: ctx.flags.permalink };
    const r = await ctx.api("POST", `/v1/post_targets/${encodeURIComponent(ctx.args[0]!)}/mark_published`, {
      body,
    });
    return printAction(ctx, r.body);
  },
};
