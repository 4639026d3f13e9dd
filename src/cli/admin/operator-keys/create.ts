import { createOperatorKey } from "../../../domain/identity/auth/operator.ts";
import { type AdminCommand, flags } from "../command.ts";
import { withAdmin } from "../context.ts";

export const operatorKeysCreate: AdminCommand = {
  name: "operator-keys create",
  usage: "svc admin operator-keys create --name NAME   (prints only the key, once)",
  async run(args, io) {
    const f = flags(args, { name: { type: "string" } }, ["name"]);
    await withAdmin(io, async (ctx) => {
      io.out((await createOperatorKey(ctx.app, f.name!)).secret);
    });
  },
};
