// Time comes from a clock passed in the App, so tests can move it (ARCHITECTURE: fake clock where time matters).
export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/** A clock a test can set and advance; it never moves by itself. */
export class FakeClock implements Clock {
  constructor(private ms: number = Date.parse("2026-01-05T10:00:00Z")) {}
  now(): number {
    return this.ms;
  }
  set(ms: number | string): void {
    this.ms = typeof ms === "string" ? Date.parse(ms) : ms;
  }
  advance(ms: number): void {
    this.ms += ms;
  }
}

// The last few times formatted: a presentation formats the same few (now, publish_at, publish_by) for the post
// and again for each target, and Date#toISOString costs more than looking them up.
const recentMs = [Number.NaN, Number.NaN, Number.NaN, Number.NaN];
const recentIso = ["", "", "", ""];
let nextSlot = 0;

export function iso(ms: number): string {
  for (let i = 0; i < 4; i++) if (recentMs[i] === ms) return recentIso[i]!;
  const text = new Date(ms).toISOString();
  recentMs[nextSlot] = ms;
  recentIso[nextSlot] = text;
  nextSlot = (nextSlot + 1) & 3;
  return text;
}
export const isoOrNull = (ms: number | null | undefined): string | null => (ms == null ? null : iso(ms));
