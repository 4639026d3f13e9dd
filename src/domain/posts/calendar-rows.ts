// What the calendar pages (the queue's week, the month) show of a post: its time, status and whether it holds a
// slot, and of each target the channel, the text and whether it was tried. A week reads up to 500 posts and their
// targets; reading every column (content, metadata, search text, media, network answers) and presenting each as
// the API's Post took longer than the page's own rendering.
import type { Db, Tx } from "../../db/index.ts";
import { dialectOf } from "../../db/raw.ts";
import { calendarTargetsOf } from "../../db/sql/calendar-posts.ts";
import { run } from "../../db/sql/statement.ts";
import { isoOrNull } from "../../lib/clock.ts";

/** The posts columns a calendar reads (select these). */
export const CALENDAR_POST_COLUMNS = ["id", "status", "publish_at", "slot"] as const;

export interface CalendarPostRow {
  id: string;
  status: string;
  publish_at: number | null;
  slot: number;
}

export interface CalendarTarget {
  channel: string;
  channel_name: string;
  parts: string[];
  attempts: number;
}

/** The targets of these posts, by post, in ID order (as targetsOf reads them), with only what a calendar shows. */
export async function calendarTargets(
  db: Db | Tx,
  postIds: string[],
): Promise<Map<string, CalendarTarget[]>> {
  const out = new Map<string, CalendarTarget[]>();
  if (postIds.length === 0) return out;
  const rows = await run(db, dialectOf(db), calendarTargetsOf.of(postIds.length), postIds);
  for (const t of rows) {
    const target = {
      channel: t.channel_id,
      channel_name: t.channel_name,
      parts: JSON.parse(t.parts) as string[],
      attempts: Number(t.attempts),
    };
    const list = out.get(t.post_id);
    if (list) list.push(target);
    else out.set(t.post_id, [target]);
  }
  return out;
}

export const presentCalendarPost = (p: CalendarPostRow, targets: CalendarTarget[]) => ({
  id: p.id,
  status: p.status,
  publish_at: isoOrNull(p.publish_at),
  slot: Number(p.slot) === 1,
  targets,
});
