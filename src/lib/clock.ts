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

export const iso = (ms: number): string => new Date(ms).toISOString();
export const isoOrNull = (ms: number | null | undefined): string | null => (ms == null ? null : iso(ms));
