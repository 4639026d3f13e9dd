import { describe, expect, test } from "bun:test";
import { Lru } from "../../../src/domain/templates/lru.ts";
import { compileVariables, validateData } from "../../../src/domain/templates/variables.ts";

const variables = {
  type: "object",
  properties: {
    title: { type: "string", maxLength: 10 },
    author: { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
    tags: { type: "array", items: { type: "string" } },
  },
  required: ["title"],
  additionalProperties: false,
};

describe("validateData", () => {
  test("data matching the schema has no problems", () => {
    expect(validateData(variables, { title: "Hello", author: { name: "Ann" }, tags: ["a"] })).toEqual([]);
  });

  test("each finding is data_invalid with param pointing at the field", () => {
    const problems = validateData(variables, {
      title: "far too long a title",
      author: {},
      tags: ["a", 1],
      x: 1,
    });
    expect(problems).toEqual([
      {
        code: "data_invalid",
        message: "`data.x` is not allowed by the schema.",
        param: "data.x",
        detail: { keyword: "additionalProperties" },
      },
      {
        code: "data_invalid",
        message: "`data.title` must NOT have more than 10 characters.",
        param: "data.title",
        detail: { keyword: "maxLength" },
      },
      {
        code: "data_invalid",
        message: "`data.author.name` is required.",
        param: "data.author.name",
        detail: { keyword: "required" },
      },
      {
        code: "data_invalid",
        message: "`data.tags.1` must be string.",
        param: "data.tags.1",
        detail: { keyword: "type" },
      },
    ]);
  });

  test("data over 64 KiB as JSON is data_too_large, before the schema is consulted", () => {
    const data = { title: "é".repeat(32_768) }; // 65,536 bytes of text plus the JSON around it
    expect(validateData(variables, data)).toEqual([
      {
        code: "data_too_large",
        message: "Data is 65548 bytes as JSON, over the limit of 65536 bytes (64 KiB).",
        param: "data",
        detail: { length: 65548, limit: 65536 },
      },
    ]);
  });
});

describe("compileVariables", () => {
  test("a schema is compiled once and found again by its JSON text", () => {
    const first = compileVariables(variables);
    expect(first.ok).toBe(true);
    expect(compileVariables(structuredClone(variables))).toBe(first);
  });

  test("schemas of different templates may share an $id, even the meta-schema's", () => {
    const a = { $id: "https://example.com/release", type: "object", properties: { a: { type: "string" } } };
    const b = { $id: "https://example.com/release", type: "object", properties: { b: { type: "number" } } };
    expect([compileVariables(a).ok, compileVariables(b).ok]).toEqual([true, true]);
    expect(validateData(b, { b: "no" }).map((p) => p.param)).toEqual(["data.b"]);
    const meta = { $id: "https://json-schema.org/draft/2020-12/schema", type: "object" };
    expect(compileVariables(meta).ok).toBe(true);
    expect(compileVariables({ type: "object", properties: { x: { type: "nope" } } }).ok).toBe(false);
  });

  test("another dialect is refused", () => {
    const draft7 = { $schema: "http://json-schema.org/draft-07/schema#", type: "object" };
    const result = compileVariables(draft7);
    expect(result.ok ? [] : result.problems.map((p) => [p.code, p.param])).toEqual([
      ["variables_invalid", "variables"],
    ]);
  });
});

describe("Lru", () => {
  test("forgets the least recently used entry past its capacity", () => {
    const lru = new Lru<string, number>(2);
    lru.set("a", 1);
    lru.set("b", 2);
    expect(lru.get("a")).toBe(1); // a is now the most recent
    lru.set("c", 3);
    expect([lru.get("a"), lru.get("b"), lru.get("c"), lru.size]).toEqual([1, undefined, 3, 2]);
  });
});
