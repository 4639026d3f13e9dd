// svc posts delete-published <id>: removes a published post from each network that allows it; one line per
// target (ID, result, network, the network's words when it failed). Exits 1 when any deletion failed.
import type { ClientCommand } from "../client/command.ts";
import { printJson, wantsJson } from "../client/printer.ts";

export const postsDeletePublished: ClientCommand = {
  name: "posts delete-published",
  summary: "Delete a published post from the networks",
  usage: "svc posts delete-published <id>",
  help: `Each target reads deleted, delete_failed (with the network's words) or delete_unsupported (the network, or a
target marked published by hand, cannot be deleted by svc). Asking again deletes nothing twice.

Example:
  svc posts delete-published post_0123456789abcdefghjkmnpqrs`,
  args: { min: 1, max: 1, names: ["<id>"] },
  async run(ctx) {
    const r = await ctx.api("POST", `/v1/posts/${encodeURIComponent(ctx.args[0]!)}/delete_published`);
    const results = r.body.results as {
      target: string;
      result: string;
      provider: string;
      message: string | null;
    }[];
    if (wantsJson(ctx)) await printJson(ctx, r.body);
    else
      for (const x of results)
        ctx.io.out([x.target, x.result, x.provider, ...(x.message ? [x.message] : [])].join("\t"));
    return results.some((x) => x.result === "delete_failed") ? 1 : 0;
  },
};
