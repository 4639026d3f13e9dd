import { revokeOperatorKey } from "../../../domain/identity/auth/operator.ts";
import { ServiceError } from "../../../lib/errors.ts";
import { type AdminCommand, flags } from "../command.ts";
import { withAdmin } from "../context.ts";

export const operatorKeysRevoke: AdminCommand = {
  name: "operator-keys revoke",
  usage: "svc admin operator-keys revoke --key OPKEY_ID",
  async run(args, io) {
    const f = flags(args, { key: { type: "string" } }, ["key"]);
    await withAdmin(io, async (ctx) => {
      if (!(await revokeOperatorKey(ctx.app, f.key!)))
        throw new ServiceError(404, "resource_missing", `No active operator key ${f.key}.`, { param: "key" });
      io.out(`Revoked ${f.key}.`);
    });
  },
};
