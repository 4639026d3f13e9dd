// svc members remove <user ID or email>
import type { ClientCommand } from "../client/command.ts";
import { memberId } from "./fields.ts";

export const membersRemove: ClientCommand = {
  name: "members remove",
  summary: "Remove a member from the org",
  usage: "svc members remove <user ID or email>",
  help: "Example:\n  svc members remove ana@example.com",
  args: { min: 1, max: 1, names: ["<user ID or email>"] },
  async run(ctx) {
    const who = ctx.args[0]!;
    const id = await memberId(ctx, who);
    await ctx.api("DELETE", `/v1/members/${id}`);
    ctx.io.err(`${ctx.c.green("✓")} Removed ${who}`);
    return 0;
  },
};
