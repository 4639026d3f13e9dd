// `--hostname` takes a bare host (https://host) or a full URL (http://127.0.0.1:8080 for a local install).
// Hosts are keyed by host[:port] in hosts.yaml.
import { UsageError } from "../output.ts";

export interface Host {
  /** host[:port], the key in hosts.yaml and the keychain. */
  key: string;
  /** The origin requests go to, without a trailing slash. */
  url: string;
}

export function parseHost(input: string): Host {
  const s = input.trim();
  if (!s) throw new UsageError("--hostname must not be empty");
  let u: URL;
  try {
    u = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(s) ? s : `https://${s}`);
  } catch {
    throw new UsageError(`--hostname ${JSON.stringify(input)} is neither a host name nor a URL`);
  }
  if (u.protocol !== "https:" && u.protocol !== "http:")
    throw new UsageError(`--hostname must be an http or https address, not ${u.protocol}`);
  if (u.username || u.password) throw new UsageError("--hostname must not carry a user name or password");
  const path = u.pathname.replace(/\/+$/, "");
  return { key: u.host, url: `${u.origin}${path}` };
}
