import { updateOrg } from "../../../domain/orgs/service.ts";
import { UsageError } from "../../output.ts";
import { type AdminCommand, flags } from "../command.ts";
import { withAdmin } from "../context.ts";

export const orgUpdate: AdminCommand = {
  name: "org update",
  usage: "svc admin org update [--org ORG] [--name NAME] [--require-mfa true|false]",
  async run(args, io) {
    const f = flags(args, {
      org: { type: "string" },
      name: { type: "string" },
      "require-mfa": { type: "string" },
    });
    const mfa = f["require-mfa"];
    if (mfa !== undefined && mfa !== "true" && mfa !== "false")
      throw new UsageError("--require-mfa takes true or false");
    await withAdmin(io, async (ctx) => {
      const o = await updateOrg(ctx.app, await ctx.actorIn(f.org, "org update"), {
        ...(f.name !== undefined ? { name: f.name } : {}),
        ...(mfa !== undefined ? { require_mfa: mfa === "true" } : {}),
      });
      io.out(`${o.name} (${o.id}): two-factor ${o.require_mfa ? "required" : "optional"}.`);
    });
  },
};
