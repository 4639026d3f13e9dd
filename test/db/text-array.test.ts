// Array literals of texts quoted natively (src/db/text-array.ts) are the very literals pg would send, for every
// kind of text, and Postgres reads them back as the texts given. The events' JSON texts go to Postgres this way.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { sql } from "kysely";
import pgUtils from "pg/lib/utils.js";
import type { Database } from "../../src/db/index.ts";
import { insertEvents } from "../../src/db/sql/insert-events.ts";
import { bindRows } from "../../src/db/sql/statement.ts";
import { allTexts, textArrayLiteral } from "../../src/db/text-array.ts";
import { dialects, freshDatabase } from "../helpers/db.ts";

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

describe("textArrayLiteral", () => {
  test("writes what pg writes for the same array", () => {
    const withNulls = [...TEXTS, null, "after null"];
    expect(textArrayLiteral(withNulls)).toBe(pgUtils.prepareValue(withNulls) as string);
    for (const t of TEXTS) expect(textArrayLiteral([t])).toBe(pgUtils.prepareValue([t]) as string);
    expect(textArrayLiteral([])).toBe("{}");
  });

  test("only arrays of texts (or nulls) take the native path", () => {
    expect(allTexts(["a", null, undefined])).toBe(true);
    expect(allTexts(["a", 1])).toBe(false);
    expect(allTexts([true])).toBe(false);
  });
});

if (dialects.includes("postgres"))
  describe("textArrayLiteral on Postgres", () => {
    let db: Database;
    let drop: () => Promise<void>;
    beforeAll(async () => {
      ({ database: db, drop } = await freshDatabase("postgres"));
    });
    afterAll(async () => {
      await db.close();
      await drop();
    });

    test("reads back as the texts given", async () => {
      // Postgres texts hold no NUL, and UTF-8 no lone surrogate (the client sends U+FFFD for one, however quoted).
      const given = TEXTS.filter((t) => !t.includes("\u0000") && t.isWellFormed());
      const r = await sql<{ t: string | null; n: string }>`SELECT t, n FROM unnest(${textArrayLiteral([
        ...given,
        null,
      ])}::text[]) WITH ORDINALITY AS a(t, n) ORDER BY n`.execute(db.db);
      expect(r.rows.map((x) => x.t)).toEqual([...given, null]);
    });

    test("an events insert binds its JSON texts as one literal", () => {
      const data = JSON.stringify({ object: { text: 'quote " and \\' } });
      const { params } = bindRows("postgres", insertEvents, [
        {
          id: "evt_1",
          org_id: "org_1",
          livemode: 0,
          type: "post.created",
          request_id: null,
          data,
          created_at: 1,
        },
      ]);
      expect(params).toEqual([
        '{"evt_1"}',
        '{"org_1"}',
        [0],
        '{"post.created"}',
        "{NULL}",
        `{${JSON.stringify(data)}}`,
        [1],
      ]);
    });
  });
