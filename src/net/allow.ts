// The allow settings SVC_ALLOW_PRIVATE_NETWORKS and SVC_ALLOW_PRIVATE_WEBHOOKS: which non-public addresses the
// guarded client may reach. Unset or "false" allows none; "true" allows every non-public address except
// link-local (169.254/16, fe80::/10, where cloud metadata services live); anything else is a comma list of
// hostnames and CIDRs. A hostname entry allows whatever that exact name resolves to (except link-local); a CIDR
// entry allows addresses inside it, and link-local only when the CIDR lies wholly inside a link-local range, so
// "0.0.0.0/0" never opens the metadata service by accident.

import ipaddr from "ipaddr.js";
import { classify, effectiveAddress, type IpAddress, parseIp } from "./address.ts";

export interface AllowSetting {
  /**
   * The setting's name (SVC_ALLOW_PRIVATE_WEBHOOKS, SVC_ALLOW_PRIVATE_NETWORKS), null when a caller gave bare
   * text. Every refusal names it, so whoever reads the error knows which setting would allow the address.
   */
  readonly name: string | null;
  /** Canonical text of the setting; equal settings have equal sources (used to share connection pools). */
  readonly source: string;
  /** "true": every non-public address except link-local. */
  readonly allPrivate: boolean;
  /** Lower-case hostnames without a trailing dot. */
  readonly hosts: ReadonlySet<string>;
  readonly cidrs: readonly (readonly [IpAddress, number])[];
}

export class AllowSettingError extends Error {
  readonly entry: string;
  constructor(name: string, entry: string, why: string) {
    super(`${name}: ${JSON.stringify(entry)} ${why}`);
    this.name = "AllowSettingError";
    this.entry = entry;
  }
}

export const NOTHING_ALLOWED: AllowSetting = Object.freeze({
  name: null,
  source: "false",
  allPrivate: false,
  hosts: new Set<string>(),
  cidrs: [],
});

const ALL_PRIVATE: AllowSetting = Object.freeze({
  name: null,
  source: "true",
  allPrivate: true,
  hosts: new Set<string>(),
  cidrs: [],
});

const LABEL = /^(?!-)[a-z0-9_-]{1,63}(?<!-)$/;

/**
 * Parses an allow setting. `name` is the setting's name for the error message (e.g. "SVC_ALLOW_PRIVATE_WEBHOOKS").
 * Throws AllowSettingError naming the first bad entry.
 */
export function parseAllowSetting(raw: string | undefined, settingName?: string): AllowSetting {
  const name = settingName ?? "allow setting";
  const named = (s: AllowSetting): AllowSetting =>
    settingName === undefined ? s : Object.freeze({ ...s, name: settingName });
  const text = (raw ?? "").trim();
  if (text === "" || text.toLowerCase() === "false") return named(NOTHING_ALLOWED);
  if (text.toLowerCase() === "true") return named(ALL_PRIVATE);

  const hosts = new Set<string>();
  const cidrs = new Map<string, readonly [IpAddress, number]>();
  for (const part of text.split(",")) {
    const entry = part.trim();
    if (entry === "") continue;
    if (entry.includes("://")) {
      throw new AllowSettingError(
        name,
        entry,
        "is not a hostname or CIDR (give a bare name such as mastodon.internal)",
      );
    }
    const cidr = parseCidrEntry(entry, name);
    if (cidr) {
      cidrs.set(`${cidr[0].toNormalizedString()}/${cidr[1]}`, cidr);
      continue;
    }
    hosts.add(parseHostEntry(entry, name));
  }
  if (hosts.size === 0 && cidrs.size === 0) return named(NOTHING_ALLOWED);
  const source = [...[...hosts].sort(), ...[...cidrs.keys()].sort()].join(",");
  return Object.freeze({
    name: settingName ?? null,
    source,
    allPrivate: false,
    hosts,
    cidrs: [...cidrs.values()],
  });
}

export const PRIVATE_WEBHOOKS = "SVC_ALLOW_PRIVATE_WEBHOOKS";
export const PRIVATE_NETWORKS = "SVC_ALLOW_PRIVATE_NETWORKS";

const parsed = new Map<string, AllowSetting>();

function cachedSetting(name: string, raw: string | null): AllowSetting {
  const key = `${name}=${raw ?? ""}`;
  let setting = parsed.get(key);
  if (!setting) {
    setting = parseAllowSetting(raw ?? undefined, name);
    parsed.set(key, setting);
  }
  return setting;
}

/**
 * SVC_ALLOW_PRIVATE_WEBHOOKS, named: webhook deliveries and what a tenant asks svc to fetch by URL (media, link
 * cards). Config validated the text at start, so parsing cannot fail here.
 */
export const webhooksAllow = (config: { allowPrivateWebhooks: string | null }): AllowSetting =>
  cachedSetting(PRIVATE_WEBHOOKS, config.allowPrivateWebhooks);

/** SVC_ALLOW_PRIVATE_NETWORKS, named: network adapters, including a self-hosted server a channel names. */
export const networksAllow = (config: { allowPrivateNetworks: string | null }): AllowSetting =>
  cachedSetting(PRIVATE_NETWORKS, config.allowPrivateNetworks);

/** What to change so an address of this class is allowed, for the message that refuses it. */
export function allowHint(setting: AllowSetting, addressClass: string): string {
  const name = setting.name ?? "the allow setting";
  if (addressClass === "link_local")
    return `${name} allows link-local addresses only through a CIDR inside 169.254.0.0/16 or fe80::/10`;
  if (setting.name === null) return `to allow it, list the host or its network in ${name}, or set it to true`;
  return `to allow it, list the host or its network in ${name}, or set ${name}=true`;
}

function parseCidrEntry(entry: string, name: string): readonly [IpAddress, number] | undefined {
  const slash = entry.indexOf("/");
  const addrText = slash === -1 ? entry : entry.slice(0, slash);
  const addr = parseIp(addrText);
  if (!addr) {
    if (slash !== -1)
      throw new AllowSettingError(name, entry, "is not a CIDR (expected e.g. 10.0.0.0/8 or fd00::/8)");
    return undefined;
  }
  const max = addr.kind() === "ipv4" ? 32 : 128;
  if (slash === -1) return [addr, max];
  const bitsText = entry.slice(slash + 1);
  const bits = /^\d{1,3}$/.test(bitsText) ? Number(bitsText) : Number.NaN;
  if (!(bits >= 0 && bits <= max)) {
    throw new AllowSettingError(name, entry, `has a prefix length outside 0-${max}`);
  }
  return [addr, bits];
}

function parseHostEntry(entry: string, name: string): string {
  if (/[/:@?#\s]/.test(entry)) {
    throw new AllowSettingError(
      name,
      entry,
      "is not a hostname or CIDR (give a bare name such as mastodon.internal)",
    );
  }
  const host = entry.toLowerCase().replace(/\.$/, "");
  const labels = host.split(".");
  if (host.length > 253 || !labels.every((l) => LABEL.test(l))) {
    throw new AllowSettingError(name, entry, "is not a valid hostname");
  }
  if (/^\d+$/.test(labels[labels.length - 1] ?? "")) {
    throw new AllowSettingError(name, entry, "is not a valid IP address");
  }
  return host;
}

/** Normalises a URL hostname for comparison with hostname entries. */
export function normalizeHost(hostname: string): string {
  const bare = hostname.startsWith("[") && hostname.endsWith("]") ? hostname.slice(1, -1) : hostname;
  return bare.toLowerCase().replace(/\.$/, "");
}

function inCidr(addr: IpAddress, [base, bits]: readonly [IpAddress, number]): boolean {
  return addr.kind() === base.kind() && addr.match(base, bits);
}

const LINK_LOCAL: readonly (readonly [IpAddress, number])[] = [
  [ipaddr.IPv4.parse("169.254.0.0"), 16],
  [ipaddr.IPv6.parse("fe80::"), 10],
];

function cidrWithinLinkLocal([base, bits]: readonly [IpAddress, number]): boolean {
  return LINK_LOCAL.some((ll) => inCidr(base, ll) && bits >= ll[1]);
}

/** The verdict on one resolved address reached through `hostname` (undefined when the URL held an IP literal). */
export type AddressVerdict = { ok: true } | { ok: false; addressClass: string };

export function checkAddress(
  setting: AllowSetting,
  hostname: string | undefined,
  addr: IpAddress,
): AddressVerdict {
  const addressClass = classify(addr);
  if (addressClass === "public") return { ok: true };
  const candidates = [addr, effectiveAddress(addr)];
  const matchingCidrs = setting.cidrs.filter((c) => candidates.some((a) => inCidr(a, c)));
  if (addressClass === "link_local") {
    return matchingCidrs.some(cidrWithinLinkLocal) ? { ok: true } : { ok: false, addressClass };
  }
  if (setting.allPrivate || matchingCidrs.length > 0) return { ok: true };
  if (hostname !== undefined && setting.hosts.has(normalizeHost(hostname))) return { ok: true };
  return { ok: false, addressClass };
}
