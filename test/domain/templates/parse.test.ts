import { describe, expect, test } from "bun:test";
import { MAX_NESTING, parseTemplate } from "../../../src/domain/templates/language/parse.ts";

/** The syntax problems of a body as "line:column message" lines, the way an author reads them. */
function syntaxErrors(source: string): string[] {
  const parsed = parseTemplate(source);
  if (parsed.ok) throw new Error("expected syntax problems");
  return parsed.problems.map((p) => {
    expect(p.code).toBe("template_syntax");
    expect(p.param).toBe("body");
    const { line, column } = p.detail as { line: number; column: number };
    return `${line}:${column} ${p.message.replace(/^Line \d+, column \d+: /, "")}`;
  });
}

describe("parseTemplate", () => {
  test("text and fields, nested fields, and the dot", () => {
    const parsed = parseTemplate("Hi {{.name}} from {{ .team.lead }}{{.}}");
    expect(parsed).toEqual({
      ok: true,
      template: {
        nodes: [
          { kind: "text", text: "Hi " },
          { kind: "print", path: ["name"], at: { line: 1, column: 4 } },
          { kind: "text", text: " from " },
          { kind: "print", path: ["team", "lead"], at: { line: 1, column: 19 } },
          { kind: "print", path: [], at: { line: 1, column: 35 } },
        ],
      },
    });
  });

  test("if with else, and with, nest into branches", () => {
    const parsed = parseTemplate("{{if .a}}yes{{else}}no{{end}} {{with .b}}{{.c}}{{end}}");
    expect(parsed.ok && parsed.template.nodes).toEqual([
      {
        kind: "if",
        path: ["a"],
        at: { line: 1, column: 1 },
        ifTrue: [{ kind: "text", text: "yes" }],
        ifFalse: [{ kind: "text", text: "no" }],
      },
      { kind: "text", text: " " },
      {
        kind: "with",
        path: ["b"],
        at: { line: 1, column: 31 },
        ifTrue: [{ kind: "print", path: ["c"], at: { line: 1, column: 42 } }],
        ifFalse: [],
      },
    ]);
  });

  test("a block action alone on its line takes the whole line with it", () => {
    const parsed = parseTemplate("Intro\n  {{if .more}}  \nMore\n{{end}}\nOutro");
    expect(parsed.ok && parsed.template.nodes).toEqual([
      { kind: "text", text: "Intro\n" },
      {
        kind: "if",
        path: ["more"],
        at: { line: 2, column: 3 },
        ifTrue: [{ kind: "text", text: "More\n" }],
        ifFalse: [],
      },
      { kind: "text", text: "Outro" },
    ]);
  });

  test("a line holding only {{thread}} splits the body, whitespace around allowed", () => {
    const parsed = parseTemplate("One\n \t{{thread}} \r\nTwo");
    expect(parsed.ok && parsed.template.nodes).toEqual([
      { kind: "text", text: "One\n" },
      { kind: "thread", at: { line: 2, column: 3 } },
      { kind: "text", text: "Two" },
    ]);
  });

  test("unclosed action, unknown keyword, bad paths: each with its position", () => {
    expect(syntaxErrors("Hello {{.name}\nBye")).toEqual([
      "1:7 unclosed action: `{{` has no matching `}}` on its line.",
    ]);
    // A `{{` left open before another action: the action after it is still read.
    expect(syntaxErrors("Hi {{ {{.name}} {{nope}}")).toEqual([
      "1:4 unclosed action: `{{` has no matching `}}` on its line.",
      "1:17 unknown keyword `nope`; actions are .field, if, with, else, end and thread. " +
        "To print a field, write `{{.nope}}`.",
    ]);
    expect(syntaxErrors("{{range .items}}")).toEqual([
      "1:1 unknown keyword `range`; actions are .field, if, with, else, end and thread.",
    ]);
    expect(syntaxErrors("Hi {{name}}")).toEqual([
      "1:4 unknown keyword `name`; actions are .field, if, with, else, end and thread. " +
        "To print a field, write `{{.name}}`.",
    ]);
    expect(syntaxErrors("{{.a..b}} {{.a.}} {{.1st}} {{if .first-name}}{{end}}")).toEqual([
      "1:1 bad field path `.a..b`; write `.name` or `.parent.child` (letters, digits and underscores).",
      "1:11 bad field path `.a.`; write `.name` or `.parent.child` (letters, digits and underscores).",
      "1:19 bad field path `.1st`; write `.name` or `.parent.child` (letters, digits and underscores).",
      "1:28 bad field path `.first-name`; write `.name` or `.parent.child` (letters, digits and underscores).",
    ]);
    // A malformed block still opens and closes, so its `{{end}}` is not reported as stray too.
    expect(syntaxErrors("{{}} {{if}}x{{end .x}}")).toEqual([
      "1:1 empty action `{{}}`.",
      "1:6 `{{if}}` takes one field, as in `{{if .name}}`.",
      "1:13 `{{end}}` takes nothing after it.",
    ]);
    expect(syntaxErrors("{{if .a}}A{{else if .b}}B{{end}}")).toEqual([
      "1:11 `{{else if}}` is not supported; put an `{{if}}` inside the `{{else}}`.",
    ]);
  });

  test("stray end and else, a second else, an unclosed block", () => {
    expect(syntaxErrors("a{{end}}\nb{{else}}")).toEqual([
      "1:2 stray `{{end}}`: no `{{if}}` or `{{with}}` is open.",
      "2:2 stray `{{else}}`: no `{{if}}` or `{{with}}` is open.",
    ]);
    expect(syntaxErrors("{{if .a}}x{{else}}y\n{{else}}z{{end}}")).toEqual([
      "2:1 second `{{else}}` in one block (the first is on line 1).",
    ]);
    expect(syntaxErrors("Start\n{{with .a}}\n  {{if .b}}never closed")).toEqual([
      "2:1 `{{with}}` is never closed; add `{{end}}`.",
      "3:3 `{{if}}` is never closed; add `{{end}}`.",
    ]);
  });

  test("{{thread}} must stand alone on its line", () => {
    expect(syntaxErrors("One {{thread}}\nTwo\n{{thread}} three")).toEqual([
      "1:5 `{{thread}}` must stand alone on its line.",
      "3:1 `{{thread}}` must stand alone on its line.",
    ]);
  });

  test("every problem is reported, top to bottom, and columns count an emoji once", () => {
    expect(syntaxErrors("🎉 {{end}}\n{{if .a}}\n{{.b c}}")).toEqual([
      "1:3 stray `{{end}}`: no `{{if}}` or `{{with}}` is open.",
      "2:1 `{{if}}` is never closed; add `{{end}}`.",
      "3:1 bad field path `.b c`; write `.name` or `.parent.child` (letters, digits and underscores).",
    ]);
  });

  test("problems carry the param they were parsed for", () => {
    const parsed = parseTemplate("{{end}}", "overrides.mastodon");
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.problems.map((p) => p.param)).toEqual(["overrides.mastodon"]);
  });

  test(`blocks nest at most ${MAX_NESTING} deep`, () => {
    const ok = "{{if .a}}".repeat(MAX_NESTING) + "{{end}}".repeat(MAX_NESTING);
    expect(parseTemplate(ok).ok).toBe(true);
    const deep = "{{if .a}}".repeat(MAX_NESTING + 1) + "{{end}}".repeat(MAX_NESTING + 1);
    expect(syntaxErrors(deep)).toEqual([`1:${9 * MAX_NESTING + 1} blocks nest deeper than 50 levels.`]);
  });

  test("a long line of unclosed actions is reported once and parsed quickly", () => {
    const started = performance.now();
    expect(syntaxErrors(`${"{{ ".repeat(50_000)}\nok`)).toEqual([
      "1:1 unclosed action: `{{` has no matching `}}` on its line.",
    ]);
    expect(performance.now() - started).toBeLessThan(500);
  });
});
