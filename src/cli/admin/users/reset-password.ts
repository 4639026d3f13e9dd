import { auditOperator } from "../../../domain/audit/service.ts";
import { resetPassword } from "../../../domain/identity/users/service.ts";
import { inTx } from "../../../domain/tx.ts";
import { type AdminCommand, flags, passwordFromStdin } from "../command.ts";
import { withAdmin } from "../context.ts";

export const usersResetPassword: AdminCommand = {
  name: "users reset-password",
  usage:
    "svc admin users reset-password --email EMAIL [--password-stdin]   (also signs the person out everywhere and removes their passkeys)",
  async run(args, io) {
    const f = flags(args, { email: { type: "string" }, "password-stdin": { type: "boolean" } }, ["email"]);
    const password = f["password-stdin"] ? await passwordFromStdin(io) : null;
    await withAdmin(io, async ({ app }) => {
      const r = await inTx(app, async (tx) => {
        const done = await resetPassword(tx, app, f.email!, password);
        await auditOperator(tx, app, "users reset-password", {
          action: "user.reset_password",
          target: done.user.id,
        });
        return done;
      });
      io.out(
        `Reset the password of ${r.user.email}; their CLI tokens are revoked, ${r.sessionsEnded} browser session(s) ended and ${r.passkeysRemoved} passkey(s) removed.`,
      );
      if (r.password) io.out(`Password: ${r.password}  (shown once)`);
    });
  },
};
