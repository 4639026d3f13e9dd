// Postgres array literals of texts, for the one-array-per-column inserts (sql/statement.ts, rows): the worker
// writes a batch of events each step, and pg quotes each element of an array parameter with two regular-expression
// replaces in JavaScript, which for the events' JSON texts was a tenth of the worker's own CPU on Postgres.
// JSON.stringify quotes natively and, for a string with no control character and no lone surrogate (every JSON
// text JSON.stringify made), escapes exactly `"` and `\`: what an element in double quotes needs. Other strings
// are quoted the way pg quotes them.

// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this looks for
const CONTROL = /[\u0000-\u001f]/;

const quote = (v: string): string =>
  CONTROL.test(v) || !v.isWellFormed()
    ? `"${v.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`
    : JSON.stringify(v);

/** `{"a","b",NULL}`: the literal pg would send for this array of texts. */
export function textArrayLiteral(values: readonly (string | null | undefined)[]): string {
  let out = "{";
  for (let i = 0; i < values.length; i++) {
    if (i > 0) out += ",";
    const v = values[i];
    out += v == null ? "NULL" : quote(v);
  }
  return `${out}}`;
}

/** Whether every value is a text or null: an array pg would quote element by element. */
export function allTexts(values: readonly unknown[]): values is readonly (string | null | undefined)[] {
  for (const v of values) if (v != null && typeof v !== "string") return false;
  return true;
}
