// The calendar's month: whole weeks (Monday first) in the brand's zone, each day with its posts (time, status,
// the start of the text) and how many slots are still free; a day opens its week in the queue, where posts move by
// form. With scripts on, a post that can still move is dragged onto another day: it keeps its time of day there
// (the same move as the week's form, refused with slot_taken or post_not_movable shown on the page).

import { zonedClock } from "../src/lib/zoned.ts";
import type { Frame } from "./frame.ts";
import { esc, optionHtml, trusted } from "./html.ts";
import { Layout } from "./layout.tsx";
import { brandLabel, Csrf, dateLabel } from "./parts.tsx";
import { canChange, FieldProblems, type Problems, statusTagHtml } from "./publishing.tsx";
import type { QueuePost } from "./queue.tsx";

export interface MonthDay {
  date: string;
  start: string;
  in_month: boolean;
  free_slots: string[];
  /** The day's first posts. */
  posts: QueuePost[];
  /** How many posts the day has in all. */
  count: number;
}
export interface CalendarMonth {
  brand: { id: string; name: string; slug: string; timezone: string };
  month: string;
  previous: string;
  next: string;
  days: MonthDay[];
}

const WEEKDAYS = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"];

const timeIn = (iso: string, tz: string) => zonedClock(Date.parse(iso), tz);
const monthLabel = (month: string) => dateLabel(`${month}-01`, { month: "long", year: "numeric" });
const dayLabel = (date: string) => dateLabel(date, { weekday: "long", day: "numeric", month: "long" });
const movable = (p: QueuePost) =>
  (p.status === "scheduled" || p.status === "pending_approval") && p.targets.every((t) => t.attempts === 0);
const excerpt = (p: QueuePost) => {
  const t = (p.targets[0]?.parts[0] ?? "").replace(/\s+/g, " ");
  return t.length > 60 ? `${t.slice(0, 60)}…` : t || "(media only)";
};

/**
 * A day's cell as a string (views/html.ts): a month shows six weeks of days and up to four posts a day, and the
 * JSX runtime's node per element cost most of the page's time. Every value goes through esc().
 */
function dayHtml(d: MonthDay, today: string, tz: string, drag: boolean, weekBase: string): string {
  const cls = [
    "month-day",
    d.in_month ? "" : "other-month",
    d.date === today ? "today" : "",
    d.date < today ? "past" : "",
    d.posts.length === 0 && d.free_slots.length === 0 ? "quiet" : "",
  ]
    .filter(Boolean)
    .join(" ");
  const week = esc(`${weekBase}${d.date}`);
  const posts = d.posts.map((p) => {
    const canDrag = drag && movable(p);
    const time = p.publish_at ? timeIn(p.publish_at, tz) : "";
    return (
      `<li class="month-post status-bar-${esc(p.status)}" id="month-${esc(p.id)}"` +
      (canDrag ? ` draggable="true" data-move="/queue/${esc(p.id)}/move"` : "") +
      (p.publish_at ? ` data-time="${esc(time)}"` : "") +
      `><a href="/posts/${esc(p.id)}"><span class="cal-time">${esc(time)}</span> ` +
      `<span class="month-text">${esc(excerpt(p))}</span></a>${statusTagHtml(p.status)}</li>`
    );
  });
  if (d.posts.length && d.count > d.posts.length)
    posts.push(`<li><a href="${week}" class="month-more">${d.count - d.posts.length} more</a></li>`);
  const free = d.free_slots.length;
  return (
    `<div class="${cls}" id="day-${esc(d.date)}" data-date="${esc(d.date)}">` +
    `<a class="month-date" href="${week}"><span class="month-num" aria-hidden="true">${Number(d.date.slice(8))}</span>` +
    `<span class="month-day-name">${esc(dayLabel(d.date))}</span></a>` +
    (posts.length ? `<ul class="plain month-posts">${posts.join("")}</ul>` : "") +
    (free ? `<p class="month-free">${free} free slot${free > 1 ? "s" : ""}</p>` : "") +
    "</div>"
  );
}

export function MonthPage(props: {
  f: Frame;
  brands: { id: string; name: string; slug: string }[];
  month: CalendarMonth;
  today: string;
  problems?: Problems | undefined;
}) {
  const { f, month } = props;
  const tz = month.brand.timezone;
  const drag = canChange(f) && f.scopes.includes("posts:write");
  const q = (extra: Record<string, string>) =>
    `/queue?${new URLSearchParams({ brand: month.brand.id, ...extra })}`;
  const problemPosts = Object.keys(props.problems ?? {});
  // Each day links to its week: the link's start, built once (a date, YYYY-MM-DD, needs no encoding).
  const weekBase = `${q({})}&week=`;
  return (
    <Layout f={f} scripts={drag ? ["/static/calendar.js"] : []}>
      <div class="wide">
        <div class="queue-bar">
          <form method="get" action="/queue" class="inline" id="queue-brand">
            <input type="hidden" name="view" value="month" />
            <label for="q-brand">Brand</label>
            <select id="q-brand" name="brand">
              {trusted(
                props.brands.map((b) => optionHtml(b.id, brandLabel(b), b.id === month.brand.id)).join(""),
              )}
            </select>
            <input type="hidden" name="month" value={month.month} />
            <button type="submit">Show</button>
          </form>
          <nav class="week-nav" aria-label="Months">
            <a href={q({ view: "month", month: month.previous })}>← Previous month</a>
            <a href={q({ view: "month" })}>This month</a>
            <a href={q({ view: "month", month: month.next })}>Next month →</a>
          </nav>
          <nav class="view-switch" aria-label="Calendar view">
            <a href={q({ week: month.days.find((d) => d.in_month)!.date })}>Week</a>
            <a href={q({ view: "month", month: month.month })} aria-current="page">
              Month
            </a>
          </nav>
        </div>
        <h2 id="month-of" class="month-title">
          {monthLabel(month.month)} <span class="muted">· times in {tz}</span>
        </h2>
        {problemPosts.length ? (
          <div class="alert error" role="alert" id="month-problems">
            {problemPosts.map((id) => (
              <FieldProblems id={`move-${id}-error`} problems={props.problems![id]} />
            ))}
          </div>
        ) : null}
        {drag ? (
          <form method="post" action="" id="month-move" hidden>
            <Csrf token={f.csrf} />
            <input type="hidden" name="brand" value={month.brand.id} />
            <input type="hidden" name="month" value={month.month} />
            <input type="hidden" name="at" value="" />
          </form>
        ) : null}
        <div class="month" id="month">
          <div class="month-head" aria-hidden="true">
            {WEEKDAYS.map((d) => (
              <span class="month-weekday">{d}</span>
            ))}
          </div>
          {trusted(
            Array.from(
              { length: month.days.length / 7 },
              (_, w) =>
                `<div class="month-week">${month.days
                  .slice(w * 7, w * 7 + 7)
                  .map((d) => dayHtml(d, props.today, tz, drag, weekBase))
                  .join("")}</div>`,
            ).join(""),
          )}
        </div>
        {month.days.every((d) => d.posts.length === 0 && d.free_slots.length === 0) ? (
          <div class="empty" id="month-empty">
            <p>
              Nothing this month, and no free slots.{" "}
              {f.scopes.includes("posts:write") ? (
                <>
                  Add slots to the brand, or <a href="/posts/new">write a post</a> with a time.
                </>
              ) : (
                "An admin can add slots to the brand."
              )}
            </p>
          </div>
        ) : null}
      </div>
    </Layout>
  );
}
