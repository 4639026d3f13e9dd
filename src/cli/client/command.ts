// A client command: its words (`posts list`), flags, and a run function given a context with the parsed flags,
// the credential, the API and the printer. The global flags (--live, --org, --hostname, --json, --jq, --help)
// are parsed here for every command.
import { parseArgs } from "node:util";
import { type Credential, resolveCredential } from "../auth/credentials.ts";
import { type Io, UsageError } from "../output.ts";
import { type ApiResponse, call, type RequestOptions } from "./api.ts";
import { type Colors, colors, useColor } from "./color.ts";

type Options = NonNullable<Parameters<typeof parseArgs>[0]>["options"];

export interface ClientCommand {
  /** e.g. "posts list" */
  name: string;
  summary: string;
  /** One usage line, without the global flags. */
  usage: string;
  /** Flag descriptions and examples shown by --help. */
  help?: string;
  options?: Options;
  /** How many positional arguments, and their names for messages. */
  args?: { min: number; max: number; names: string[] };
  /** Fields --json can select (the resource's fields); absent: the command takes no --json. */
  fields?: readonly string[];
  run(ctx: Ctx): Promise<number | undefined>;
}

export interface GlobalFlags {
  live: boolean;
  org?: string;
  hostname?: string;
  /** null: no --json; []: --json without fields; else the fields asked for. */
  json: string[] | null;
  jq?: string;
}

export interface Ctx {
  cmd: ClientCommand;
  // biome-ignore lint/suspicious/noExplicitAny: parsed flag values, typed by each command's options
  flags: Record<string, any>;
  args: string[];
  global: GlobalFlags;
  io: Io;
  env: Record<string, string | undefined>;
  /** stdin and stdout are terminals: prompts and progress are allowed. */
  interactive: boolean;
  stdoutTty: boolean;
  stderrTty: boolean;
  c: Colors;
  credential(): Promise<Credential>;
  /** A request with the command's credential; throws ApiError for anything but 2xx. */
  api(method: string, path: string, o?: RequestOptions): Promise<ApiResponse>;
}

export const GLOBAL_OPTIONS = {
  live: { type: "boolean" },
  org: { type: "string" },
  hostname: { type: "string" },
  jq: { type: "string" },
  help: { type: "boolean", short: "h" },
} as const satisfies Options;

export const GLOBAL_HELP = `Global flags:
  --hostname HOST   the server (a host name means https; or a URL such as http://127.0.0.1:8080)
  --live            use the live credential (default: test)
  --org ORG         the org, by ID or name (default: SVC_ORG, then the saved default)
  --json [FIELDS]   print JSON with these comma-separated fields (without a list: the fields there are)
  --jq EXPR         filter the JSON through jq
  -h, --help        show this help`;

const FIELD_LIST = /^[a-z_][a-z0-9_]*(,[a-z_][a-z0-9_]*)*$/;
const OBJECT_ID = /^[a-z]+_[0-9a-z]{26}$/;

/** Takes `--json`, `--json=a,b` and `--json a,b` out of argv: the value is optional, which parseArgs cannot say. */
export function takeJson(argv: string[]): { argv: string[]; json: string[] | null } {
  const rest: string[] = [];
  let json: string[] | null = null;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === "--") {
      rest.push(...argv.slice(i));
      break;
    }
    if (a === "--json") {
      const next = argv[i + 1];
      if (next !== undefined && FIELD_LIST.test(next) && !OBJECT_ID.test(next)) {
        json = next.split(",");
        i++;
      } else json = [];
    } else if (a.startsWith("--json=")) {
      json = a.slice(7).split(",").filter(Boolean);
    } else rest.push(a);
  }
  return { argv: rest, json };
}

export function parseCommand(cmd: ClientCommand, argv: string[]) {
  const { argv: rest, json } = takeJson(argv);
  if (json !== null && !cmd.fields) throw new UsageError(`svc ${cmd.name} takes no --json`);
  let parsed: { values: Record<string, unknown>; positionals: string[] };
  try {
    parsed = parseArgs({
      args: rest,
      options: { ...GLOBAL_OPTIONS, ...cmd.options },
      strict: true,
      allowPositionals: true,
    }) as typeof parsed;
  } catch (e) {
    throw new UsageError(flagMessage((e as Error).message, cmd));
  }
  const v = parsed.values;
  const args = cmd.args ?? { min: 0, max: 0, names: [] };
  if (!v.help) {
    if (parsed.positionals.length < args.min)
      throw new UsageError(`missing ${args.names[parsed.positionals.length]}\nUsage: ${cmd.usage}`);
    if (parsed.positionals.length > args.max)
      throw new UsageError(
        `unexpected argument ${JSON.stringify(parsed.positionals[args.max])}\nUsage: ${cmd.usage}`,
      );
  }
  const global: GlobalFlags = {
    live: Boolean(v.live),
    org: v.org as string | undefined,
    hostname: v.hostname as string | undefined,
    json,
    jq: v.jq as string | undefined,
  };
  return { flags: v, args: parsed.positionals, global };
}

function flagMessage(msg: string, cmd: ClientCommand): string {
  const unknown = /Unknown option '([^']+)'/.exec(msg);
  if (unknown) return `unknown flag ${unknown[1]}\nRun 'svc ${cmd.name} --help' for usage.`;
  const needs = /Option '(?:-\w, )?(--[\w-]+) <value>' argument missing/.exec(msg);
  if (needs) return `${needs[1]} needs a value\nRun 'svc ${cmd.name} --help' for usage.`;
  return `${msg.split(".")[0]}\nRun 'svc ${cmd.name} --help' for usage.`;
}

export function makeCtx(cmd: ClientCommand, argv: string[], io: Io, env = process.env): Ctx {
  const { flags, args, global } = parseCommand(cmd, argv);
  const stdoutTty = Boolean(process.stdout.isTTY);
  let cred: Promise<Credential> | undefined;
  const ctx: Ctx = {
    cmd,
    flags,
    args,
    global,
    io,
    env,
    interactive: Boolean(process.stdin.isTTY) && stdoutTty,
    stdoutTty,
    stderrTty: Boolean(process.stderr.isTTY),
    c: colors(useColor(stdoutTty, env)),
    credential() {
      cred ??= resolveCredential({ hostname: global.hostname, live: global.live, org: global.org, env });
      return cred;
    },
    async api(method, path, o) {
      const c = await ctx.credential();
      return await call(c, method, path, o);
    },
  };
  return ctx;
}

export function commandHelp(cmd: ClientCommand): string {
  return [`${cmd.summary}\n`, `Usage: ${cmd.usage}`, cmd.help ? `\n${cmd.help}` : "", `\n${GLOBAL_HELP}`]
    .filter(Boolean)
    .join("\n");
}
