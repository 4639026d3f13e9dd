// svc posts get <id>: the post and each channel's target.
import type { ClientCommand } from "../client/command.ts";
import { printObject, when } from "../client/printer.ts";
import { POST_FIELDS, postText } from "./fields.ts";

export const postsGet: ClientCommand = {
  name: "posts get",
  summary: "Show a post and its targets",
  usage: "svc posts get <id>",
  help: "Example:\n  svc posts get post_0123456789abcdefghjkmnpqrs",
  args: { min: 1, max: 1, names: ["<id>"] },
  fields: POST_FIELDS,
  async run(ctx) {
    const p = (await ctx.api("GET", `/v1/posts/${encodeURIComponent(ctx.args[0]!)}`)).body;
    const targets = (p.targets ?? [])
      .map(
        (t: {
          provider: string;
          channel: string;
          status: string;
          permalink: string | null;
          error: { message: string } | null;
        }) =>
          `  ${t.provider} ${t.channel}: ${t.status}${t.permalink ? ` ${t.permalink}` : ""}${t.error ? ` (${t.error.message})` : ""}`,
      )
      .join("\n");
    await printObject(
      ctx,
      p,
      [
        ["ID", p.id],
        ["Status", p.status],
        ["Brand", p.brand],
        ["Mode", p.livemode ? "live" : "test"],
        [
          "When",
          p.publish_at
            ? `${p.publish_at}${ctx.stdoutTty ? ` (${when(ctx, p.publish_at)})` : ""}`
            : "next slot, after approval",
        ],
        ["Template", p.template ? `${p.template}@${p.template_version}` : ""],
        ["Text", postText(p)],
      ],
      targets ? `Targets:\n${targets}` : undefined,
    );
    return 0;
  },
};
