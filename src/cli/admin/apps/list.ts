import { listInstallApps } from "../../../domain/apps/install.ts";
import { type AdminCommand, flags } from "../command.ts";
import { withAdmin } from "../context.ts";

export const appsList: AdminCommand = {
  name: "apps list",
  usage: "svc admin apps list   (ID, provider, name, client ID, redirect URI; tab-separated)",
  async run(args, io) {
    flags(args, {});
    await withAdmin(io, async (ctx) => {
      for (const a of await listInstallApps(ctx.app))
        io.out([a.id, a.provider, a.name, a.client_id, a.redirect_uri].join("\t"));
    });
  },
};
