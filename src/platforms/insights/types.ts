// What ad networks and web-analytics tools have in common as svc reads them: a connection checked once with the
// network, then daily reads of whole days. Each read ends in one of three outcomes, and svc's handling follows
// from it: `refused` (the credentials no longer work: the account needs reauth), `unavailable` (the network could
// not answer now: try again later) or the rows.
import type { ConnectField } from "../types.ts";

export type Refusal = { kind: "refused"; message: string } | { kind: "unavailable"; message: string };

export interface Credentials {
  settings: Record<string, string>;
  secrets: Record<string, string>;
  signal?: AbortSignal;
}

/** The part of a provider that may be shown before it is loaded: its name, mode and connect fields. */
export interface ProviderInfo {
  /** The network or provider key (`sandbox`, `meta`, `plausible`, `ga4`). */
  key: string;
  name: string;
  /** false: test mode only (the sandboxes); true: live mode only. */
  livemode: boolean;
  connect_fields: ConnectField[];
  /** Where its API is documented, for the docs page and error messages. */
  docs: string;
}

/** Calendar days from `since` to `until`, both YYYY-MM-DD and included. */
export function daysBetween(since: string, until: string): string[] {
  const out: string[] = [];
  for (let d = Date.parse(`${since}T00:00:00Z`); d <= Date.parse(`${until}T00:00:00Z`); d += 86_400_000)
    out.push(new Date(d).toISOString().slice(0, 10));
  return out;
}

export const field = (
  name: string,
  label: string,
  help: string,
  opts: { secret?: boolean; optional?: boolean; default?: string | null } = {},
): ConnectField => ({
  name,
  label,
  help,
  secret: opts.secret ?? false,
  optional: opts.optional ?? false,
  default: opts.default ?? null,
});
