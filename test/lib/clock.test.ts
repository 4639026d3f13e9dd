// Times in answers: ISO 8601 in UTC with milliseconds, the same however often and in whatever order they come.
import { describe, expect, test } from "bun:test";
import { iso, isoOrNull } from "../../src/lib/clock.ts";

describe("iso", () => {
  test("formats as Date#toISOString, for more distinct times in turn than it remembers", () => {
    const times = [0, 1767607200000, 1767607200001, 1767610800000, 1767614400000, 1767618000000, -1];
    for (let round = 0; round < 3; round++)
      for (const ms of [...times, ...times.toReversed()]) expect(iso(ms)).toBe(new Date(ms).toISOString());
  });

  test("an invalid time still throws, and null stays null", () => {
    expect(() => iso(Number.NaN)).toThrow(RangeError);
    expect(() => iso(8.64e15 + 1)).toThrow(RangeError);
    expect(isoOrNull(null)).toBeNull();
    expect(isoOrNull(undefined)).toBeNull();
  });
});
