import { auditOperator } from "../../../domain/audit/service.ts";
import { createUser } from "../../../domain/identity/users/service.ts";
import { inTx } from "../../../domain/tx.ts";
import { type AdminCommand, flags, passwordFromStdin } from "../command.ts";
import { withAdmin } from "../context.ts";

export const usersCreate: AdminCommand = {
  name: "users create",
  usage: "svc admin users create --email EMAIL [--name NAME] [--password-stdin]",
  async run(args, io) {
    const f = flags(
      args,
      { email: { type: "string" }, name: { type: "string" }, "password-stdin": { type: "boolean" } },
      ["email"],
    );
    const password = f["password-stdin"] ? await passwordFromStdin(io) : null;
    await withAdmin(io, async ({ app }) => {
      const r = await inTx(app, async (tx) => {
        const created = await createUser(tx, app, { email: f.email!, name: f.name ?? null, password });
        await auditOperator(tx, app, "users create", {
          action: "user.create",
          target: created.user.id,
          detail: { email: created.user.email },
        });
        return created;
      });
      io.out(`Created ${r.user.email} (${r.user.id}).`);
      if (r.password) io.out(`Password: ${r.password}  (shown once)`);
    });
  },
};
