import { renameInstallApp } from "../../../domain/apps/install.ts";
import { type AdminCommand, flags } from "../command.ts";
import { withAdmin } from "../context.ts";

export const appsRename: AdminCommand = {
  name: "apps rename",
  usage: "svc admin apps rename --app APP_ID --name NAME",
  async run(args, io) {
    const f = flags(args, { app: { type: "string" }, name: { type: "string" } }, ["app", "name"]);
    await withAdmin(io, async (ctx) => {
      const a = await renameInstallApp(ctx.app, "apps rename", f.app!, { name: f.name });
      io.out(`Renamed ${a.id} to ${a.name}.`);
    });
  },
};
