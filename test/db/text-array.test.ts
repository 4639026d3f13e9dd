// Array parameters of plain SQL go to Postgres as literals quoted natively (src/db/text-array.ts, applied by raw()):
// the very literals pg would send, for every kind of text and number, read back by Postgres as the values given.
// The events' JSON texts, the worker's ID lists and the engagement rows' columns go to Postgres this way.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import pgUtils from "pg/lib/utils.js";
import type { Database } from "../../src/db/index.ts";
import { raw } from "../../src/db/raw.ts";
import { insertEvents } from "../../src/db/sql/insert-events.ts";
import { runRows } from "../../src/db/sql/statement.ts";
import { arrayLiteral, withArrayLiterals } from "../../src/db/text-array.ts";
import { describeEachDialect, dialects, freshDatabase } from "../helpers/db.ts";

const TEXTS = [
  "",
  "plain",
  "NULL",
  'say "hi"',
  'back\\slash and \\" both',
  "{braces},commas",
  "line\nbreak\ttab\rreturn",
  "\u0000\u0001 control",
  "émoji 🎉 and 中文",
  "lone \ud800 surrogate",
  "lone low \udc00",
  JSON.stringify({ object: { text: 'He said "no" \\ then\nleft 🎉', n: 1, x: null } }),
  " spaces around ",
];
const NUMBERS = [0, -0, 1, -3, 1.5, 1e21, 2 ** 53 + 2, Number.NaN, Number.POSITIVE_INFINITY];

describe("arrayLiteral", () => {
  test("writes what pg writes for the same array", () => {
    const arrays: unknown[][] = [
      [...TEXTS, null, "after null", undefined],
      NUMBERS,
      [12345678901234567890n, -1n],
      [true, false, null],
      ["text", 1, true, null],
      [],
    ];
    for (const a of arrays) expect(arrayLiteral(a)).toBe(pgUtils.prepareValue(a) as string);
    for (const t of TEXTS) expect(arrayLiteral([t])).toBe(pgUtils.prepareValue([t]) as string);
  });

  test("leaves to pg the arrays whose elements it formats its own way", () => {
    expect(arrayLiteral([new Date(0)])).toBeUndefined();
    expect(arrayLiteral(["a", Buffer.from("b")])).toBeUndefined();
    expect(arrayLiteral([["nested"]])).toBeUndefined();
    expect(arrayLiteral([{ a: 1 }])).toBeUndefined();
  });
});

describe("withArrayLiterals", () => {
  test("replaces the arrays it can write and keeps everything else as given", () => {
    const date = [new Date(0)];
    const given = ["a", 1, null, ["x", 'y"'], [1, 2], date];
    const out = withArrayLiterals(given);
    expect(out).toEqual(["a", 1, null, '{"x","y\\""}', '{"1","2"}', date]);
    expect(out[5]).toBe(date);
    expect(given[3]).toEqual(["x", 'y"']); // the caller's parameters are not changed
  });

  test("gives the same parameters back when there is no array to write", () => {
    const given = ["a", 1, null, [new Date(0)]];
    expect(withArrayLiterals(given)).toBe(given);
  });
});

if (dialects.includes("postgres"))
  describe("array parameters on Postgres", () => {
    let db: Database;
    let drop: () => Promise<void>;
    beforeAll(async () => {
      ({ database: db, drop } = await freshDatabase("postgres"));
    });
    afterAll(async () => {
      await db.close();
      await drop();
    });

    test("texts read back as given", async () => {
      // Postgres texts hold no NUL, and UTF-8 no lone surrogate (the client sends U+FFFD for one, however quoted).
      const given = [...TEXTS.filter((t) => !t.includes("\u0000") && t.isWellFormed()), null];
      const r = await raw<{ t: string | null }>(
        db.db,
        "postgres",
        "SELECT t FROM unnest(?::text[]) WITH ORDINALITY AS a(t, n) ORDER BY n",
        [given],
      );
      expect(r.map((x) => x.t)).toEqual(given);
    });

    test("numbers read back as given, and an ID list matches with = ANY", async () => {
      const r = await raw<{ b: string | null; d: number | null; hit: boolean }>(
        db.db,
        "postgres",
        "SELECT b::text, d, ? = ANY(?::text[]) AS hit FROM unnest(?::bigint[], ?::float8[]) AS a(b, d)",
        ["tgt_2", ["tgt_1", "tgt_2"], [2 ** 53 + 2, -3, null], [1.5, -2.25, 1e21]],
      );
      expect(r.map((x) => x.b)).toEqual([String(2 ** 53 + 2), "-3", null]);
      expect(r.map((x) => Number(x.d))).toEqual([1.5, -2.25, 1e21]);
      expect(r.every((x) => x.hit)).toBe(true);
    });
  });

describeEachDialect("an events insert", (dialect) => {
  let db: Database;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    ({ database: db, drop } = await freshDatabase(dialect));
  });
  afterAll(async () => {
    await db.close();
    await drop();
  });

  test("stores each event's JSON text as written, quotes and backslashes included", async () => {
    const datas = [
      JSON.stringify({ object: { text: 'quote " and \\ and {braces},commas' } }),
      JSON.stringify({ object: { text: "line\nbreak, tab\t, émoji 🎉, NULL" } }),
    ];
    await runRows(
      db.db,
      dialect,
      insertEvents,
      datas.map((data, i) => ({
        id: `evt_${i}`,
        org_id: "org_1",
        livemode: 0 as const,
        type: "post.created",
        request_id: i === 0 ? null : 'req "1"',
        data,
        created_at: 1 + i,
      })),
    );
    const r = await raw<{ id: string; data: string; request_id: string | null }>(
      db.db,
      dialect,
      "SELECT id, data, request_id FROM events ORDER BY id",
      [],
    );
    expect(r).toEqual([
      { id: "evt_0", data: datas[0]!, request_id: null },
      { id: "evt_1", data: datas[1]!, request_id: 'req "1"' },
    ]);
  });
});
