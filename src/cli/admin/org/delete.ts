import { deleteOrg } from "../../../domain/operator/delete.ts";
import { type AdminCommand, flags } from "../command.ts";
import { withAdmin } from "../context.ts";

export const orgDelete: AdminCommand = {
  name: "org delete",
  usage: "svc admin org delete --org NAME --confirm NAME   (removes the org and everything in it for good)",
  async run(args, io) {
    const f = flags(args, { org: { type: "string" }, confirm: { type: "string" } }, ["org", "confirm"]);
    await withAdmin(io, async (ctx) => {
      const r = await deleteOrg(ctx.app, await ctx.actorIn(f.org, "org delete"), f.confirm);
      io.out(`Deleted org ${r.id}.`);
    });
  },
};
