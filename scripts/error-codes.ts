// Writes the error code list of docs/api.md from the catalogue (src/lib/error-codes.ts), between its markers:
// `bun scripts/error-codes.ts`. test/http/error-codes.test.ts fails when the two differ.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ERROR_CODES, ERROR_GROUPS, type ErrorCodeEntry } from "../src/lib/error-codes.ts";

export const API_DOC = join(import.meta.dir, "..", "docs", "api.md");
export const START = "<!-- error-codes:start (written by bun scripts/error-codes.ts) -->";
export const END = "<!-- error-codes:end -->";

/** The list as docs/api.md carries it: one table per group, in the catalogue's order. */
export function errorCodesMarkdown(): string {
  const entries = Object.entries(ERROR_CODES) as [string, ErrorCodeEntry][];
  const out: string[] = [];
  for (const group of ERROR_GROUPS) {
    out.push(`### ${group}`, "", "| Code | Status | Meaning |", "| --- | --- | --- |");
    for (const [code, e] of entries.filter(([, x]) => x.group === group))
      out.push(`| \`${code}\` | ${e.status ?? ""} | ${e.meaning.replaceAll("|", "\\|")} |`);
    out.push("");
  }
  return out.join("\n");
}

/**
 * Markdown with its table cells trimmed and rule rows as `---`, so the list compares equal however the formatter
 * (biome) aligns the columns.
 */
export function unaligned(markdown: string): string {
  return markdown
    .split("\n")
    .map((line) => {
      if (!line.startsWith("|")) return line.trimEnd();
      const cells = line.slice(1, line.endsWith("|") ? -1 : undefined).split(/(?<!\\)\|/);
      return `| ${cells.map((c) => (/^\s*-+\s*$/.test(c) ? "---" : c.trim())).join(" | ")} |`;
    })
    .join("\n")
    .trim();
}

/** The text between the markers of docs/api.md, or null when the markers are missing. */
export function documentedSection(doc: string): string | null {
  const a = doc.indexOf(START);
  const b = doc.indexOf(END);
  if (a === -1 || b < a) return null;
  return doc.slice(a + START.length, b).trim();
}

if (import.meta.main) {
  const doc = readFileSync(API_DOC, "utf8");
  const a = doc.indexOf(START);
  const b = doc.indexOf(END);
  if (a === -1 || b < a) throw new Error(`docs/api.md has no ${START} … ${END} markers`);
  writeFileSync(API_DOC, `${doc.slice(0, a + START.length)}\n\n${errorCodesMarkdown()}\n${doc.slice(b)}`);
  // The same alignment biome gives every table, so `biome check` stays clean.
  Bun.spawnSync(["bunx", "biome", "format", "--write", API_DOC], { stdout: "inherit", stderr: "inherit" });
  console.log("docs/api.md: error codes written");
}
