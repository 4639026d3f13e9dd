import { table } from "../../output.ts";
import { type AdminCommand, flags } from "../command.ts";
import { withAdmin } from "../context.ts";

const KIND: Record<string, string> = {
  data_key: "org data key",
  install_key: "install key",
  app_secret: "app secret",
  totp_secret: "TOTP secret",
};

export const keysStatus: AdminCommand = {
  name: "keys status",
  usage:
    "svc admin keys status [--all]   (per master key: where it lives, what it wraps, whether each unwraps; --all lists every wrapped value)",
  async run(args, io) {
    const f = flags(args, { all: { type: "boolean" } });
    await withAdmin(io, async ({ app }) => {
      const s = await app.keys.status(app.db);
      const ids = [...new Set([...s.configured, ...Object.keys(s.wraps)])];
      const failing = (id: string) => s.items.filter((i) => i.keyId === id && !i.unwraps).length;
      io.out(
        table([
          ["MASTER KEY", "KIND", "CONFIGURED", "PRIMARY", "WRAPS", "UNWRAPS"],
          ...ids.map((id) => {
            const wraps = s.wraps[id] ?? 0;
            const bad = failing(id);
            return [
              id,
              s.kinds[id] ?? "unknown",
              s.configured.includes(id) ? "yes" : "no",
              id === s.primary ? "yes" : "",
              wraps ? summary(s.items.filter((i) => i.keyId === id).map((i) => i.kind)) : "nothing",
              wraps === 0 ? "" : bad === 0 ? "all" : `${wraps - bad} of ${wraps}`,
            ];
          }),
        ]),
      );
      const shown = f.all ? s.items : s.items.filter((i) => !i.unwraps);
      if (shown.length) {
        io.out("");
        io.out(
          table([
            ["VALUE", "ID", "WRAPPED BY", "UNWRAPS"],
            ...shown.map((i) => [
              KIND[i.kind] ?? i.kind,
              i.id,
              i.keyId,
              i.unwraps ? "yes" : `no: ${i.error ?? "unknown"}`,
            ]),
          ]),
        );
      }
      if (s.unreadable.length) {
        io.err(`${s.unreadable.length} wrapped value(s) do not unwrap: ${s.unreadable.join(", ")}`);
        process.exitCode = 1;
      } else io.out("Every data key unwraps.");
    });
  },
};

function summary(kinds: string[]): string {
  const counts = new Map<string, number>();
  for (const k of kinds) counts.set(k, (counts.get(k) ?? 0) + 1);
  return [...counts].map(([k, n]) => `${n} ${KIND[k] ?? k}${n === 1 ? "" : "s"}`).join(", ");
}
