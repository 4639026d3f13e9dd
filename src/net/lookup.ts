// The address check at connection time. node:http calls `lookup` when it opens a socket to a hostname; ours
// resolves the name, refuses the connection unless every answer passes the allow setting, and hands node the
// checked answers, so the address connected to is the address checked (a rebinding DNS server gains nothing).
// IP literals never reach `lookup`, so requests check them before connecting.

import type { LookupAddress } from "node:dns";
import { type IpAddress, parseIp } from "./address.ts";
import { type AllowSetting, allowHint, checkAddress } from "./allow.ts";
import { OutboundError, originOf } from "./errors.ts";

export interface ResolvedAddress {
  address: string;
  family: number;
}

/** Resolves a hostname to its addresses. Injected in tests; the default asks the system resolver. */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

// node:dns loads with the first name resolved (about 1.5 MiB at start otherwise).
export const systemResolver: Resolver = (hostname) =>
  (require("node:dns") as typeof import("node:dns")).promises.lookup(hostname, { all: true });

function blocked(
  url: URL | string,
  addressClass: string,
  viaName: boolean,
  allow: AllowSetting,
): OutboundError {
  const origin = typeof url === "string" ? url : originOf(url);
  const what = viaName ? "resolves to" : "is";
  const setting = allow.name ?? "this setting";
  return new OutboundError(
    "blocked_address",
    `${origin} ${what} a non-public address (${addressClass}) that ${setting} does not allow; ${allowHint(allow, addressClass)}`,
  );
}

/** Checks a URL whose host is an IP literal; returns false when the host is a name (checked at lookup). */
export function checkLiteralHost(url: URL, allow: AllowSetting): boolean {
  // The verdict on a literal depends on nothing else than the literal and the setting: kept, so a client sending
  // to one address again and again (token renewals, webhooks) parses and classifies it once.
  const key = `${allow.source}\n${url.hostname}`;
  let verdict = literalVerdicts.get(key);
  if (verdict === undefined) {
    const literal = parseIp(url.hostname);
    verdict = literal ? checkAddress(allow, undefined, literal) : null;
    if (literalVerdicts.size >= LITERAL_VERDICTS) literalVerdicts.clear();
    literalVerdicts.set(key, verdict);
  }
  if (verdict === null) return false;
  if (!verdict.ok) throw blocked(url, verdict.addressClass, false, allow);
  return true;
}

/** Verdicts on hosts by allow setting and host (null: a name, checked at lookup); at most this many kept. */
const literalVerdicts = new Map<string, ReturnType<typeof checkAddress> | null>();
const LITERAL_VERDICTS = 1024;

/** Resolves `hostname` and checks every answer; throws OutboundError unless all pass. */
export async function resolveChecked(
  hostname: string,
  allow: AllowSetting,
  resolve: Resolver,
  label: string = hostname,
): Promise<{ address: string; family: 4 | 6 }[]> {
  const literal = parseIp(hostname);
  if (literal) {
    const verdict = checkAddress(allow, undefined, literal);
    if (!verdict.ok) throw blocked(label, verdict.addressClass, false, allow);
    return [{ address: literal.toString(), family: literal.kind() === "ipv4" ? 4 : 6 }];
  }
  let answers: ResolvedAddress[];
  try {
    answers = await resolve(hostname);
  } catch (err) {
    const code = typeof err === "object" && err !== null && "code" in err ? String(err.code) : "";
    const reason = code === "EAI_AGAIN" ? "DNS lookup failed temporarily" : "host not found";
    throw new OutboundError("connection", `${label}: ${reason}`, { cause: err });
  }
  const checked: { address: string; family: 4 | 6 }[] = [];
  for (const answer of answers) {
    const addr: IpAddress | undefined = parseIp(answer.address);
    if (!addr) throw new OutboundError("connection", `${label}: resolver returned an unusable address`);
    const verdict = checkAddress(allow, hostname, addr);
    if (!verdict.ok) throw blocked(label, verdict.addressClass, true, allow);
    checked.push({ address: addr.toString(), family: addr.kind() === "ipv4" ? 4 : 6 });
  }
  if (checked.length === 0) throw new OutboundError("connection", `${label}: host not found`);
  return checked;
}

type LookupCallback = (err: Error | null, address: string | LookupAddress[], family?: number) => void;

/** A `lookup` for node:http/net that only ever yields checked addresses. */
export function guardedLookup(allow: AllowSetting, resolve: Resolver, label: (hostname: string) => string) {
  return (hostname: string, options: unknown, callback: LookupCallback): void => {
    const opts =
      typeof options === "object" && options !== null ? (options as { all?: boolean; family?: unknown }) : {};
    const family =
      typeof options === "number" ? options : opts.family === 4 || opts.family === 6 ? opts.family : 0;
    resolveChecked(hostname, allow, resolve, label(hostname)).then(
      (addresses) => {
        const wanted = family ? addresses.filter((a) => a.family === family) : addresses;
        const first = wanted[0];
        if (!first) {
          callback(new OutboundError("connection", `${label(hostname)}: no IPv${family} address`), "", 0);
        } else if (opts.all) {
          callback(null, wanted);
        } else {
          callback(null, first.address, first.family);
        }
      },
      (err: Error) => callback(err, "", 0),
    );
  };
}
