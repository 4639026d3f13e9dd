// Which server, credential and org a client command uses. Shared by every client command and by `svc mcp`
// (which checks SVC_URL/SVC_API_KEY itself first). Order: --hostname, SVC_HOST, the saved default host, the only
// saved host; SVC_TOKEN over the stored credential of the mode (test unless --live); --org, SVC_ORG, the saved
// default org.
import { parseHost } from "../client/host.ts";
import { UsageError } from "../output.ts";
import { type HostEntry, type Mode, readHosts } from "./hosts.ts";
import { keychainGet } from "./keychain.ts";

type Env = Record<string, string | undefined>;

export interface Credential {
  host: string;
  url: string;
  token: string;
  org: string | null;
  mode: Mode;
  source: "SVC_TOKEN" | "keychain" | "hosts.yaml";
}

export interface ResolveOptions {
  hostname?: string;
  live?: boolean;
  org?: string;
  env?: Env;
}

/** The host a command talks to: its key and URL, and its saved entry when there is one. */
export function resolveHost(o: ResolveOptions = {}): { key: string; url: string; entry?: HostEntry } {
  const env = o.env ?? process.env;
  const file = readHosts(env);
  const named = o.hostname ?? env.SVC_HOST;
  if (named) {
    const h = parseHost(named);
    const entry = file.hosts[h.key];
    // A bare name saved earlier with an explicit http:// URL keeps that URL.
    const url = entry && !/^[a-z]+:\/\//i.test(named) ? entry.url : h.url;
    return { key: h.key, url, entry };
  }
  const key = file.default && file.hosts[file.default] ? file.default : Object.keys(file.hosts)[0];
  if (!key) throw new UsageError("not signed in to any server; run: svc auth login --hostname HOST");
  const entry = file.hosts[key]!;
  return { key, url: entry.url, entry };
}

/** The stored secret of one mode on one host, from the keychain or hosts.yaml. */
export async function storedSecret(
  host: string,
  entry: HostEntry | undefined,
  mode: Mode,
): Promise<{ token: string; source: "keychain" | "hosts.yaml" } | null> {
  const slot = entry?.[mode];
  if (!slot) return null;
  if (slot.token) return { token: slot.token, source: "hosts.yaml" };
  const token = await keychainGet(host, mode);
  return token ? { token, source: "keychain" } : null;
}

/** The credential for a command: throws (exit 1) with what to run when there is none. */
export async function resolveCredential(o: ResolveOptions = {}): Promise<Credential> {
  const env = o.env ?? process.env;
  const mode: Mode = o.live ? "live" : "test";
  const host = resolveHost(o);
  const org = o.org ?? env.SVC_ORG ?? host.entry?.org ?? null;
  if (env.SVC_TOKEN)
    return { host: host.key, url: host.url, token: env.SVC_TOKEN, org, mode, source: "SVC_TOKEN" };
  const secret = await storedSecret(host.key, host.entry, mode);
  if (!secret)
    throw new Error(
      `no ${mode} credential for ${host.key}; run: svc auth login --hostname ${host.key}${mode === "live" ? " --live" : ""}`,
    );
  return { host: host.key, url: host.url, token: secret.token, org, mode, source: secret.source };
}
