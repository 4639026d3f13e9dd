import { table } from "../../output.ts";
import { type AdminCommand, flags } from "../command.ts";
import { withAdmin } from "../context.ts";

export const keysStatus: AdminCommand = {
  name: "keys status",
  usage:
    "svc admin keys status   (which master key wraps how many data keys; whether every data key unwraps)",
  async run(args, io) {
    flags(args, {});
    await withAdmin(io, async ({ app }) => {
      const s = await app.keys.status(app.db);
      const ids = [...new Set([...s.configured, ...Object.keys(s.wraps)])];
      io.out(
        table([
          ["MASTER KEY", "CONFIGURED", "PRIMARY", "WRAPS"],
          ...ids.map((id) => [
            id,
            s.configured.includes(id) ? "yes" : "no",
            id === s.primary ? "yes" : "",
            String(s.wraps[id] ?? 0),
          ]),
        ]),
      );
      if (s.unreadable.length) {
        io.err(`${s.unreadable.length} data key(s) do not unwrap: ${s.unreadable.join(", ")}`);
        process.exitCode = 1;
      } else io.out("Every data key unwraps.");
    });
  },
};
