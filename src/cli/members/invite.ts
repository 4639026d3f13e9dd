// svc members invite --email --role [--no-email]: creates an invitation and prints its link (sent by email too
// unless --no-email).
import type { ClientCommand } from "../client/command.ts";
import { printJson, wantsJson } from "../client/printer.ts";
import { UsageError } from "../output.ts";
import { ROLES } from "./fields.ts";

export const membersInvite: ClientCommand = {
  name: "members invite",
  summary: "Invite someone to the org; prints the invitation link",
  usage: "svc members invite --email EMAIL --role ROLE [--no-email]",
  help: `Flags:
  --role ROLE   ${ROLES.join(", ")}
  --no-email    do not email the invitation (share the printed link yourself)

Example:
  svc members invite --email ana@example.com --role editor --no-email`,
  options: { email: { type: "string" }, role: { type: "string" }, "no-email": { type: "boolean" } },
  fields: ["id", "email", "role", "expires_at", "url", "emailed"],
  async run(ctx) {
    const { email, role } = ctx.flags;
    if (!email) throw new UsageError("--email is required");
    if (!role) throw new UsageError(`--role is required (${ROLES.join(", ")})`);
    const inv = (
      await ctx.api("POST", "/v1/invitations", { body: { email, role, send_email: !ctx.flags["no-email"] } })
    ).body;
    if (wantsJson(ctx)) await printJson(ctx, inv);
    else {
      ctx.io.out(inv.url);
      ctx.io.err(
        `${ctx.c.green("✓")} Invited ${inv.email} as ${inv.role}${inv.emailed ? " (emailed)" : ""}; the link expires ${inv.expires_at}`,
      );
    }
    return 0;
  },
};
