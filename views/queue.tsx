// The queue: a brand's week by day in the brand's zone, each day's slots (free ones visible) and posts in time
// order, with a Move form on each post that can still move (a free slot of the week or any time). A refused
// move (slot_taken, post_not_movable, publish_at_invalid) shows on the post's card with its code.
import type { Frame } from "./frame.ts";
import { Layout } from "./layout.tsx";
import { brandLabel, Csrf, dateFormat } from "./parts.tsx";
import {
  type ChannelLabel,
  canChange,
  FieldProblems,
  NetworkTag,
  type Problems,
  StatusTag,
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
}

const parts = (iso: string, tz: string) =>
  Object.fromEntries(
    dateFormat({
      timeZone: tz,
      weekday: "short",
      day: "numeric",
      month: "short",
      hour: "2-digit",
      minute: "2-digit",
      hourCycle: "h23",
    })
      .formatToParts(new Date(iso))
      .map((p) => [p.type, p.value]),
  );
const timeIn = (iso: string, tz: string) => {
  const p = parts(iso, tz);
  return `${p.hour}:${p.minute}`;
};
const dayIn = (iso: string, tz: string) => {
  const p = parts(iso, tz);
  return `${p.weekday} ${p.day} ${p.month}`;
};
/** The date of a local-midnight instant, read in the zone (days are labelled by their own calendar date). */
const dayLabel = (date: string) => {
  const [y, m, d] = date.split("-").map(Number) as [number, number, number];
  return dateFormat({
    timeZone: "UTC",
    weekday: "long",
    day: "numeric",
    month: "short",
  }).format(new Date(Date.UTC(y, m - 1, d)));
};

const movable = (p: QueuePost) =>
  (p.status === "scheduled" || p.status === "pending_approval") && p.targets.every((t) => t.attempts === 0);

/**
 * The posts a card offers to swap with: the nearest in time, at most SWAP_CHOICES. Every card listing every other
 * post of a busy week made the page grow with the square of its posts (350 posts: 120,000 options, 22 s).
 */
const SWAP_CHOICES = 12;
const nearest = (all: QueuePost[], p: QueuePost) => {
  const at = Date.parse(p.publish_at ?? "");
  return all
    .filter((o) => o.id !== p.id)
    .map((o) => [Math.abs(Date.parse(o.publish_at!) - at), o] as const)
    .sort((a, b) => a[0] - b[0])
    .slice(0, SWAP_CHOICES)
    .map(([, o]) => o)
    .sort((a, b) => a.publish_at!.localeCompare(b.publish_at!));
};

type Entry = { at: string; kind: "free" } | { at: string; kind: "post"; post: QueuePost };

const excerpt = (p: QueuePost) => {
  const t = p.targets[0]?.parts[0] ?? "";
  return t.length > 40 ? `${t.slice(0, 40)}…` : t;
};

function PostCard(props: {
  p: QueuePost;
  q: QueueProps;
  week: QueueWeek;
  free: string[];
  /** The week's other posts this one can trade times with. */
  others: QueuePost[];
}) {
  const { p, q, week } = props;
  const tz = week.brand.timezone;
  const byId = new Map(q.channels.map((c) => [c.id, c]));
  const problems = q.problems?.[p.id];
  const text = p.targets[0]?.parts.join("\n\n") ?? "";
  return (
    <li class={`cal-post status-bar-${p.status}`} id={`cal-${p.id}`}>
      <div class="cal-head">
        <span class="cal-time">{p.publish_at ? timeIn(p.publish_at, tz) : ""}</span>
        <StatusTag status={p.status} />
      </div>
      <a class="post-text cal-text" href={`/posts/${p.id}`}>
        {text || "(media only)"}
      </a>
      <p class="cal-chans">
        {p.targets.map((t) => {
          const c = byId.get(t.channel);
          return c ? <NetworkTag c={c} /> : <span class="tag">{t.channel_name}</span>;
        })}
      </p>
      <FieldProblems id={`move-${p.id}-error`} problems={problems} />
      {movable(p) && canChange(q.f) ? (
        <details class="move" open={!!problems}>
          <summary>Move</summary>
          <form method="post" action={`/queue/${p.id}/move`}>
            <Csrf token={q.f.csrf} />
            <input type="hidden" name="brand" value={week.brand.id} />
            <input type="hidden" name="week" value={week.days[0]!.date} />
            <label for={`move-slot-${p.id}`}>To a free slot</label>
            <select id={`move-slot-${p.id}`} name="slot">
              <option value="">— or the time below —</option>
              {props.free.map((at) => (
                <option value={at}>
                  {dayIn(at, tz)} {timeIn(at, tz)}
                </option>
              ))}
            </select>
            <label for={`move-at-${p.id}`}>Or a time ({tz})</label>
            <input id={`move-at-${p.id}`} name="at" type="datetime-local" />
            {props.others.length ? (
              <>
                <label for={`move-swap-${p.id}`}>Or swap times with</label>
                <select id={`move-swap-${p.id}`} name="swap_with">
                  <option value="">—</option>
                  {props.others.map((o) => (
                    <option value={o.id}>
                      {dayIn(o.publish_at!, tz)} {timeIn(o.publish_at!, tz)} · {excerpt(o)}
                    </option>
                  ))}
                </select>
              </>
            ) : null}
            <button type="submit">Move here</button>
          </form>
        </details>
      ) : null}
    </li>
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
  // A slot already past is no longer free; a held one shows as the post holding it.
  const free = week.slots.filter((s) => s.post === null && s.at > props.now).map((s) => s.at);
  const swappable = week.posts.filter((p) => p.publish_at && movable(p));
  const entries: Entry[] = [
    ...free.map((at) => ({ at, kind: "free" as const })),
    ...week.posts
      .filter((p) => p.publish_at)
      .map((p) => ({ at: p.publish_at!, kind: "post" as const, post: p })),
  ].sort((a, b) => a.at.localeCompare(b.at));
  return (
    <Layout f={f}>
      <div class="wide">
        <div class="queue-bar">
          <form method="get" action="/queue" class="inline" id="queue-brand">
            <label for="q-brand">Brand</label>
            <select id="q-brand" name="brand">
              {props.brands.map((b) => (
                <option value={b.id} selected={b.id === week.brand.id}>
                  {brandLabel(b)}
                </option>
              ))}
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
                    {today.map((e) =>
                      e.kind === "free" ? (
                        <li class="cal-free">
                          <span class="cal-time">{timeIn(e.at, tz)}</span> Free slot
                        </li>
                      ) : (
                        <PostCard
                          p={e.post}
                          q={props}
                          week={week}
                          free={free}
                          others={nearest(swappable, e.post)}
                        />
                      ),
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
