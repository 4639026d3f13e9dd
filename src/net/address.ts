// What kind of address a host resolved to. Only globally routable unicast counts as public; everything else
// (loopback, RFC 1918, CGNAT, unique-local, link-local, multicast, unspecified, broadcast, documentation and other
// reserved ranges) is refused unless an allow setting says otherwise. IPv6 forms that carry an IPv4 address
// (IPv4-compatible ::a.b.c.d, ::ffff:a.b.c.d, ::ffff:0:a.b.c.d, NAT64 64:ff9b::/96, 6to4 2002::/16, Teredo
// 2001::/32) are judged by the IPv4 address inside, so ::127.0.0.1 and ::ffff:127.0.0.1 are loopback,
// [::169.254.169.254] is link-local, and a DNS64 answer for a public host stays public.

import ipaddr from "ipaddr.js";

export type IpAddress = ipaddr.IPv4 | ipaddr.IPv6;

/** "public", "link_local", or the name of the non-public range (for messages and logs). */
export type AddressClass = "public" | "link_local" | string;

/** Parses a bare IP address (no brackets, no port, no zone), strictly: no "0x7f.1" or "2130706433" forms. */
export function parseIp(text: string): IpAddress | undefined {
  const bare = text.startsWith("[") && text.endsWith("]") ? text.slice(1, -1) : text;
  if (ipaddr.IPv4.isValidFourPartDecimal(bare)) return ipaddr.IPv4.parse(bare);
  if (bare.includes(":") && !bare.includes("%") && ipaddr.IPv6.isValid(bare)) return ipaddr.IPv6.parse(bare);
  return undefined;
}

/** The IPv4 address an IPv6 address stands for, when it is one of the embedding forms. */
export function embeddedIPv4(addr: ipaddr.IPv6): ipaddr.IPv4 | undefined {
  const range = addr.range();
  const b = addr.toByteArray();
  // IPv4-compatible ::a.b.c.d (::/96, deprecated but still routed to a.b.c.d by some stacks). :: and ::1 keep
  // their own meaning (unspecified, loopback), both non-public anyway.
  if (b.slice(0, 12).every((x) => x === 0) && range !== "unspecified" && range !== "loopback") {
    return ipaddr.IPv4.parse(b.slice(12, 16).join("."));
  }
  // Teredo 2001:0::/32: the client's IPv4 address is the last 32 bits, inverted (RFC 4380 section 4).
  if (range === "teredo")
    return ipaddr.IPv4.parse(
      b
        .slice(12, 16)
        .map((x) => x ^ 0xff)
        .join("."),
    );
  if (range === "ipv4Mapped" || range === "rfc6145") return ipaddr.IPv4.parse(b.slice(12, 16).join("."));
  // Only the well-known NAT64 prefix has the IPv4 address in the last 32 bits; 64:ff9b:1::/48 is local-use.
  if (range === "rfc6052" && addr.match(ipaddr.IPv6.parse("64:ff9b::"), 96)) {
    return ipaddr.IPv4.parse(b.slice(12, 16).join("."));
  }
  if (range === "6to4") return ipaddr.IPv4.parse(b.slice(2, 6).join("."));
  return undefined;
}

/** Reduces an address to the one that decides its class: the embedded IPv4 address if any, else itself. */
export function effectiveAddress(addr: IpAddress): IpAddress {
  if (addr.kind() === "ipv6") return embeddedIPv4(addr as ipaddr.IPv6) ?? addr;
  return addr;
}

export function classify(addr: IpAddress): AddressClass {
  const range = effectiveAddress(addr).range();
  if (range === "unicast") return "public";
  if (range === "linkLocal") return "link_local";
  return range;
}
