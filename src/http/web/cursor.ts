// Cursor links for a newest-first list page (reference §1 paging): "Older" continues after the last row shown,
// "Newer" goes back before the first, each keeping the page's filters.

export interface Cursors {
  older: string | null;
  newer: string | null;
}

export function cursorLinks(
  path: string,
  filters: Record<string, string>,
  q: URLSearchParams,
  rows: { id: string }[],
  hasMore: boolean,
): Cursors {
  const after = q.get("starting_after");
  const before = q.get("ending_before");
  const link = (k: string, id: string) => {
    const u = new URLSearchParams();
    for (const [f, v] of Object.entries(filters)) if (v) u.set(f, v);
    u.set(k, id);
    return `${path}?${u}`;
  };
  const first = rows[0]?.id;
  const last = rows.at(-1)?.id;
  const paging = !!after || !!before;
  return {
    older: last && (before ? true : hasMore) ? link("starting_after", last) : null,
    newer: first && paging && (before ? hasMore : true) ? link("ending_before", first) : null,
  };
}

/** The paging parameters of a page's URL, passed on to a list call as the API would get them. */
export function pagingQuery(q: URLSearchParams): Record<string, string> {
  const out: Record<string, string> = {};
  const after = q.get("starting_after");
  const before = q.get("ending_before");
  if (after) out.starting_after = after;
  if (before) out.ending_before = before;
  return out;
}
