// svc auth status: every saved server, both credentials, where each is kept and whether each still works
// (GET /v1/me). Exit 1 when any credential fails, or when signed in nowhere.
import { send } from "../client/api.ts";
import type { ClientCommand } from "../client/command.ts";
import { parseHost } from "../client/host.ts";
import { storedSecret } from "./credentials.ts";
import { type Mode, readHosts } from "./hosts.ts";

export const authStatus: ClientCommand = {
  name: "auth status",
  summary: "Show each server's credentials, where they are stored and whether they work",
  usage: "svc auth status [--hostname HOST]",
  help: "Example:\n  svc auth status",
  async run(ctx) {
    const file = readHosts(ctx.env);
    const only = ctx.global.hostname ? parseHost(ctx.global.hostname).key : null;
    const keys = Object.keys(file.hosts).filter((k) => !only || k === only);
    const { c, io } = ctx;
    if (ctx.env.SVC_TOKEN)
      io.out(`${c.yellow("!")} SVC_TOKEN is set: client commands use it instead of a stored credential.`);
    if (keys.length === 0) {
      io.err(
        only
          ? `Not signed in to ${only}.`
          : "Not signed in to any server. Run: svc auth login --hostname HOST",
      );
      return 1;
    }
    let failing = 0;
    for (const key of keys) {
      const entry = file.hosts[key]!;
      io.out(`${c.bold(key)}${file.default === key ? " (default)" : ""}  ${c.dim(entry.url)}`);
      if (entry.org) io.out(`  org: ${entry.org}`);
      for (const mode of ["test", "live"] as Mode[]) {
        const slot = entry[mode];
        if (!slot) {
          io.out(
            `  ${c.dim("-")} ${mode}: not signed in${mode === "live" ? " (svc auth login --live)" : ""}`,
          );
          continue;
        }
        const secret = await storedSecret(key, entry, mode);
        const where =
          secret?.source === "keychain"
            ? "in system keychain"
            : secret
              ? "in hosts.yaml"
              : "not found in a keychain";
        let state: string;
        let ok = false;
        if (!secret) state = "sign in again (or run where its keychain is reachable)";
        else {
          const r = await send(
            { url: entry.url, token: secret.token, org: ctx.global.org ?? ctx.env.SVC_ORG ?? entry.org },
            "GET",
            "/v1/me",
          ).catch(
            (e: Error) =>
              ({ status: 0, body: { detail: e.message } }) as {
                status: number;
                body: { detail?: string; code?: string; org?: { name: string }; role?: string };
              },
          );
          ok = r.status === 200;
          state = ok
            ? `works (org ${r.body.org?.name}${r.body.role ? `, ${r.body.role}` : ""})`
            : `failing: ${r.body?.detail ?? `HTTP ${r.status}`}${r.body?.code ? ` (${r.body.code})` : ""}`;
        }
        if (!ok) failing++;
        const mark = ok ? c.green("✓") : c.red("X");
        io.out(`  ${mark} ${mode}: ${slot.user}, ${where}; ${state}`);
      }
    }
    return failing ? 1 : 0;
  },
};
