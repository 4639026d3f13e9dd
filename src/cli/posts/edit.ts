// svc posts edit <id>: change what a draft, scheduled or pending post says or where it goes before it is
// published; only the flags given change. --schedule turns a draft into a scheduled post (checked then like a new
// post), --draft takes a post back to a draft.
import type { ClientCommand } from "../client/command.ts";
import { UsageError } from "../output.ts";
import { printAction } from "./action.ts";
import { POST_FIELDS } from "./fields.ts";
import { type At, INPUT_HELP, INPUT_OPTIONS, inputFromFlags, parseAt, resolveAt } from "./input.ts";
import { attachMedia, discardUploads } from "./media.ts";

export const postsEdit: ClientCommand = {
  name: "posts edit",
  summary: "Edit a post before it is published (or schedule a draft)",
  usage:
    "svc posts edit <id> [--body TEXT | --body-file FILE|- | --template KEY[@N] --data JSON] [--channels IDS] [--media IDS|FILES] [--no-media] [--fit NETWORK=MODE] [--at WHEN] [--by TIME] [--schedule | --draft]",
  help: `Only what is given changes; the post is checked again against every rule.
Flags:
${INPUT_HELP.split("\n")
  .filter((l) => !l.startsWith("  --brand"))
  .join("\n")}
  --no-media           remove the post's media
  --at WHEN            a new time (same forms as for create)
  --by TIME            a new deadline
  --schedule           schedule a draft (at --at, else the time it was saved with, else now)
  --draft              take a scheduled or pending post back to a draft

A post with a publish attempt can no longer be edited (post_not_editable): cancel it instead.

Examples:
  svc posts edit post_0123456789abcdefghjkmnpqrs --body "We shipped 2.1"
  svc posts edit post_0123456789abcdefghjkmnpqrs --schedule --at "2026-12-01 09:00"`,
  args: { min: 1, max: 1, names: ["<id>"] },
  options: {
    ...INPUT_OPTIONS,
    "no-media": { type: "boolean" },
    at: { type: "string" },
    by: { type: "string" },
    schedule: { type: "boolean" },
    draft: { type: "boolean" },
  },
  fields: POST_FIELDS,
  async run(ctx) {
    const id = ctx.args[0]!;
    if (ctx.flags.brand !== undefined) throw new UsageError("a post's brand cannot change");
    if (ctx.flags.schedule && ctx.flags.draft) throw new UsageError("give --schedule or --draft, not both");
    if (ctx.flags["no-media"] && ctx.flags.media !== undefined)
      throw new UsageError("give --media or --no-media, not both");
    const given = await inputFromFlags(ctx);
    const at: At | undefined = ctx.flags.at !== undefined ? parseAt(ctx.flags.at) : undefined;
    const by: At | undefined = ctx.flags.by !== undefined ? parseAt(ctx.flags.by, "--by") : undefined;
    if (by === "now" || by === "next_slot") throw new UsageError("--by must be a time");
    const { attach = [], ...changes } = given;
    const body: Record<string, unknown> = { ...changes };
    if (ctx.flags["no-media"]) body.media = [];
    if (ctx.flags.schedule) body.draft = false;
    if (ctx.flags.draft) body.draft = true;
    const needsBrand = attach.length > 0 || typeof at === "object" || typeof by === "object";
    const brand = needsBrand ? (await ctx.api("GET", `/v1/posts/${encodeURIComponent(id)}`)).body.brand : "";
    const {
      values: [publish_at, publish_by],
    } = await resolveAt(ctx, brand, [
      { flag: "--at", at },
      { flag: "--by", at: by },
    ]);
    if (publish_at) body.publish_at = publish_at;
    if (publish_by) body.publish_by = publish_by;
    if (Object.keys(body).length === 0 && attach.length === 0)
      throw new UsageError(
        "nothing to change: give --body, --template, --channels, --media, --at, --schedule …",
      );
    const uploaded: string[] = [];
    let done = false;
    try {
      if (attach.length) body.media = await attachMedia(ctx, brand, attach, uploaded);
      const r = await ctx.api("POST", `/v1/posts/${encodeURIComponent(id)}`, { body });
      done = true;
      return await printAction(ctx, r.body);
    } finally {
      if (!done) await discardUploads(ctx, uploaded, true);
    }
  },
};
