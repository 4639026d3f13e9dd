// `svc mcp`: the MCP server on standard input and output (one JSON-RPC message per line) for agents that start
// their tools as processes. It calls the install's /v1 over HTTP(S) with SVC_URL + SVC_API_KEY and never opens
// the database; it needs none of the server's settings.
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import pkg from "../../package.json" with { type: "json" };
import { resolveCredential } from "../cli/auth/credentials.ts";
import { type Io, UsageError } from "../cli/output.ts";
import { ServiceError } from "../lib/errors.ts";
import { newId } from "../lib/ids.ts";
import { type ApiCall, requestParts } from "./api.ts";
import { createMcpServer } from "./server.ts";

export const MCP_USAGE = `svc mcp: the MCP server for agents, over standard input and output

Usage: svc mcp [--live] [--org <id_or_name>]

Calls the install named by SVC_URL with the credential in SVC_API_KEY (an API key or a user token); without
them, the server and credential stored by \`svc auth login\` (the test one unless --live).
  --live    use the live credential (with a stored sign-in; an API key's mode is its own)
  --org     the org, for a user token of a person in several orgs (also SVC_ORG)
`;

export interface Target {
  url: string;
  token: string;
  org: string | null;
}

/** The install and credential: SVC_URL + SVC_API_KEY. */
export function targetFromEnv(env: Record<string, string | undefined>, org: string | null): Target | null {
  const url = env.SVC_URL?.trim();
  const token = env.SVC_API_KEY?.trim();
  if (!url || !token) return null;
  return { url: url.replace(/\/+$/, ""), token, org: org ?? env.SVC_ORG ?? null };
}

/** Each tool's request as a real HTTP request; a transport failure is told to the agent as a problem. */
export function httpApi(target: Target): ApiCall {
  return async (req) => {
    const { pathAndQuery, body } = requestParts(req);
    const headers: Record<string, string> = {
      authorization: `Bearer ${target.token}`,
      "user-agent": `svc-mcp/${pkg.version}`,
    };
    if (target.org) headers["svc-org"] = target.org;
    if (body !== undefined) headers["content-type"] = "application/json";
    if (req.idempotencyKey) headers["idempotency-key"] = req.idempotencyKey;
    try {
      // The key goes to the install only: a redirect is an answer, never followed to another host.
      const res = await fetch(`${target.url}${pathAndQuery}`, {
        method: req.method,
        headers,
        body,
        redirect: "manual",
      });
      const text = await res.text();
      try {
        return { status: res.status, body: text ? JSON.parse(text) : null };
      } catch {
        throw unavailable(`${target.url} answered ${res.status} with something that is not JSON.`);
      }
    } catch (e) {
      if (e instanceof ServiceError) throw e;
      throw unavailable(`Cannot reach ${target.url}: ${(e as Error).message}`);
    }
  };
}

/** The install could not answer: the tool's error, made by the server like every other problem. */
const unavailable = (detail: string) => new ServiceError(503, "service_unavailable", detail);

function parseFlags(argv: string[]): { live: boolean; org: string | null } {
  let live = false;
  let org: string | null = null;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === "--live") live = true;
    else if (a === "--org") {
      org = argv[++i] ?? null;
      if (!org) throw new UsageError("--org needs a value");
    } else if (a.startsWith("--org=")) org = a.slice(6);
    else throw new UsageError(`unknown flag ${a}`);
  }
  return { live, org };
}

export async function runMcpStdio(
  argv: string[],
  io: Io,
  env: Record<string, string | undefined> = process.env,
): Promise<number> {
  if (argv.includes("--help") || argv.includes("-h")) {
    io.out(MCP_USAGE);
    return 0;
  }
  const flags = parseFlags(argv);
  let target = targetFromEnv(env, flags.org);
  if (!target) {
    // The CLI's stored sign-in: the saved host, its test (or live) credential, the saved default org.
    try {
      const c = await resolveCredential({ live: flags.live, ...(flags.org ? { org: flags.org } : {}), env });
      target = { url: c.url.replace(/\/+$/, ""), token: c.token, org: c.org };
    } catch (e) {
      io.err(
        `svc mcp: set SVC_URL and SVC_API_KEY, or sign in with svc auth login (${(e as Error).message})`,
      );
      return 2;
    }
  }
  const server = createMcpServer(httpApi(target), { baseUrl: target.url, requestId: () => newId("req") });
  const closed = new Promise<void>((resolve) => {
    server.onclose = () => resolve();
    process.stdin.once("end", () => resolve());
  });
  await server.connect(new StdioServerTransport());
  await closed;
  await server.close();
  return 0;
}
