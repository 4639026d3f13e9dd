import { describe, expect, test } from "bun:test";
import { checkTemplate } from "../../../src/domain/templates/language/check.ts";
import { parseTemplate } from "../../../src/domain/templates/language/parse.ts";

// A release announcement: `version` is always there, `notes` and `author` may be left out, and an author present
// always has a name but not always a handle.
const variables = {
  type: "object",
  properties: {
    version: { type: "string" },
    notes: { type: "string" },
    tags: { type: "array", items: { type: "string" } },
    author: {
      type: "object",
      properties: { name: { type: "string" }, handle: { type: "string" } },
      required: ["name"],
    },
  },
  required: ["version", "tags"],
};

/** Problems of a body as "code path line:column". */
function check(body: string): string[] {
  const parsed = parseTemplate(body);
  if (!parsed.ok) throw new Error(parsed.problems[0]?.message);
  return checkTemplate(parsed.template, variables).map((p) => {
    expect(p.param).toBe("body");
    const { path, line, column } = p.detail as { path: string; line: number; column: number };
    return `${p.code} ${path} ${line}:${column}`;
  });
}

describe("checkTemplate", () => {
  test("required fields print anywhere", () => {
    expect(check("Release {{.version}}: {{.tags}}")).toEqual([]);
  });

  test("an undeclared field is variable_missing, wherever it is used", () => {
    expect(check("{{.verison}}\n{{if .draft}}x{{end}} {{.author.email}}")).toEqual([
      "variable_missing .verison 1:1",
      "variable_missing .draft 2:1",
      "variable_missing .author.email 2:23",
    ]);
    // A field below a value that is not an object is not declared either.
    expect(check("{{.version.major}}")).toEqual(["variable_missing .version.major 1:1"]);
  });

  test("the message says where the path breaks off", () => {
    const parsed = parseTemplate("{{with .author}}{{.email}}{{end}}");
    const [problem] = parsed.ok ? checkTemplate(parsed.template, variables, "overrides.bluesky") : [];
    expect(problem).toEqual({
      code: "variable_missing",
      message:
        "`.email` (that is `.author.email`) at line 1, column 17 is not declared in variables " +
        "(no property `.author.email`).",
      param: "overrides.bluesky",
      detail: { path: ".author.email", line: 1, column: 17 },
    });
  });

  test("printing an optional field outside a guard is variable_unguarded", () => {
    expect(check("{{.version}} {{.notes}}")).toEqual(["variable_unguarded .notes 1:14"]);
    // An optional parent makes its required child unsafe to print too.
    expect(check("by {{.author.name}}")).toEqual(["variable_unguarded .author 1:4"]);
  });

  test("a guard on the field itself counts", () => {
    expect(check("{{if .notes}}Notes: {{.notes}}{{end}}")).toEqual([]);
    expect(check("{{with .notes}}Notes: {{.}}{{end}}")).toEqual([]);
  });

  test("a guard on an optional parent counts for its required child", () => {
    expect(check("{{if .author}}by {{.author.name}}{{end}}")).toEqual([]);
    expect(check("{{with .author}}by {{.name}}{{end}}")).toEqual([]);
  });

  test("a guard on the parent does not cover an optional child", () => {
    expect(check("{{with .author}}@{{.handle}}{{end}}")).toEqual(["variable_unguarded .author.handle 1:18"]);
    expect(check("{{with .author}}{{with .handle}}@{{.}}{{end}}{{end}}")).toEqual([]);
    expect(check("{{if .author.handle}}@{{.author.handle}}{{end}}")).toEqual([]);
  });

  test("the advice is written relative to the enclosing with", () => {
    const parsed = parseTemplate("{{with .author}}@{{.handle}}{{end}}");
    const [problem] = parsed.ok ? checkTemplate(parsed.template, variables) : [];
    expect(problem?.message).toBe(
      "`.handle` at line 1, column 18 prints optional `.handle` unguarded; " +
        "wrap it in `{{if .handle}}…{{end}}` or `{{with .handle}}…{{end}}`, or make it required.",
    );
  });

  test("the else branch is not guarded", () => {
    expect(check("{{if .notes}}{{.notes}}{{else}}{{.notes}}{{end}}")).toEqual([
      "variable_unguarded .notes 1:32",
    ]);
    expect(check("{{with .author}}{{.name}}{{else}}{{.author.name}}{{end}}")).toEqual([
      "variable_unguarded .author 1:34",
    ]);
  });

  test("every occurrence is reported", () => {
    expect(check("{{.notes}}\n{{.notes}}\n{{.nope}}")).toEqual([
      "variable_unguarded .notes 1:1",
      "variable_unguarded .notes 2:1",
      "variable_missing .nope 3:1",
    ]);
  });

  test("fields of the data's prototype are not declared", () => {
    expect(check("{{.constructor}}")).toEqual(["variable_missing .constructor 1:1"]);
  });
});
