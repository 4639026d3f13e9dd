// Client state (reference §9): $SVC_CONFIG_DIR, else ~/.config/svc (0700, or %APPDATA%\svc on Windows), holding
// hosts.yaml (0600): the default host and, per host[:port], its URL, the test and live credentials, the default
// org and the local signing secret of `svc listen`. A secret appears here only when no keychain took it.
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { parse, stringify } from "yaml";

export type Mode = "test" | "live";

export interface StoredCredential {
  /** Who the credential is: a person's email, or an API key's name. */
  user: string;
  /** Present only when the secret is kept in this file (no keychain, or --insecure-storage). */
  token?: string;
}

export interface HostEntry {
  url: string;
  test?: StoredCredential;
  live?: StoredCredential;
  org?: string;
  listen_secret?: string;
}

export interface HostsFile {
  default?: string;
  hosts: Record<string, HostEntry>;
}

export function configDir(env: Record<string, string | undefined> = process.env): string {
  if (env.SVC_CONFIG_DIR) return env.SVC_CONFIG_DIR;
  if (process.platform === "win32" && env.APPDATA) return join(env.APPDATA, "svc");
  return join(env.XDG_CONFIG_HOME || join(homedir(), ".config"), "svc");
}

export const hostsPath = (env: Record<string, string | undefined> = process.env) =>
  join(configDir(env), "hosts.yaml");

export function readHosts(env: Record<string, string | undefined> = process.env): HostsFile {
  const path = hostsPath(env);
  if (!existsSync(path)) return { hosts: {} };
  const doc = parse(readFileSync(path, "utf8")) as Partial<HostsFile> | null;
  return { default: doc?.default, hosts: doc?.hosts ?? {} };
}

/** Written whole to a temporary file (0600) and renamed over the old one, so a crash never leaves half a file. */
export function writeHosts(file: HostsFile, env: Record<string, string | undefined> = process.env): void {
  const dir = configDir(env);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  if (process.platform !== "win32") chmodSync(dir, 0o700);
  const path = hostsPath(env);
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, stringify(file), { mode: 0o600 });
  if (process.platform !== "win32") chmodSync(tmp, 0o600);
  renameSync(tmp, path);
}
