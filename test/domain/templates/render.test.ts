import { describe, expect, test } from "bun:test";
import { parseTemplate } from "../../../src/domain/templates/language/parse.ts";
import { type RenderResult, renderTemplate, truthy } from "../../../src/domain/templates/language/render.ts";
import { TEMPLATE_LIMIT_BYTES } from "../../../src/domain/templates/limits.ts";

function render(body: string, data: unknown, param?: string): RenderResult {
  const parsed = parseTemplate(body);
  if (!parsed.ok) throw new Error(parsed.problems[0]?.message);
  return renderTemplate(parsed.template, data, param);
}

const parts = (body: string, data: unknown): string[] => {
  const result = render(body, data);
  if (!result.ok) throw new Error(result.problems[0]?.message);
  return result.parts;
};

describe("renderTemplate", () => {
  test("fields, nested fields, and values printed as social text, unescaped", () => {
    const data = { name: "Ann & <Bo>", stats: { stars: 1200, beta: true }, tags: ["a", 2, false] };
    expect(
      parts("{{.name}} has {{.stats.stars}} stars (beta: {{.stats.beta}}), tags {{.tags}}", data),
    ).toEqual(["Ann & <Bo> has 1200 stars (beta: true), tags a, 2, false"]);
  });

  test("if and else follow truthiness", () => {
    const body = "{{if .x}}yes{{else}}no{{end}}";
    for (const falsy of [null, undefined, "", false, 0, []])
      expect(parts(body, { x: falsy })).toEqual(["no"]);
    for (const truthyValue of ["0", 1, true, [0], {}])
      expect(parts(body, { x: truthyValue })).toEqual(["yes"]);
    expect(parts(body, {})).toEqual(["no"]);
    expect([truthy(" "), truthy(-1), truthy(Number.NaN)]).toEqual([true, true, true]);
  });

  test("with moves the dot, and else keeps the outer one", () => {
    const body = "{{with .author}}{{.name}} ({{.}}){{else}}{{.fallback}}{{end}}";
    expect(render("{{with .author}}by {{.name}}{{end}}", { author: { name: "Ann" } })).toEqual({
      ok: true,
      parts: ["by Ann"],
    });
    expect(parts("{{with .tags}}Tags: {{.}}{{end}}", { tags: ["x", "y"] })).toEqual(["Tags: x, y"]);
    expect(parts(body, { fallback: "anonymous" })).toEqual(["anonymous"]);
  });

  test("a declared optional field left out prints as nothing", () => {
    expect(parts("[{{.missing}}] [{{.gone.deeper}}] [{{.nil}}]", { nil: null })).toEqual(["[] [] []"]);
  });

  test("lists skip absent items", () => {
    expect(parts("{{.list}}", { list: ["a", null, "b"] })).toEqual(["a, b"]);
  });

  test("{{thread}} lines split the output into parts, each trimmed of blank edge lines", () => {
    const body = "\n\nFirst {{.n}}\n\n  {{thread}}\n\nSecond\n  indented\n\n{{thread}}\nThird\n\n";
    expect(parts(body, { n: 1 })).toEqual(["First 1", "Second\n  indented", "Third"]);
  });

  test("a thread line inside a block splits only when the block renders", () => {
    const body = "Short version\n{{if .more}}\n{{thread}}\n{{.more}}\n{{end}}";
    expect(parts(body, { more: "The long story." })).toEqual(["Short version", "The long story."]);
    expect(parts(body, {})).toEqual(["Short version"]);
  });

  test("block lines leave no blank lines behind", () => {
    const body = "Release {{.v}}\n{{if .notes}}\nNotes: {{.notes}}\n{{end}}\nThanks!";
    expect(parts(body, { v: "1.2" })).toEqual(["Release 1.2\nThanks!"]);
    expect(parts(body, { v: "1.2", notes: "faster" })).toEqual(["Release 1.2\nNotes: faster\nThanks!"]);
  });

  test("empty parts are dropped, but an empty render still gives one part", () => {
    expect(parts("{{thread}}\nOnly\n{{thread}}\n{{.x}}", {})).toEqual(["Only"]);
    expect(parts("{{if .x}}hidden{{end}}", {})).toEqual([""]);
  });

  test("an object, a list holding an object or a list: render_failed for each", () => {
    const result = render(
      "{{.author}}\n{{with .author}}{{.tags}}{{end}} {{.}}",
      { author: { tags: [["x"]] } },
      "body",
    );
    expect(result).toEqual({
      ok: false,
      problems: [
        {
          code: "render_failed",
          message:
            "`.author` at line 1, column 1 cannot be printed: it is an object. " +
            "Print one of its fields instead, as in `{{.field.name}}`.",
          param: "body",
          detail: { path: ".author", line: 1, column: 1 },
        },
        {
          code: "render_failed",
          message:
            "`.tags` at line 2, column 17 cannot be printed: it has a list at index 0. " +
            "Print one of its fields instead, as in `{{.field.name}}`.",
          param: "body",
          detail: { path: ".tags", line: 2, column: 17 },
        },
        {
          code: "render_failed",
          message:
            "`.` at line 2, column 34 cannot be printed: it is an object. " +
            "Print one of its fields instead, as in `{{.field.name}}`.",
          param: "body",
          detail: { path: ".", line: 2, column: 34 },
        },
      ],
    });
  });

  test("output over 64 KiB of UTF-8 is output_too_large", () => {
    // 4 bytes each in UTF-8 though 2 UTF-16 units: the limit counts bytes.
    const emoji = "😀".repeat(TEMPLATE_LIMIT_BYTES / 4 / 2);
    expect(parts("{{.e}}{{.e}}", { e: emoji })[0]).toHaveLength(TEMPLATE_LIMIT_BYTES / 2);
    const result = render("{{.e}}{{.e}}!", { e: emoji }, "overrides.x");
    expect(result).toEqual({
      ok: false,
      problems: [
        {
          code: "output_too_large",
          message: "Rendered text is over the limit of 65536 bytes (64 KiB) of UTF-8.",
          param: "overrides.x",
          detail: { limit: 65536 },
        },
      ],
    });
  });

  test("a short body repeating large data stops at the limit instead of building it all", () => {
    const big = "x".repeat(60_000);
    const started = performance.now();
    const result = render("{{.big}}".repeat(100_000), { big });
    expect(result.ok ? [] : result.problems.map((p) => p.code)).toEqual(["output_too_large"]);
    // Building it all would be 6 GB of text: minutes, or out of memory. Stopping at 64 KiB takes well under this
    // bound even on a loaded machine; the bound tells the two behaviours apart, it is not a speed goal.
    expect(performance.now() - started).toBeLessThan(5000);
  });

  test("only the data's own fields are read", () => {
    expect(parts("[{{.constructor}}][{{.toString}}]", {})).toEqual(["[][]"]);
  });
});
