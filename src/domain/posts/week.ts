// A brand's week (the dashboard's queue): the seven days from a Monday in the brand's zone, every slot of those
// days with the post holding it (or free), and the posts whose time falls in the week. The same rules as the
// API's reads: the actor's org, mode and brand visibility.
import type { App } from "../../app/context.ts";
import { heldSlots } from "../../db/sql/held-slots.ts";
import { run } from "../../db/sql/statement.ts";
import { badRequest } from "../../lib/errors.ts";
import { localParts, zonedToUtc } from "../../lib/zoned.ts";
import { type Actor, requireScope } from "../actor.ts";
import { presentBrand } from "../brands/present.ts";
import type { Slot } from "../brands/schema.ts";
import { loadBrand } from "../brands/service.ts";
import { slotTimes } from "../slots/next.ts";
import { CALENDAR_POST_COLUMNS, calendarTargets, presentCalendarPost } from "./calendar-rows.ts";

/** A week holds few posts; a brand posting more than this in one week sees the first ones and a note. */
export const WEEK_LIMIT = 500;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DAY_MS = 86400_000;

/** The calendar date (in the zone) of the Monday starting the week that holds `date`, as [y, m, d]. */
function mondayOf(y: number, m: number, d: number): [number, number, number] {
  const day = new Date(Date.UTC(y, m - 1, d));
  const back = (day.getUTCDay() + 6) % 7;
  const monday = new Date(day.getTime() - back * DAY_MS);
  return [monday.getUTCFullYear(), monday.getUTCMonth() + 1, monday.getUTCDate()];
}

const iso = (ms: number) => new Date(ms).toISOString();
const ymd = (y: number, m: number, d: number) =>
  `${y}-${String(m).padStart(2, "0")}-${String(d).padStart(2, "0")}`;

/**
 * The week of `brandRef` holding `date` (YYYY-MM-DD in the brand's zone; today when absent). Days start at local
 * midnight, so a week with a DST change has a 23- or 25-hour day, as the brand's people live it.
 */
export async function getWeek(app: App, actor: Actor, brandRef: string, date?: string) {
  requireScope(actor, "posts:read");
  const brand = await loadBrand(app.db, actor, brandRef, "brand");
  const tz = brand.timezone;
  let y: number;
  let m: number;
  let d: number;
  if (date) {
    const match = DATE.exec(date);
    const parsed = match ? match.slice(1).map(Number) : [];
    const ok = match && !Number.isNaN(Date.UTC(parsed[0]!, parsed[1]! - 1, parsed[2]!));
    if (!ok || parsed[1]! < 1 || parsed[1]! > 12 || parsed[2]! < 1 || parsed[2]! > 31)
      throw badRequest("parameter_invalid", "week must be a date (YYYY-MM-DD).", "week");
    [y, m, d] = parsed as [number, number, number];
  } else {
    const now = localParts(app.clock.now(), tz);
    [y, m, d] = [now.year, now.month, now.day];
  }
  const [my, mm, md] = mondayOf(y, m, d);
  const days = Array.from({ length: 8 }, (_, i) => {
    const day = new Date(Date.UTC(my, mm - 1, md + i));
    const [dy, dm, dd] = [day.getUTCFullYear(), day.getUTCMonth() + 1, day.getUTCDate()];
    return { date: ymd(dy, dm, dd), start: zonedToUtc(dy, dm, dd, 0, 0, tz) };
  });
  const from = days[0]!.start;
  const to = days[7]!.start;
  const livemode = actor.livemode ? 1 : 0;
  const slots = slotTimes(JSON.parse(brand.slots) as Slot[], tz, from, 8).filter((t) => t < to);
  const [held, rows] = await Promise.all([
    run(app.db, app.dialect, heldSlots, [brand.id, livemode, from, to]),
    // The brand's posts narrowed by the posts_brand index, then by time: a week's read is bounded by LIMIT.
    app.db
      .selectFrom("posts")
      .select(CALENDAR_POST_COLUMNS)
      .where("org_id", "=", actor.orgId)
      .where("livemode", "=", livemode)
      .where("brand_id", "=", brand.id)
      .where("publish_at", ">=", from)
      .where("publish_at", "<", to)
      .orderBy("publish_at")
      .limit(WEEK_LIMIT)
      .execute(),
  ]);
  const holder = new Map(held.map((h) => [Number(h.slot_time), h.post_id]));
  const targets = await calendarTargets(
    app.db,
    rows.map((r) => r.id),
  );
  const prev = new Date(Date.UTC(my, mm - 1, md - 7));
  const next = new Date(Date.UTC(my, mm - 1, md + 7));
  return {
    brand: presentBrand(brand),
    days: days.slice(0, 7).map((x) => ({ date: x.date, start: iso(x.start) })),
    previous: ymd(prev.getUTCFullYear(), prev.getUTCMonth() + 1, prev.getUTCDate()),
    next: ymd(next.getUTCFullYear(), next.getUTCMonth() + 1, next.getUTCDate()),
    slots: slots.map((t) => ({ at: iso(t), post: holder.get(t) ?? null })),
    posts: rows.map((p) => presentCalendarPost(p, targets.get(p.id) ?? [])),
    truncated: rows.length === WEEK_LIMIT,
  };
}
export type Week = Awaited<ReturnType<typeof getWeek>>;
