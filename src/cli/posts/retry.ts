// svc posts retry <post-id|target-id>: a target is queued again; a post has each of its failed targets queued
// again, and only those (what was published is never sent twice; an uncertain target is retried only by its own
// ID, after looking at the network).
import type { ClientCommand } from "../client/command.ts";
import { printJson, wantsJson } from "../client/printer.ts";
import { UsageError } from "../output.ts";
import { printAction } from "./action.ts";

export const postsRetry: ClientCommand = {
  name: "posts retry",
  summary: "Queue a post's failed targets (or one target) again",
  usage: "svc posts retry <post-id|target-id>",
  help: `A post ID (post_…) queues each of its failed targets again; a target ID (ptgt_…) queues that one, also when
it needs attention (look at the network first: if it is there, use 'svc posts mark-published' instead).

Examples:
  svc posts retry post_0123456789abcdefghjkmnpqrs
  svc posts retry ptgt_0123456789abcdefghjkmnpqrs`,
  args: { min: 1, max: 1, names: ["<id>"] },
  async run(ctx) {
    const id = ctx.args[0]!;
    if (id.startsWith("ptgt_")) {
      const r = await ctx.api("POST", `/v1/post_targets/${encodeURIComponent(id)}/retry`);
      return printAction(ctx, r.body);
    }
    const post = (await ctx.api("GET", `/v1/posts/${encodeURIComponent(id)}`)).body;
    const failed = (post.targets as { id: string; status: string }[]).filter((t) => t.status === "failed");
    if (failed.length === 0) throw new UsageError(`${post.id} has no failed target (status ${post.status})`);
    const done = [];
    for (const t of failed)
      done.push((await ctx.api("POST", `/v1/post_targets/${encodeURIComponent(t.id)}/retry`)).body);
    if (wantsJson(ctx)) await printJson(ctx, done);
    else for (const t of done) ctx.io.out(`${t.id}\t${t.status}\t${t.provider}`);
    return 0;
  },
};
