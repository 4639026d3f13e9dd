import { describe, expect, test } from "bun:test";
import { type TemplateSourceInput, validateSource } from "../../../src/domain/templates/source.ts";

const rules = { isProvider: (name: string) => ["bluesky", "mastodon", "x"].includes(name) };

/** A sound release template: the base that each test breaks in one way. */
const release = (): TemplateSourceInput => ({
  variables: {
    type: "object",
    properties: {
      version: { type: "string" },
      url: { type: "string" },
      notes: { type: "string" },
    },
    required: ["version", "url"],
  },
  examples: [
    { version: "1.2.0", url: "https://example.com/1.2.0" },
    { version: "2.0", url: "u", notes: "Big." },
  ],
  body: "Release {{.version}} is out: {{.url}}\n{{if .notes}}\n{{thread}}\n{{.notes}}\n{{end}}",
  overrides: { x: "v{{.version}} {{.url}}" },
  fit: { x: "thread", bluesky: "truncate" },
});

/** Problems as "code param". */
const codes = (source: TemplateSourceInput) =>
  validateSource(source, rules).map((p) => `${p.code} ${p.param}`);

describe("validateSource", () => {
  test("a sound source has no problems", () => {
    expect(validateSource(release(), rules)).toEqual([]);
  });

  test("body required and non-empty; an empty override is refused too", () => {
    expect(codes({ ...release(), body: undefined })).toEqual(["body_missing body"]);
    expect(codes({ ...release(), body: "  \n " })).toEqual(["body_missing body"]);
    expect(codes({ ...release(), overrides: { mastodon: "" } })).toEqual(["body_missing overrides.mastodon"]);
  });

  test("variables must be a valid 2020-12 object schema", () => {
    expect(codes({ ...release(), variables: undefined })).toEqual(["variables_invalid variables"]);
    expect(codes({ ...release(), variables: { type: "string" } })).toEqual(["variables_invalid variables"]);
    const [problem] = validateSource(
      { ...release(), variables: { type: "object", properties: { version: { type: "text" } } } },
      rules,
    );
    expect(problem?.code).toBe("variables_invalid");
    expect(problem?.message).toBe(
      "Variables is not a valid JSON Schema 2020-12: `variables.properties.version.type` " +
        "must be equal to one of the allowed values.",
    );
    const [unresolved] = validateSource(
      { ...release(), variables: { type: "object", properties: { a: { $ref: "https://example.com/s" } } } },
      rules,
    );
    expect(unresolved?.message).toBe(
      "Variables cannot be compiled as JSON Schema 2020-12: can't resolve reference https://example.com/s from id #.",
    );
  });

  test("at least one example", () => {
    expect(codes({ ...release(), examples: [] })).toEqual(["example_required examples"]);
    expect(codes({ ...release(), examples: undefined })).toEqual(["example_required examples"]);
  });

  test("each example must match the variables, with ajv's findings in detail", () => {
    const examples = [{ version: "1" }, { version: "1", url: "u" }, { version: 2, url: "u", extra: true }];
    const problems = validateSource({ ...release(), examples }, rules);
    expect(problems).toEqual([
      {
        code: "example_invalid",
        message: "Example does not match variables: `examples.0.url` is required.",
        param: "examples.0",
        detail: {
          errors: [{ path: "examples.0.url", message: "`examples.0.url` is required.", keyword: "required" }],
        },
      },
      {
        code: "example_invalid",
        message: "Example does not match variables: `examples.2.version` must be string.",
        param: "examples.2",
        detail: {
          errors: [
            { path: "examples.2.version", message: "`examples.2.version` must be string.", keyword: "type" },
          ],
        },
      },
    ]);
  });

  test("each example must render through the body and every override", () => {
    const source = {
      ...release(),
      variables: {
        type: "object",
        properties: {
          version: { type: "string" },
          url: { type: "string" },
          notes: { type: "string" },
          meta: { type: "object" },
        },
        required: ["version", "url", "meta"],
      },
      examples: [{ version: "1", url: "u", meta: {} }],
      overrides: { mastodon: "{{.meta}}" },
    };
    expect(validateSource(source, rules)).toEqual([
      {
        code: "render_failed",
        message:
          "Example `examples.0` in `overrides.mastodon`: `.meta` at line 1, column 1 cannot be printed: " +
          "it is an object. Print one of its fields instead, as in `{{.field.name}}`.",
        param: "examples.0",
        detail: { path: ".meta", line: 1, column: 1, template: "overrides.mastodon" },
      },
    ]);
  });

  test("an example over 64 KiB is data_too_large", () => {
    const examples = [{ version: "1", url: "x".repeat(70_000) }];
    expect(codes({ ...release(), examples })).toEqual(["data_too_large examples.0"]);
  });

  test("syntax and static checks for the body and each override, each under its own param", () => {
    const source = {
      ...release(),
      body: "{{if .url}}",
      overrides: { x: "{{.notes}}", mastodon: "{{.nope}}" },
    };
    expect(codes(source)).toEqual([
      "template_syntax body",
      "variable_unguarded overrides.x",
      "variable_missing overrides.mastodon",
    ]);
  });

  test("fit values and provider names in overrides and fit", () => {
    const source = {
      ...release(),
      overrides: { myspace: "{{.url}}" },
      fit: { x: "shrink", friendster: "error" },
    };
    expect(codes(source)).toEqual([
      "provider_unknown overrides.myspace",
      "fit_invalid fit.x",
      "provider_unknown fit.friendster",
    ]);
  });

  test("every problem at once, never only the first", () => {
    const source: TemplateSourceInput = {
      variables: { type: "array" },
      examples: [],
      body: "",
      overrides: { x: "{{end}}", orkut: "{{.version}}" },
      fit: { x: 3 },
    };
    expect(codes(source)).toEqual([
      "variables_invalid variables",
      "body_missing body",
      "template_syntax overrides.x",
      "provider_unknown overrides.orkut",
      "fit_invalid fit.x",
      "example_required examples",
    ]);
  });
});
