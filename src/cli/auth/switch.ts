// svc auth switch: choose the default server and/or the default org (sent as Svc-Org).
import type { ClientCommand } from "../client/command.ts";
import { parseHost } from "../client/host.ts";
import { ask } from "../client/prompt.ts";
import { UsageError } from "../output.ts";
import { readHosts, writeHosts } from "./hosts.ts";

export const authSwitch: ClientCommand = {
  name: "auth switch",
  summary: "Choose the default server and org",
  usage: "svc auth switch [--hostname HOST] [--org ORG]",
  help: "Examples:\n  svc auth switch --hostname svc.example.com\n  svc auth switch --org Acme",
  async run(ctx) {
    const file = readHosts(ctx.env);
    const keys = Object.keys(file.hosts);
    if (keys.length === 0)
      throw new Error("not signed in to any server; run: svc auth login --hostname HOST");
    let host = ctx.global.hostname ? parseHost(ctx.global.hostname).key : undefined;
    let org = ctx.global.org;
    if (host === undefined && org === undefined) {
      if (!ctx.interactive) throw new UsageError("--hostname or --org is required (no terminal to ask on)");
      host =
        keys.length === 1
          ? keys[0]!
          : await ask.select(
              "Which server?",
              keys.map((k) => ({ value: k, label: k, hint: file.hosts[k]!.url })),
            );
      const o = await ask.text("Default org (ID or name; empty for none)", {
        initial: file.hosts[host]?.org,
        required: false,
      });
      org = o;
    }
    host ??= file.default && file.hosts[file.default] ? file.default : keys[0]!;
    const entry = file.hosts[host];
    if (!entry) throw new Error(`not signed in to ${host}; run: svc auth login --hostname ${host}`);
    file.default = host;
    if (org !== undefined) {
      if (org) entry.org = org;
      else delete entry.org;
    }
    writeHosts(file, ctx.env);
    ctx.io.err(`${ctx.c.green("✓")} Using ${host}${entry.org ? `, org ${entry.org}` : ""}`);
    return 0;
  },
};
