// The calendar's month: whole weeks (Monday first) in the brand's zone, each day with its posts (time, status,
// the start of the text) and how many slots are still free; a day opens its week in the queue, where posts move by
// form. With scripts on, a post that can still move is dragged onto another day: it keeps its time of day there
// (the same move as the week's form, refused with slot_taken or post_not_movable shown on the page).
import type { Frame } from "./frame.ts";
import { Layout } from "./layout.tsx";
import { brandLabel, Csrf, dateFormat } from "./parts.tsx";
import { canChange, FieldProblems, type Problems, StatusTag } from "./publishing.tsx";
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

const timeIn = (iso: string, tz: string) =>
  dateFormat({
    timeZone: tz,
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
  }).format(new Date(iso));
const monthLabel = (month: string) => {
  const [y, m] = month.split("-").map(Number) as [number, number];
  return dateFormat({ timeZone: "UTC", month: "long", year: "numeric" }).format(
    new Date(Date.UTC(y, m - 1, 1)),
  );
};
const dayLabel = (date: string) => {
  const [y, m, d] = date.split("-").map(Number) as [number, number, number];
  return dateFormat({
    timeZone: "UTC",
    weekday: "long",
    day: "numeric",
    month: "long",
  }).format(new Date(Date.UTC(y, m - 1, d)));
};
const movable = (p: QueuePost) =>
  (p.status === "scheduled" || p.status === "pending_approval") && p.targets.every((t) => t.attempts === 0);
const excerpt = (p: QueuePost) => {
  const t = (p.targets[0]?.parts[0] ?? "").replace(/\s+/g, " ");
  return t.length > 60 ? `${t.slice(0, 60)}…` : t || "(media only)";
};

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
  return (
    <Layout f={f} scripts={drag ? ["/static/calendar.js"] : []}>
      <div class="wide">
        <div class="queue-bar">
          <form method="get" action="/queue" class="inline" id="queue-brand">
            <input type="hidden" name="view" value="month" />
            <label for="q-brand">Brand</label>
            <select id="q-brand" name="brand">
              {props.brands.map((b) => (
                <option value={b.id} selected={b.id === month.brand.id}>
                  {brandLabel(b)}
                </option>
              ))}
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
          {Array.from({ length: month.days.length / 7 }, (_, w) => (
            <div class="month-week">
              {month.days.slice(w * 7, w * 7 + 7).map((d) => {
                const past = d.date < props.today;
                const cls = [
                  "month-day",
                  d.in_month ? "" : "other-month",
                  d.date === props.today ? "today" : "",
                  past ? "past" : "",
                  d.posts.length === 0 && d.free_slots.length === 0 ? "quiet" : "",
                ]
                  .filter(Boolean)
                  .join(" ");
                return (
                  <div class={cls} id={`day-${d.date}`} data-date={d.date}>
                    <a class="month-date" href={q({ week: d.date })}>
                      <span class="month-num" aria-hidden="true">
                        {Number(d.date.slice(8))}
                      </span>
                      <span class="month-day-name">{dayLabel(d.date)}</span>
                    </a>
                    {d.posts.length ? (
                      <ul class="plain month-posts">
                        {d.posts.map((p) => (
                          <li
                            class={`month-post status-bar-${p.status}`}
                            id={`month-${p.id}`}
                            draggable={drag && movable(p) ? "true" : undefined}
                            data-move={drag && movable(p) ? `/queue/${p.id}/move` : undefined}
                            data-time={p.publish_at ? timeIn(p.publish_at, tz) : undefined}
                          >
                            <a href={`/posts/${p.id}`}>
                              <span class="cal-time">{p.publish_at ? timeIn(p.publish_at, tz) : ""}</span>{" "}
                              <span class="month-text">{excerpt(p)}</span>
                            </a>
                            <StatusTag status={p.status} />
                          </li>
                        ))}
                        {d.count > d.posts.length ? (
                          <li>
                            <a href={q({ week: d.date })} class="month-more">
                              {d.count - d.posts.length} more
                            </a>
                          </li>
                        ) : null}
                      </ul>
                    ) : null}
                    {d.free_slots.length ? (
                      <p class="month-free">
                        {d.free_slots.length} free slot{d.free_slots.length > 1 ? "s" : ""}
                      </p>
                    ) : null}
                  </div>
                );
              })}
            </div>
          ))}
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
