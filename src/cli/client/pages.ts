// Following a /v1 list through its pages (newest first; `starting_after` = the last ID seen).
import type { Ctx } from "./command.ts";

// biome-ignore lint/suspicious/noExplicitAny: list items are the API's JSON objects
export type Item = any;

/** Up to `max` items (every item when max is Infinity). */
export async function listItems(
  ctx: Ctx,
  path: string,
  query: Record<string, string | undefined>,
  max = Number.POSITIVE_INFINITY,
): Promise<Item[]> {
  const items: Item[] = [];
  let after: string | undefined;
  while (items.length < max) {
    const limit = String(Math.min(100, max - items.length));
    const r = await ctx.api("GET", path, { query: { ...query, limit, starting_after: after } });
    const data = (r.body?.data ?? []) as Item[];
    items.push(...data);
    if (!r.body?.has_more || data.length === 0) break;
    after = data[data.length - 1].id;
  }
  return items;
}
