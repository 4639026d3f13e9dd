// Fair sharing of a worker's publish slots between orgs: one org whose servers answer slowly must not hold every
// slot while another org's post is due. Reference §6 gives a worker up to 10 publishes in flight; that is what one
// org may hold, and the worker keeps 2 slots more that only other orgs may take (worker.ts), so an org alone on
// the install still publishes 10 at a time (no smaller batches, no cost per target) while another org's due post
// always finds a slot. The claim takes targets in turns by org; the SQLite claim picks here, the Postgres claim
// computes the same turns in its statement (claim-pg.ts).

/**
 * `inFlight` counts each org's publishes the worker is running now (those that hold a slot), and no org is given
 * more than `perOrg` of them. Within one claim the targets are taken in turns, the org with the fewest in flight
 * first (due order within an org and between equals), so a slot that frees goes to an org waiting behind another
 * org's slow servers.
 */
export interface OrgShare {
  inFlight: ReadonlyMap<string, number>;
  perOrg: number;
}

/**
 * How many due targets a claim looks at: twice what it may take, or, while an org holds its whole share, a wider
 * window, so that other orgs' targets due behind that org's backlog are seen (the backlog's own are skipped).
 */
export const WIDE_WINDOW = 100;
export function claimWindow(limit: number, share?: OrgShare): number {
  if (share)
    for (const n of share.inFlight.values()) if (n >= share.perOrg) return Math.max(limit * 2, WIDE_WINDOW);
  return limit * 2;
}

/**
 * Picks at most one candidate per channel, in turns by org (see OrgShare). Candidates come in due order; a
 * candidate's turn is its org's count in flight plus the number of its org's candidates before it. With one org
 * only, this is due order.
 */
export function pickFair<C extends { id: string; channel_id: string; org_id: string }>(
  found: C[],
  limit: number,
  share?: OrgShare,
): C[] {
  const seen = new Set<string>();
  const turns: { c: C; turn: number; at: number }[] = [];
  const taken = new Map<string, number>();
  for (const c of found) {
    if (seen.has(c.channel_id)) continue;
    seen.add(c.channel_id);
    const before = taken.get(c.org_id) ?? 0;
    taken.set(c.org_id, before + 1);
    const turn = before + (share?.inFlight.get(c.org_id) ?? 0);
    if (share && turn >= share.perOrg) continue;
    turns.push({ c, turn, at: turns.length });
  }
  // One org (the common case) keeps due order as it is; sorting is only needed when turns differ.
  if (taken.size > 1) turns.sort((a, b) => a.turn - b.turn || a.at - b.at);
  return turns.slice(0, limit).map((x) => x.c);
}
