// Times at the terminal are a brand's wall-clock times: a time typed without a zone is read in the brand's zone
// (its slots are in that zone too), and a time shown is shown there, with the zone named.
import { localParts, zonedToUtc } from "../../lib/zoned.ts";

/** A typed time without a zone, to be read in the brand's zone once the brand is known. */
export interface LocalTime {
  raw: string;
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

const pad = (n: number) => String(n).padStart(2, "0");

/** `YYYY-MM-DD HH:MM` (or with a T, or seconds), without a zone or offset; null for anything else. */
export function localTime(raw: string): LocalTime | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2})(?::(\d{2}))?$/.exec(raw.trim());
  if (!m) return null;
  const [year, month, day, hour, minute, second = 0] = m.slice(1).map((v) => Number(v ?? 0)) as number[] as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 59) return null;
  // A date that does not exist (31 April) would roll over silently; refuse it instead.
  const check = new Date(Date.UTC(year, month - 1, day));
  if (check.getUTCMonth() !== month - 1) return null;
  return { raw: raw.trim(), year, month, day, hour, minute, second };
}

/** The UTC instant (RFC 3339) of a local time in an IANA zone. */
export function utcOf(t: LocalTime, tz: string): string {
  const ms = zonedToUtc(t.year, t.month, t.day, t.hour, t.minute, tz) + t.second * 1000;
  return new Date(ms).toISOString().replace(".000Z", "Z");
}

/** `2026-12-01 09:00 Europe/Paris`: an instant as the brand's wall clock shows it. */
export function inZone(iso: string, tz: string): string {
  const p = localParts(Date.parse(iso), tz);
  return `${p.year}-${pad(p.month)}-${pad(p.day)} ${pad(p.hour)}:${pad(p.minute)} ${tz}`;
}
