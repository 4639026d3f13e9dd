// IDs: prefix + 26 lowercase Crockford base32 characters of a UUIDv7, sorting by creation time.
import { describe, expect, test } from "bun:test";
import { idAtTime, isId, newId } from "../../src/lib/ids.ts";

const ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz";
/** The millisecond timestamp in an ID: its first 10 characters are 2 zero bits and the 48-bit time. */
const timeOf = (id: string) =>
  [...id.slice(id.indexOf("_") + 1, id.indexOf("_") + 11)].reduce((n, c) => n * 32 + ALPHABET.indexOf(c), 0);

describe("ids", () => {
  test("the time reads back from the ID, and the first character is 0-7", () => {
    for (const ms of [0, 1, 1767607200000, 2 ** 47, 2 ** 48 - 1]) {
      const id = idAtTime("post", ms);
      expect(timeOf(id)).toBe(ms);
      expect(id).toMatch(/^post_[0-7][0-9a-hjkmnp-tv-z]{25}$/);
    }
    const now = Date.now();
    expect(timeOf(newId("evt", now))).toBe(now);
  });

  test("IDs made one after another sort in creation order, within a millisecond too", () => {
    const ids = Array.from({ length: 10_000 }, () => newId("evt", 1767607200000));
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.every((id) => isId("evt", id))).toBe(true);
  });

  test("every bit of the UUIDv7 is written: its version and variant read back in place", () => {
    for (let i = 0; i < 1000; i++) {
      // 130 bits from the 26 characters; the UUID's bit b is bit b + 2 of them.
      const bits = [...newId("att").slice(4)]
        .map((c) => ALPHABET.indexOf(c).toString(2).padStart(5, "0"))
        .join("")
        .slice(2);
      expect(bits.slice(48, 52)).toBe("0111"); // version 7
      expect(bits.slice(64, 66)).toBe("10"); // RFC 4122 variant
    }
  });

  test("isId checks the prefix and the shape", () => {
    const id = newId("brand");
    expect(isId("brand", id)).toBe(true);
    expect(isId("post", id)).toBe(false);
    expect(isId("brand", `${id}x`)).toBe(false);
    expect(isId("brand", id.replace(/.$/, "u"))).toBe(false);
    expect(isId("brand", `brand_8${id.slice(7)}`)).toBe(false);
  });
});

describe("ids across clocks", () => {
  test("an ID made for a far future time does not hold later IDs there", () => {
    newId("evt", Date.parse("2030-01-01T00:00:00Z"));
    const now = Date.now();
    expect(timeOf(newId("evt", now))).toBe(now);
  });
});
