// Cursor pagination over time-sorted IDs (reference §1): newest first, `limit` 1-100 (default 20),
// `starting_after` for older items, `ending_before` for newer; no totals.
import { type SelectQueryBuilder, sql } from "kysely";
import type { DB } from "../db/schema.ts";
import { badRequest } from "../lib/errors.ts";
import { isId, type Prefix } from "../lib/ids.ts";

export interface ListParams {
  limit: number;
  startingAfter: string | null;
  endingBefore: string | null;
}

export interface ListEnvelope<T> {
  object: "list";
  data: T[];
  has_more: boolean;
  url: string;
}

export function listParams(
  input: { limit?: unknown; starting_after?: unknown; ending_before?: unknown },
  prefix: Prefix,
): ListParams {
  let limit = 20;
  if (input.limit !== undefined && input.limit !== "") {
    // Query text must be the digits of a whole number: Number() would also take "1e2", "0x10" or " 5".
    const n =
      typeof input.limit === "number"
        ? input.limit
        : typeof input.limit === "string" && /^[0-9]{1,3}$/.test(input.limit)
          ? Number(input.limit)
          : Number.NaN;
    if (!Number.isInteger(n) || n < 1 || n > 100)
      throw badRequest("parameter_invalid", "limit must be a whole number from 1 to 100.", "limit");
    limit = n;
  }
  const after =
    input.starting_after === undefined || input.starting_after === "" ? null : input.starting_after;
  const before = input.ending_before === undefined || input.ending_before === "" ? null : input.ending_before;
  if (after !== null && before !== null) {
    throw badRequest(
      "parameter_conflict",
      "Give starting_after or ending_before, not both.",
      "ending_before",
    );
  }
  if (after !== null && !isId(prefix, after))
    throw badRequest("parameter_invalid", `starting_after must be a ${prefix}_ ID.`, "starting_after");
  if (before !== null && !isId(prefix, before))
    throw badRequest("parameter_invalid", `ending_before must be a ${prefix}_ ID.`, "ending_before");
  return { limit, startingAfter: after as string | null, endingBefore: before as string | null };
}

/** Runs a list query one page at a time; `column` is the time-sorted ID column. */
export async function page<R, T>(
  // biome-ignore lint/suspicious/noExplicitAny: any table of DB with an ID column
  q: SelectQueryBuilder<DB, any, R>,
  p: ListParams,
  url: string,
  present: (row: R) => T,
  column = "id",
  order: "desc" | "asc" = "desc",
): Promise<ListEnvelope<T>> {
  const ref = sql.ref(column);
  // Going toward newer items with ending_before reads in the other direction, then flips the page back.
  const forward = p.endingBefore === null;
  const dir = forward ? order : order === "desc" ? "asc" : "desc";
  let query = q;
  if (p.startingAfter) query = query.where(ref, order === "desc" ? "<" : ">", p.startingAfter);
  if (p.endingBefore) query = query.where(ref, order === "desc" ? ">" : "<", p.endingBefore);
  const rows = await query
    .orderBy(ref, dir)
    .limit(p.limit + 1)
    .execute();
  const has_more = rows.length > p.limit;
  const pageRows = rows.slice(0, p.limit);
  if (!forward) pageRows.reverse();
  return { object: "list", data: pageRows.map(present), has_more, url };
}
