import { listOperatorKeys } from "../../../domain/identity/auth/operator.ts";
import { type AdminCommand, flags } from "../command.ts";
import { withAdmin } from "../context.ts";

export const operatorKeysList: AdminCommand = {
  name: "operator-keys list",
  usage: "svc admin operator-keys list",
  async run(args, io) {
    flags(args, {});
    await withAdmin(io, async (ctx) => {
      for (const k of await listOperatorKeys(ctx.app))
        io.out([k.id, k.name, `…${k.hint}`, k.revoked_at ? `revoked ${k.revoked_at}` : "active"].join("\t"));
    });
  },
};
