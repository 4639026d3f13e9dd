// svc members role <user ID or email> --role ROLE
import type { ClientCommand } from "../client/command.ts";
import { printObject } from "../client/printer.ts";
import { UsageError } from "../output.ts";
import { MEMBER_FIELDS, memberId, ROLES } from "./fields.ts";

export const membersRole: ClientCommand = {
  name: "members role",
  summary: "Change a member's role",
  usage: "svc members role <user ID or email> --role ROLE",
  help: `Roles: ${ROLES.join(", ")} (owners are changed in the dashboard)\n\nExample:\n  svc members role ana@example.com --role admin`,
  options: { role: { type: "string" } },
  args: { min: 1, max: 1, names: ["<user ID or email>"] },
  fields: MEMBER_FIELDS,
  async run(ctx) {
    if (!ctx.flags.role) throw new UsageError(`--role is required (${ROLES.join(", ")})`);
    const id = await memberId(ctx, ctx.args[0]!);
    const m = (await ctx.api("POST", `/v1/members/${id}`, { body: { role: ctx.flags.role } })).body;
    await printObject(ctx, m, [
      ["Email", m.email],
      ["Role", m.role],
    ]);
    return 0;
  },
};
