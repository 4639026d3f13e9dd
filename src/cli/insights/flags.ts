// What `svc ads` and `svc analytics` share: connect fields given as --field name=value, and amounts in a
// currency's minor unit shown as money in tables.
import { UsageError } from "../output.ts";

export function fieldsOf(given: string[] | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const f of given ?? []) {
    const at = f.indexOf("=");
    if (at < 1) throw new UsageError(`--field takes name=value, got ${JSON.stringify(f)}`);
    out[f.slice(0, at)] = f.slice(at + 1);
  }
  return out;
}

/** 123456 minor units of USD → "$1,234.56" (the currency's own decimals). */
export function money(minor: number, currency: string): string {
  try {
    const f = new Intl.NumberFormat("en", { style: "currency", currency });
    const digits = f.resolvedOptions().maximumFractionDigits ?? 2;
    return f.format(minor / 10 ** digits);
  } catch {
    return `${minor} ${currency}`;
  }
}

export const WINDOW_HELP =
  "  --since DATE      first day (YYYY-MM-DD; default 29 days before --until)\n  --until DATE      last day (default today)";
