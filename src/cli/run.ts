// argv → a process role, an admin command or a client command.
import pkg from "../../package.json" with { type: "json" };
import { ConfigError, loadConfig } from "../app/config.ts";
import { createApp } from "../app/context.ts";
import { once } from "../lib/once.ts";
import { describeError, type Io, processIo, UsageError } from "./output.ts";

// The client and admin commands (with YAML, jq-wasm and the prompts) load for those commands only: the process
// roles, migrate, version and mcp never need them, and `svc all` started about 40 ms later with them.
const loadCommands = once(async () => {
  const [admin, command, client, printer] = await Promise.all([
    import("./admin/index.ts"),
    import("./client/command.ts"),
    import("./client/index.ts"),
    import("./client/printer.ts"),
  ]);
  return { ...admin, ...command, ...client, ...printer };
});
type Commands = Awaited<ReturnType<typeof loadCommands>>;
const WITHOUT_COMMANDS = new Set(["server", "worker", "all", "migrate", "version", "--version", "mcp"]);

const usage = ({ clientUsage }: Commands) => `svc ${pkg.version}: a self-hosted publishing service

Process commands:
  svc all        serve HTTP and run the worker in one process (the appliance)
  svc server     serve HTTP (the /v1 API)
  svc worker     run the publishing queue and the named background tasks
  svc migrate    apply schema migrations and print the schema version
  svc version    print the version
  svc mcp        the MCP server for agents on stdin/stdout (SVC_URL + SVC_API_KEY)

Client commands (talk to a server's /v1 over HTTPS; sign in first with svc auth login):
${clientUsage()}

Administration (where the deployment configuration is):
  svc admin …    run "svc admin help" for the commands

Run 'svc <command> --help' for a command's flags; docs/cli.md has examples.
`;

/**
 * What the composition root lends the command line: the process roles, and its hooks for the commands that act
 * on the database directly (admin, migrate). main.ts passes it; it loads only for those commands.
 */
export interface Root {
  serve(role: "server" | "worker" | "all"): Promise<number>;
  registerHooks(): void;
}

/** Without a root (a test calling run in process): no process roles, and the test process's hooks as they are. */
const noRoot = async (): Promise<Root> => ({
  serve: async () => {
    throw new UsageError("process roles start from src/main.ts");
  },
  registerHooks: () => {},
});

export async function run(
  args: string[],
  io: Io = processIo,
  root: () => Promise<Root> = noRoot,
): Promise<number> {
  const commands = WITHOUT_COMMANDS.has(args[0] ?? "") ? null : await loadCommands();
  // Global flags come first only before a client command (the commands are loaded then).
  const argv = commands ? hoistGlobalFlags(args, commands.clientGroups) : args;
  const [cmd, ...rest] = argv;
  try {
    switch (cmd) {
      case undefined:
      case "help":
      case "--help":
      case "-h":
        io.out(usage(commands!));
        return 0;
      case "version":
      case "--version":
        io.out(`svc ${pkg.version}`);
        return 0;
      case "mcp":
        return (await import("../mcp/stdio.ts")).runMcpStdio(rest, io);
      case "migrate": {
        const app = createApp(loadConfig());
        try {
          io.out(`schema version ${await app.migrate()}`);
        } finally {
          await app.close();
        }
        return 0;
      }
      case "server":
      case "worker":
      case "all":
        // The server and worker code loads only for these roles, so client commands start in a fraction of the time.
        return await (await root()).serve(cmd);
      case "admin":
        (await root()).registerHooks();
        return await admin(rest, io);
      default:
        if (commands!.clientGroups.has(cmd)) return await client(argv, io);
        if (commands!.LEGACY_ADMIN.has(cmd)) {
          io.err(`svc ${cmd} is now svc admin ${cmd}; running that.`);
          (await root()).registerHooks();
          return await admin(argv, io);
        }
        throw new UsageError(`unknown command ${JSON.stringify(cmd)}\n\n${usage(commands!)}`);
    }
  } catch (e) {
    if (e instanceof ConfigError) {
      io.err(`svc: ${e.message}`);
      return 2;
    }
    const d = describeError(e);
    io.err(`svc ${commandName(argv, commands)}: ${d.message}`);
    return d.code;
  }
}

/** `svc --hostname H posts list` is `svc posts list --hostname H`: global flags may come first. */
function hoistGlobalFlags(argv: string[], clientGroups: Set<string>): string[] {
  const lead: string[] = [];
  let i = 0;
  while (i < argv.length) {
    const a = argv[i]!;
    if (a === "--live") lead.push(argv[i++]!);
    else if (/^--(org|hostname|jq|json)=/.test(a)) lead.push(argv[i++]!);
    else if (a === "--org" || a === "--hostname" || a === "--jq") {
      lead.push(a, argv[i + 1] ?? "");
      i += 2;
    } else if (a === "--json") {
      const next = argv[i + 1];
      lead.push(a);
      i++;
      if (
        next !== undefined &&
        /^[a-z_][a-z0-9_]*(,[a-z_][a-z0-9_]*)*$/.test(next) &&
        !clientGroups.has(next)
      ) {
        lead.push(next);
        i++;
      }
    } else break;
  }
  if (lead.length === 0 || i >= argv.length) return argv;
  return [...argv.slice(i), ...lead];
}

/** The command's own words for `svc <cmd>: <message>`, never a flag's value (`bootstrap --org Acme` is bootstrap). */
function commandName(argv: string[], commands: Commands | null): string {
  const [cmd, ...rest] = argv;
  if (!commands) return cmd ?? "";
  const { LEGACY_ADMIN, findAdmin, clientGroups, findClient } = commands;
  if (cmd === "admin" || (cmd && LEGACY_ADMIN.has(cmd))) {
    const found = findAdmin(cmd === "admin" ? rest : argv);
    return found ? `admin ${found.cmd.name}` : "admin";
  }
  if (cmd && clientGroups.has(cmd)) return findClient(argv)?.cmd.name ?? cmd;
  return cmd ?? "";
}

async function client(argv: string[], io: Io): Promise<number> {
  const { findClient, groupUsage, makeCtx, commandHelp, printFields } = await loadCommands();
  const found = findClient(argv);
  if (!found) {
    const [group, sub] = argv;
    if (sub === undefined || sub === "help" || sub === "--help" || sub === "-h") {
      io.out(groupUsage(group!));
      return 0;
    }
    throw new UsageError(`unknown command "${group} ${sub}"\n${groupUsage(group!)}`);
  }
  const ctx = makeCtx(found.cmd, found.rest, io);
  if (ctx.flags.help) {
    io.out(commandHelp(found.cmd));
    return 0;
  }
  if (ctx.global.json?.length === 0) {
    printFields(ctx);
    return 0;
  }
  return (await found.cmd.run(ctx)) ?? 0;
}

async function admin(args: string[], io: Io): Promise<number> {
  const { adminUsage, findAdmin } = await loadCommands();
  if (args.length === 0 || args[0] === "help" || args[0] === "--help") {
    io.out(adminUsage());
    return 0;
  }
  if (args.some((a) => a === "--as" || a.startsWith("--as=")))
    throw new UsageError(
      "--as is no longer accepted: admin commands act as the operator in the org named by --org (audited under the command's name); to act as a person, sign in with svc auth login and use the client commands",
    );
  const found = findAdmin(args);
  if (!found) throw new UsageError(`unknown admin command "${args.join(" ")}"\n${adminUsage()}`);
  if (found.rest.includes("--help")) {
    io.out(`Usage: ${found.cmd.usage}`);
    return 0;
  }
  await found.cmd.run(found.rest, io);
  return typeof process.exitCode === "number" ? process.exitCode : 0;
}
