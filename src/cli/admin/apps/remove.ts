import { removeInstallApp } from "../../../domain/apps/install.ts";
import { type AdminCommand, flags } from "../command.ts";
import { withAdmin } from "../context.ts";

export const appsRemove: AdminCommand = {
  name: "apps remove",
  usage: "svc admin apps remove --app APP_ID   (its channels keep working until their token needs renewal)",
  async run(args, io) {
    const f = flags(args, { app: { type: "string" } }, ["app"]);
    await withAdmin(io, async (ctx) => {
      await removeInstallApp(ctx.app, "apps remove", f.app!);
      io.out(`Removed ${f.app}.`);
    });
  },
};
