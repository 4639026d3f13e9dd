// svc posts cancel <id>
import type { ClientCommand } from "../client/command.ts";
import { printObject } from "../client/printer.ts";
import { POST_FIELDS } from "./fields.ts";

export const postsCancel: ClientCommand = {
  name: "posts cancel",
  summary: "Cancel a post that has not been published",
  usage: "svc posts cancel <id>",
  help: "Example:\n  svc posts cancel post_0123456789abcdefghjkmnpqrs",
  args: { min: 1, max: 1, names: ["<id>"] },
  fields: POST_FIELDS,
  async run(ctx) {
    const p = (await ctx.api("POST", `/v1/posts/${encodeURIComponent(ctx.args[0]!)}/cancel`)).body;
    await printObject(ctx, p, [
      ["ID", p.id],
      ["Status", p.status],
    ]);
    return 0;
  },
};
