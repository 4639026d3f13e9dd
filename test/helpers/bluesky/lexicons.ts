// Bluesky's published lexicons, read from the shared API descriptions beside the project (never copied into it),
// for checking what svc sends against the schema the network documents.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { Lexicons } from "@atproto/lexicon";

const DIR = [
  join(import.meta.dir, "../../../../shared/api-specs/bluesky/lexicons"),
  "/work/shared/api-specs/bluesky/lexicons",
].find((d) => {
  try {
    return statSync(d).isDirectory();
  } catch {
    return false;
  }
});

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? files(p) : f.endsWith(".json") ? [p] : [];
  });
}

/** The lexicons, or null when the shared descriptions are absent (the test then says validation was off). */
export function blueskyLexicons(): Lexicons | null {
  if (!DIR) return null;
  const lex = new Lexicons();
  for (const f of files(DIR)) {
    try {
      lex.add(JSON.parse(readFileSync(f, "utf8")));
    } catch {
      // A document this version of the library cannot load is left out.
    }
  }
  return lex;
}
