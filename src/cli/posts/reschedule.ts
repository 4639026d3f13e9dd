// svc posts reschedule <id> (--at WHEN [--by TIME] | --swap-with ID): a draft given a time is scheduled.
import type { ClientCommand } from "../client/command.ts";
import { UsageError } from "../output.ts";
import { printAction } from "./action.ts";
import { POST_FIELDS } from "./fields.ts";
import { AT_FORMS, type At, parseAt, resolveAt } from "./input.ts";

export const postsReschedule: ClientCommand = {
  name: "posts reschedule",
  summary: "Move a post (or schedule a draft), or swap times with another post",
  usage: "svc posts reschedule <id> (--at WHEN [--by TIME] | --swap-with ID)",
  help: `Flags:
  --at WHEN        ${AT_FORMS}
  --by TIME        a new deadline (same forms as --at)
  --swap-with ID   trade times, deadlines and slots with another post of the same brand

Examples:
  svc posts reschedule post_0123456789abcdefghjkmnpqrs --at "2026-12-01 09:00"
  svc posts reschedule post_0123456789abcdefghjkmnpqrs --swap-with post_0123456789abcdefghjkmnpqrt`,
  args: { min: 1, max: 1, names: ["<id>"] },
  options: { at: { type: "string" }, by: { type: "string" }, "swap-with": { type: "string" } },
  fields: POST_FIELDS,
  async run(ctx) {
    const id = ctx.args[0]!;
    const swap = ctx.flags["swap-with"] as string | undefined;
    const at: At | undefined = ctx.flags.at !== undefined ? parseAt(ctx.flags.at) : undefined;
    const by: At | undefined = ctx.flags.by !== undefined ? parseAt(ctx.flags.by, "--by") : undefined;
    if (swap !== undefined && (at !== undefined || by !== undefined))
      throw new UsageError("give --at (and --by) or --swap-with, not both");
    if (swap === undefined && at === undefined && by === undefined)
      throw new UsageError("give --at, --by or --swap-with");
    if (by === "now" || by === "next_slot") throw new UsageError("--by must be a time");
    let body: Record<string, string>;
    if (swap !== undefined) body = { swap_with: swap };
    else {
      // A wall-clock time is read in the post's brand's zone.
      const brand =
        typeof at === "object" || typeof by === "object"
          ? (await ctx.api("GET", `/v1/posts/${encodeURIComponent(id)}`)).body.brand
          : "";
      const {
        values: [publish_at, publish_by],
      } = await resolveAt(ctx, brand, [
        { flag: "--at", at },
        { flag: "--by", at: by },
      ]);
      body = {
        ...(publish_at ? { publish_at } : {}),
        ...(publish_by ? { publish_by } : {}),
      };
    }
    const r = await ctx.api("POST", `/v1/posts/${encodeURIComponent(id)}/reschedule`, { body });
    return printAction(ctx, r.body);
  },
};
