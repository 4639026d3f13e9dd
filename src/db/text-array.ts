// Postgres array literals for the array parameters of plain SQL (raw.ts): the one-array-per-column inserts
// (sql/statement.ts, rows), `= ANY(?::text[])` lists and `unnest` joins. The worker sends several each step, and pg
// quotes each element of an array parameter with two regular-expression replaces in JavaScript, which for the
// events' JSON texts was a tenth of the worker's own CPU on Postgres, and for the rest 3-4 % of it.
// JSON.stringify quotes natively and, for a string with no control character and no lone surrogate (every JSON
// text JSON.stringify made), escapes exactly `"` and `\`: what an element in double quotes needs. Other strings
// are quoted the way pg quotes them. A number, bigint or boolean prints with neither, so pg's quoting leaves it as
// it is between its double quotes.

// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this looks for
const CONTROL = /[\u0000-\u001f]/;

const quote = (v: string): string =>
  CONTROL.test(v) || !v.isWellFormed()
    ? `"${v.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`
    : JSON.stringify(v);

/**
 * `{"a","1",NULL}`: the literal pg would send for this array, or undefined when an element is of a kind pg formats
 * in its own way (a date, a buffer, a nested array, an object), which is left to pg.
 */
export function arrayLiteral(values: readonly unknown[]): string | undefined {
  let out = "{";
  for (let i = 0; i < values.length; i++) {
    if (i > 0) out += ",";
    const v = values[i];
    if (v == null) out += "NULL";
    else if (typeof v === "string") out += quote(v);
    else if (typeof v === "number" || typeof v === "bigint" || typeof v === "boolean") out += `"${v}"`;
    else return undefined;
  }
  return `${out}}`;
}

/** The parameters with each array pg would format element by element already a literal (the same array if none). */
export function withArrayLiterals(params: readonly unknown[]): readonly unknown[] {
  let out: unknown[] | null = null;
  for (let i = 0; i < params.length; i++) {
    const p = params[i];
    if (!Array.isArray(p)) continue;
    const literal = arrayLiteral(p);
    if (literal === undefined) continue;
    out ??= params.slice();
    out[i] = literal;
  }
  return out ?? params;
}
