// Saving and removing a host's credentials: the secret in the keychain unless --insecure-storage or none is
// reachable, then in hosts.yaml (0600). Each mode's slot is replaced on its own.
import { type HostsFile, type Mode, readHosts, writeHosts } from "./hosts.ts";
import { keychainDelete, keychainSet } from "./keychain.ts";

type Env = Record<string, string | undefined>;

export type Storage = "keychain" | "hosts.yaml";

export async function saveCredential(
  o: { host: string; url: string; mode: Mode; user: string; token: string; org?: string; insecure: boolean },
  env: Env = process.env,
): Promise<Storage> {
  const inKeychain = !o.insecure && (await keychainSet(o.host, o.mode, o.token));
  if (!inKeychain) await keychainDelete(o.host, o.mode);
  const file = readHosts(env);
  const entry = file.hosts[o.host] ?? { url: o.url };
  entry.url = o.url;
  entry[o.mode] = inKeychain ? { user: o.user } : { user: o.user, token: o.token };
  if (o.org) entry.org = o.org;
  file.hosts[o.host] = entry;
  file.default = o.host;
  writeHosts(file, env);
  return inKeychain ? "keychain" : "hosts.yaml";
}

/** Removes both credentials and the host's entry; the default moves to another saved host, if any. */
export async function forgetHost(host: string, env: Env = process.env): Promise<HostsFile> {
  await keychainDelete(host, "test");
  await keychainDelete(host, "live");
  const file = readHosts(env);
  delete file.hosts[host];
  if (file.default === host) file.default = Object.keys(file.hosts)[0];
  writeHosts(file, env);
  return file;
}
