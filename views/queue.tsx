// The queue: a brand's week by day in the brand's zone, each day's slots (free ones visible) and posts in time
// order. Each post that can still move has a Move link to the page's one move form (a free slot of the week, any
// time, or another post to swap with): without JavaScript the link opens the page with that form open for the
// post; with it (static/calendar.js) the same form opens in a dialog at once. One form per page, not one per card:
// a busy week of 500 posts each with its own form of every free slot and swap choice was 60 times the API's time.
// A refused move (slot_taken, post_not_movable, publish_at_invalid) shows on the post's card and in the form.

import { localParts, zonedClock } from "../src/lib/zoned.ts";
import type { Frame } from "./frame.ts";
import { esc, optionHtml, trusted } from "./html.ts";
import { Layout } from "./layout.tsx";
import { brandLabel, Csrf, dateLabel } from "./parts.tsx";
import {
  type ChannelLabel,
  canChange,
  FieldProblems,
  fieldProblemsHtml,
  networkTagHtml,
  type Problems,
  statusTagHtml,
} from "./publishing.tsx";

export interface QueuePost {
  id: string;
  status: string;
  publish_at: string | null;
  slot: boolean;
  targets: { channel: string; channel_name: string; parts: string[]; attempts: number }[];
}
export interface QueueWeek {
  brand: { id: string; name: string; slug: string; timezone: string };
  days: { date: string; start: string }[];
  previous: string;
  next: string;
  slots: { at: string; post: string | null }[];
  posts: QueuePost[];
  truncated: boolean;
}

export interface QueueProps {
  f: Frame;
  brands: { id: string; name: string; slug: string }[];
  week: QueueWeek | null;
  channels: ChannelLabel[];
  /** Posts waiting for approval that take a slot only when approved. */
  waiting: number;
  /** Now (ISO): a slot already past is no longer free. */
  now: string;
  problems?: Problems | undefined;
  /** The post whose move form is open (?move=<id>, or the one whose move was just refused). */
  moving?: string | undefined;
}

/** Times of day and short dates in the brand's zone (from the zone's offset cache, not Intl per row). */
function clocks(tz: string) {
  return {
    timeIn: (iso: string) => zonedClock(Date.parse(iso), tz),
    dayIn: (iso: string) => {
      const p = localParts(Date.parse(iso), tz);
      const date = `${p.year}-${String(p.month).padStart(2, "0")}-${String(p.day).padStart(2, "0")}`;
      return dateLabel(date, { weekday: "short", day: "numeric", month: "short" });
    },
  };
}
/** The date of a local-midnight instant, read in the zone (days are labelled by their own calendar date). */
const dayLabel = (date: string) => dateLabel(date, { weekday: "long", day: "numeric", month: "short" });

const movable = (p: QueuePost) =>
  (p.status === "scheduled" || p.status === "pending_approval") && p.targets.every((t) => t.attempts === 0);

type Entry = { at: string; kind: "free" } | { at: string; kind: "post"; post: QueuePost };

const excerpt = (p: QueuePost) => {
  const t = p.targets[0]?.parts[0] ?? "";
  return t.length > 40 ? `${t.slice(0, 40)}…` : t;
};

/** A post's card, built as a string (views/html.ts): a week repeats it up to 500 times. */
function postCardHtml(
  p: QueuePost,
  q: QueueProps,
  week: QueueWeek,
  byId: Map<string, ChannelLabel>,
  timeIn: (iso: string) => string,
  canMove: boolean,
): string {
  const text = p.targets[0]?.parts.join("\n\n") ?? "";
  const time = p.publish_at ? timeIn(p.publish_at) : "";
  const chans = p.targets
    .map((t) => {
      const c = byId.get(t.channel);
      return c ? networkTagHtml(c) : `<span class="tag">${esc(t.channel_name)}</span>`;
    })
    .join("");
  const move = canMove
    ? `<a class="move-link" href="/queue?brand=${esc(week.brand.id)}&amp;week=${esc(week.days[0]!.date)}&amp;move=${esc(p.id)}#move-dialog" data-move="${esc(p.id)}" data-label="${esc(`${time} · ${excerpt(p)}`)}">Move<span class="visually-hidden"> this post</span></a>`
    : "";
  return (
    `<li class="cal-post status-bar-${esc(p.status)}" id="cal-${esc(p.id)}">` +
    `<div class="cal-head"><span class="cal-time">${esc(time)}</span>${statusTagHtml(p.status)}</div>` +
    `<a class="post-text cal-text" href="/posts/${esc(p.id)}">${esc(text || "(media only)")}</a>` +
    `<p class="cal-chans">${chans}</p>` +
    fieldProblemsHtml(`move-${p.id}-error`, q.problems?.[p.id]) +
    move +
    "</li>"
  );
}

/**
 * The page's one move form. Its action and the post it names are the post's whose Move was chosen; the script
 * sets them when a Move link is clicked, the server when the page was asked for with ?move=<id>.
 */
function MoveDialog(props: {
  q: QueueProps;
  week: QueueWeek;
  post: QueuePost | null;
  free: string[];
  swappable: QueuePost[];
  clock: ReturnType<typeof clocks>;
}) {
  const { q, week, post, clock } = props;
  const tz = week.brand.timezone;
  const back = `/queue?brand=${week.brand.id}&week=${week.days[0]!.date}`;
  const problems = post ? q.problems?.[post.id] : undefined;
  return (
    <dialog id="move-dialog" class="move-dialog" aria-labelledby="move-title" open={post ? true : undefined}>
      <form method="post" action={post ? `/queue/${post.id}/move` : "/queue"} class="move" id="move-form">
        <Csrf token={q.f.csrf} />
        <input type="hidden" name="brand" value={week.brand.id} />
        <input type="hidden" name="week" value={week.days[0]!.date} />
        <h2 id="move-title">Move a post</h2>
        <p class="muted" id="move-which">
          {post ? `${post.publish_at ? clock.timeIn(post.publish_at) : ""} · ${excerpt(post)}` : ""}
        </p>
        <FieldProblems id="move-form-error" problems={problems} />
        <label for="move-slot">To a free slot</label>
        <select id="move-slot" name="slot">
          <option value="">— or the time below —</option>
          {trusted(
            props.free
              .map(
                (at) =>
                  `<option value="${esc(at)}">${esc(`${clock.dayIn(at)} ${clock.timeIn(at)}`)}</option>`,
              )
              .join(""),
          )}
        </select>
        <label for="move-at">Or a time ({tz})</label>
        <input id="move-at" name="at" type="datetime-local" />
        {props.swappable.length > 1 ? (
          <>
            <label for="move-swap">Or swap times with</label>
            <select id="move-swap" name="swap_with">
              <option value="">—</option>
              {trusted(
                props.swappable
                  .map(
                    (o) =>
                      `<option value="${esc(o.id)}"${o.id === post?.id ? " disabled" : ""}>${esc(
                        `${clock.dayIn(o.publish_at!)} ${clock.timeIn(o.publish_at!)} · ${excerpt(o)}`,
                      )}</option>`,
                  )
                  .join(""),
              )}
            </select>
          </>
        ) : null}
        <div class="actions">
          <button type="submit">Move here</button>
          <a href={back} class="button secondary" id="move-cancel">
            Cancel
          </a>
        </div>
      </form>
    </dialog>
  );
}

export function QueuePage(props: QueueProps) {
  const { f, week } = props;
  if (!week)
    return (
      <Layout f={f}>
        <div class="empty" id="queue-empty">
          <p>No brands yet. Create one with the API or the CLI, then its week shows here.</p>
        </div>
      </Layout>
    );
  const tz = week.brand.timezone;
  const clock = clocks(tz);
  const byId = new Map(props.channels.map((c) => [c.id, c]));
  const change = canChange(f);
  // A slot already past is no longer free; a held one shows as the post holding it.
  const free = week.slots.filter((s) => s.post === null && s.at > props.now).map((s) => s.at);
  const swappable = week.posts.filter((p) => p.publish_at && movable(p));
  const moving = change && props.moving ? (week.posts.find((p) => p.id === props.moving) ?? null) : null;
  const entries: Entry[] = [
    ...free.map((at) => ({ at, kind: "free" as const })),
    ...week.posts
      .filter((p) => p.publish_at)
      .map((p) => ({ at: p.publish_at!, kind: "post" as const, post: p })),
  ].sort((a, b) => a.at.localeCompare(b.at));
  return (
    <Layout f={f} scripts={change && (swappable.length || moving) ? ["/static/calendar.js"] : []}>
      <div class="wide">
        <div class="queue-bar">
          <form method="get" action="/queue" class="inline" id="queue-brand">
            <label for="q-brand">Brand</label>
            <select id="q-brand" name="brand">
              {trusted(
                props.brands.map((b) => optionHtml(b.id, brandLabel(b), b.id === week.brand.id)).join(""),
              )}
            </select>
            <input type="hidden" name="week" value={week.days[0]!.date} />
            <button type="submit">Show</button>
          </form>
          <nav class="week-nav" aria-label="Weeks">
            <a href={`/queue?brand=${week.brand.id}&week=${week.previous}`}>← Previous week</a>
            <a href={`/queue?brand=${week.brand.id}`}>This week</a>
            <a href={`/queue?brand=${week.brand.id}&week=${week.next}`}>Next week →</a>
          </nav>
          <nav class="view-switch" aria-label="Calendar view">
            <a href={`/queue?brand=${week.brand.id}&week=${week.days[0]!.date}`} aria-current="page">
              Week
            </a>
            <a href={`/queue?view=month&brand=${week.brand.id}&month=${week.days[0]!.date.slice(0, 7)}`}>
              Month
            </a>
          </nav>
        </div>
        <p class="muted" id="week-of">
          Week of {dayLabel(week.days[0]!.date)}, times in {tz}.{" "}
          {props.waiting ? (
            <a href="/approvals">
              {props.waiting} post{props.waiting > 1 ? "s wait" : " waits"} for approval
            </a>
          ) : null}
        </p>
        {week.truncated ? (
          <p class="alert warn">This week holds more posts than shown; the first 500 are.</p>
        ) : null}
        {change && (swappable.length || moving) ? (
          <MoveDialog q={props} week={week} post={moving} free={free} swappable={swappable} clock={clock} />
        ) : null}
        <ol class="week" id="week">
          {week.days.map((d, i) => {
            const end = week.days[i + 1]?.start ?? "9999";
            const today = entries.filter((e) => e.at >= d.start && e.at < end);
            return (
              <li class="day" aria-labelledby={`day-${d.date}`}>
                <h2 id={`day-${d.date}`} class="day-name">
                  {dayLabel(d.date)}
                </h2>
                {today.length === 0 ? (
                  <p class="muted">{end <= props.now ? "Past." : "No slots or posts."}</p>
                ) : (
                  <ul class="plain day-list">
                    {trusted(
                      today
                        .map((e) =>
                          e.kind === "free"
                            ? `<li class="cal-free"><span class="cal-time">${esc(clock.timeIn(e.at))}</span> Free slot</li>`
                            : postCardHtml(
                                e.post,
                                props,
                                week,
                                byId,
                                clock.timeIn,
                                change && movable(e.post),
                              ),
                        )
                        .join(""),
                    )}
                  </ul>
                )}
              </li>
            );
          })}
        </ol>
        {week.posts.length === 0 && free.length === 0 ? (
          <div class="empty">
            <p>
              Nothing this week, and the brand has no slots.{" "}
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
