// A brand's month (the dashboard's calendar): the weeks (Monday first, in the brand's zone) that cover one calendar
// month, each day with its posts in time order and how many of its slots are still free. The same reads and rules
// as the week (week.ts): the actor's org, mode and brand visibility; posts found by the brand's time index.
import type { App } from "../../app/context.ts";
import { monthDayCounts, monthDayFirsts } from "../../db/sql/calendar-posts.ts";
import { heldSlots } from "../../db/sql/held-slots.ts";
import { run } from "../../db/sql/statement.ts";
import { badRequest } from "../../lib/errors.ts";
import { localParts, zonedToUtc } from "../../lib/zoned.ts";
import { type Actor, requireScope } from "../actor.ts";
import { presentBrand } from "../brands/present.ts";
import type { Slot } from "../brands/schema.ts";
import { loadBrand } from "../brands/service.ts";
import { slotTimes } from "../slots/next.ts";
import { calendarTargets, presentCalendarPost } from "./calendar-rows.ts";

/** A day of the month shows its first posts, this many, and how many there are in all (its week shows every one). */
export const PER_DAY = 4;
const MONTH = /^(\d{4})-(\d{2})$/;
const DAY_MS = 86400_000;

const iso = (ms: number) => new Date(ms).toISOString();
const pad = (n: number) => String(n).padStart(2, "0");
const ymd = (d: Date) => `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
const ym = (y: number, m: number) => {
  const d = new Date(Date.UTC(y, m - 1, 1));
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}`;
};

/** `month` is YYYY-MM in the brand's zone; the current month there when absent. */
export async function getMonth(app: App, actor: Actor, brandRef: string, month?: string) {
  requireScope(actor, "posts:read");
  const brand = await loadBrand(app.db, actor, brandRef, "brand");
  const tz = brand.timezone;
  let y: number;
  let m: number;
  if (month) {
    const match = MONTH.exec(month);
    if (!match || Number(match[2]) < 1 || Number(match[2]) > 12)
      throw badRequest("parameter_invalid", "month must be a month (YYYY-MM).", "month");
    [y, m] = [Number(match[1]), Number(match[2])];
  } else {
    const now = localParts(app.clock.now(), tz);
    [y, m] = [now.year, now.month];
  }
  // From the Monday on or before the 1st to the Sunday on or after the last day: whole weeks.
  const first = new Date(Date.UTC(y, m - 1, 1));
  const last = new Date(Date.UTC(y, m, 0));
  const start = new Date(first.getTime() - ((first.getUTCDay() + 6) % 7) * DAY_MS);
  const count = Math.round((last.getTime() - start.getTime()) / DAY_MS) + 1 + ((7 - last.getUTCDay()) % 7);
  const days = Array.from({ length: count + 1 }, (_, i) => {
    const d = new Date(start.getTime() + i * DAY_MS);
    return {
      date: ymd(d),
      start: zonedToUtc(d.getUTCFullYear(), d.getUTCMonth() + 1, d.getUTCDate(), 0, 0, tz),
      inMonth: d.getUTCMonth() === m - 1,
    };
  });
  const from = days[0]!.start;
  const to = days[count]!.start;
  const livemode = actor.livemode ? 1 : 0;
  const slots = slotTimes(JSON.parse(brand.slots) as Slot[], tz, from, count + 1).filter((t) => t < to);
  const [held, perDay] = await Promise.all([
    run(app.db, app.dialect, heldSlots, [brand.id, livemode, from, to]),
    // Each day's count and first posts, from posts_brand_time: two statements a month, whatever the posts in it.
    (async () => {
      const bounds = days.slice(0, count).map((d, i) => ({ start: d.start, end: days[i + 1]!.start }));
      const params = bounds.flatMap((b) => [actor.orgId, livemode, brand.id, b.start, b.end]);
      const [counts, rows] = await Promise.all([
        run(app.db, app.dialect, monthDayCounts.of(count), params),
        run(app.db, app.dialect, monthDayFirsts.of(count, PER_DAY), [
          actor.orgId,
          livemode,
          brand.id,
          ...params,
        ]),
      ]);
      return bounds.map((b, i) => ({
        rows: rows
          .filter((r) => Number(r.publish_at) >= b.start && Number(r.publish_at) < b.end)
          .slice(0, PER_DAY),
        count: Number(counts[0]?.[`c${i}`] ?? 0),
      }));
    })(),
  ]);
  const taken = new Set(held.map((h) => Number(h.slot_time)));
  const now = app.clock.now();
  const targets = await calendarTargets(
    app.db,
    perDay.flatMap((d) => d.rows.map((r) => r.id)),
  );
  return {
    brand: presentBrand(brand),
    month: ym(y, m),
    previous: ym(y, m - 1),
    next: ym(y, m + 1),
    days: days.slice(0, count).map((d, i) => {
      const end = days[i + 1]!.start;
      return {
        date: d.date,
        start: iso(d.start),
        in_month: d.inMonth,
        // Slots of the day not yet past and held by no post: where a post can still go.
        free_slots: slots.filter((t) => t >= d.start && t < end && t > now && !taken.has(t)).map(iso),
        posts: perDay[i]!.rows.map((p) => presentCalendarPost(p, targets.get(p.id) ?? [])),
        /** Every post of the day; `posts` holds the first PER_DAY of them. */
        count: perDay[i]!.count,
      };
    }),
  };
}
export type Month = Awaited<ReturnType<typeof getMonth>>;
