// The client's address, for per-address limits and for what pages show ("Asked from" on /device, sessions). One
// function for every surface (the dashboard and the unauthenticated /v1 routes), so they cannot disagree.
//
// Without SVC_CLIENT_IP_HEADER it is the socket's peer. With it, svc sits behind proxies that each APPEND the
// address they received from to that header (X-Forwarded-For, Forwarded), so everything left of what they added
// was written by the client and proves nothing: the client is the entry SVC_CLIENT_IP_HOPS places from the right
// (1, the default, is the right-most entry: the one the proxy in front of svc added). A header one proxy SETS
// (X-Real-IP, CF-Connecting-IP) has one entry, which hops=1 picks the same way.
import type { Config } from "../app/config.ts";

/** One entry of the list: an address, possibly with a port (`1.2.3.4:5678`, `[2001:db8::1]:443`) or quoted. */
function addressOf(entry: string): string | null {
  let s = entry.trim().replace(/^"|"$/g, "");
  const v6 = /^\[([^\]]+)\](?::\d+)?$/.exec(s);
  if (v6) s = v6[1]!;
  else if (/^[\d.]+:\d+$/.test(s)) s = s.slice(0, s.lastIndexOf(":"));
  // Only installs behind a proxy read the header; the address library loads with its first request.
  const { parseIp } = require("../net/address.ts") as typeof import("../net/address.ts");
  const ip = parseIp(s);
  return ip ? ip.toString() : null;
}

/** The entries of the header, in order: a plain list, or the `for=` of each element of RFC 7239 Forwarded. */
function entriesOf(name: string, value: string): string[] {
  const parts = value.split(",");
  if (name.toLowerCase() !== "forwarded") return parts;
  return parts.map((el) => {
    const m = /(?:^|;)\s*for\s*=\s*("[^"]*"|[^;]*)/i.exec(el);
    return m ? m[1]! : "";
  });
}

export function clientIp(
  config: Pick<Config, "clientIpHeader" | "clientIpHops">,
  request: Request,
  peer: string | null,
): string | null {
  const name = config.clientIpHeader;
  if (!name) return peer;
  const value = request.headers.get(name);
  // No header: the request did not come through the proxy (a health check, a direct connection).
  if (!value) return peer;
  const entries = entriesOf(name, value);
  // Fewer entries than proxies: every entry was written by a trusted proxy, so the left-most is the client.
  const chosen = entries[Math.max(0, entries.length - config.clientIpHops)] ?? "";
  // A trusted proxy writes an address; anything else means the setting does not match the proxies, and the
  // peer (the proxy itself) is the one address known to be real.
  return addressOf(chosen) ?? peer;
}
