import { auditOperator } from "../../../domain/audit/service.ts";
import { type AdminCommand, flags } from "../command.ts";
import { withAdmin } from "../context.ts";

export const keysRotate: AdminCommand = {
  name: "keys rotate",
  usage: "svc admin keys rotate   (rewraps every org data key under the primary master key)",
  async run(args, io) {
    flags(args, {});
    await withAdmin(io, async ({ app }) => {
      const r = await app.keys.rotate(app.db, app.clock.now());
      await auditOperator(app.db, app, "keys rotate", {
        action: "keys.rotate",
        detail: { rewrapped: r.rewrapped, failed: r.failed.length },
      });
      io.out(`Rewrapped ${r.rewrapped} data key(s) under ${app.keys.master?.primaryId}.`);
      if (r.failed.length) {
        io.err(
          `${r.failed.length} data key(s) did not unwrap with any configured master key: ${r.failed.join(", ")}`,
        );
        process.exitCode = 1;
      }
    });
  },
};
