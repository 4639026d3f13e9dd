// Posts: the list (filters, cursor paging) and a post's page (each target's status, attempts, permalink; retry,
// mark published and cancel). A target still on its way refreshes itself every few seconds (htmx polling its
// own card), so the page follows the publishing without a reload; a card that needs a person stops polling, so
// nothing typed into its form is swept away.
import type { Frame } from "./frame.ts";
import { esc, optionHtml, trusted } from "./html.ts";
import { Layout } from "./layout.tsx";
import { brandLabel, Csrf, when, whenIn } from "./parts.tsx";
import {
  type ChannelLabel,
  canChange,
  FieldProblems,
  NetworkTag,
  networkName,
  networkOf,
  networkTagHtml,
  OtherProblems,
  type Problems,
  StatusTag,
  statusTagHtml,
} from "./publishing.tsx";

export interface PostBrand {
  id: string;
  name: string;
  slug: string;
  timezone: string;
}
export interface PostTarget {
  id: string;
  channel: string;
  channel_name: string;
  provider: string;
  parts: string[];
  status: string;
  attempts: number;
  next_attempt_at: string | null;
  publish_by: string | null;
  permalink: string | null;
  error: { code: string; message: string } | null;
  published_at: string | null;
  engagement: {
    likes: number;
    reposts: number;
    replies: number;
    quotes: number;
    views: number | null;
    read_at: string | null;
  } | null;
  first_comment?: { text: string; status: string; permalink: string | null } | null;
  deleted_at?: string | null;
}
export interface PostRow {
  id: string;
  brand: string;
  status: string;
  publish_at: string | null;
  publish_by: string | null;
  approval: { required: boolean; reviewed_at: string | null; note: string | null };
  media: { id: string; filename: string | null; alt: string | null; type: string }[];
  targets: PostTarget[];
  created_at: string;
  content?: unknown;
  problems?: { code: string; message: string; param?: string | undefined }[];
}
export interface Attempt {
  attempt: number;
  started_at: string;
  finished_at: string | null;
  outcome: string;
  error: { code: string; message: string } | null;
}
export interface ChannelInfo extends ChannelLabel {
  profile_url: string | null;
}

export const POST_FILTERS = [
  ["", "Any status"],
  ["draft", "Drafts"],
  ["scheduled", "Scheduled"],
  ["pending_approval", "Waiting for approval"],
  ["publishing", "Publishing"],
  ["published", "Published"],
  ["partially_published", "Partly published"],
  ["failed", "Failed"],
  ["canceled", "Canceled"],
  ["rejected", "Rejected"],
] as const;

export interface ListProps {
  f: Frame;
  brands: PostBrand[];
  channels: ChannelInfo[];
  posts: PostRow[];
  filters: { status: string; brand: string; channel: string; q: string };
  /** Cursor links: older (starting_after) and newer (ending_before) pages, when there are any. */
  older: string | null;
  newer: string | null;
  problems?: Problems | undefined;
}

const brandOf = (brands: PostBrand[], id: string) => {
  const b = brands.find((x) => x.id === id);
  return b ? brandLabel(b) : "";
};
const zoneOf = (brands: PostBrand[], id: string) => brands.find((b) => b.id === id)?.timezone ?? "UTC";
const textOf = (p: PostRow) => p.targets[0]?.parts.join("\n\n") ?? "";

// The list's rows and its filters' options are built as escaped strings (views/html.ts): fifty brands' options
// and their channels' groups, and twenty rows, cost the JSX runtime more than the page's reads.

/** The channel filter's options, grouped by brand. */
function channelGroupsHtml(brands: PostBrand[], channels: ChannelInfo[], chosen: string): string {
  return brands
    .map(
      (b) =>
        `<optgroup label="${esc(brandLabel(b))}">${channels
          .filter((c) => c.brand === b.id)
          .map((c) =>
            optionHtml(
              c.id,
              `${c.display_name ?? c.handle ?? c.id} (${networkName(networkOf(c))})`,
              chosen === c.id,
            ),
          )
          .join("")}</optgroup>`,
    )
    .join("");
}

/** `byId`: the page's channels by ID, made once for the page rather than once a row. */
function postRowHtml(p: PostRow, brands: PostBrand[], byId: Map<string, ChannelInfo>): string {
  const chans = p.targets
    .map((t) => {
      const c = byId.get(t.channel);
      return `<li>${esc(t.channel_name)} ${c ? networkTagHtml(c) : `<span class="tag">${esc(t.provider)}</span>`}</li>`;
    })
    .join("");
  return (
    `<li class="post-row"><div class="post-when">${statusTagHtml(p.status)}` +
    `<span class="when">${esc(p.publish_at ? whenIn(p.publish_at, zoneOf(brands, p.brand)) : "No time yet")}</span>` +
    `<span class="muted">${esc(brandOf(brands, p.brand))}</span></div>` +
    `<a class="post-text" href="/posts/${esc(p.id)}">${esc(textOf(p) || "(media only)")}</a>` +
    `<ul class="plain chan-list">${chans}</ul></li>`
  );
}

export function PostsPage(props: ListProps) {
  const { f, filters, problems } = props;
  const filtered =
    filters.status !== "" || filters.brand !== "" || filters.channel !== "" || filters.q !== "";
  const channelsById = new Map(props.channels.map((c) => [c.id, c]));
  return (
    <Layout f={f}>
      <div class="wide">
        {f.scopes.includes("posts:write") ? (
          <div class="page-actions">
            <a class="button primary" href="/posts/new">
              New post
            </a>
          </div>
        ) : null}
        <search>
          <form method="get" action="/posts" class="filters" id="post-filters">
            <div class="field">
              <label for="f-q">Search text</label>
              <input id="f-q" name="q" type="search" value={filters.q} maxlength={200} />
              <FieldProblems id="f-q-error" problems={problems?.q} />
            </div>
            <div class="field">
              <label for="f-status">Status</label>
              <select id="f-status" name="status">
                {POST_FILTERS.map(([v, label]) => (
                  <option value={v} selected={filters.status === v}>
                    {label}
                  </option>
                ))}
              </select>
              <FieldProblems id="f-status-error" problems={problems?.status} />
            </div>
            <div class="field">
              <label for="f-brand">Brand</label>
              <select id="f-brand" name="brand">
                <option value="">Every brand</option>
                {trusted(
                  props.brands.map((b) => optionHtml(b.id, brandLabel(b), filters.brand === b.id)).join(""),
                )}
              </select>
              <FieldProblems id="f-brand-error" problems={problems?.brand} />
            </div>
            <div class="field">
              <label for="f-channel">Channel</label>
              <select id="f-channel" name="channel">
                <option value="">Every channel</option>
                {trusted(channelGroupsHtml(props.brands, props.channels, filters.channel))}
              </select>
              <FieldProblems id="f-channel-error" problems={problems?.channel} />
            </div>
            <button type="submit">Filter</button>
            {filtered ? <a href="/posts">Clear filters</a> : null}
          </form>
        </search>
        <OtherProblems
          problems={problems}
          shown={(k) => k === "q" || k === "status" || k === "brand" || k === "channel"}
        />
        {props.posts.length === 0 ? (
          <div class="empty" id="posts-empty">
            {filtered ? (
              <p>
                No post matches these filters. <a href="/posts">Clear filters</a> to see every post.
              </p>
            ) : (
              <p>
                No posts in {f.livemode ? "live" : "test"} mode yet.{" "}
                {f.scopes.includes("posts:write") ? (
                  <>
                    <a href="/posts/new">Write the first one</a>.
                  </>
                ) : null}
              </p>
            )}
          </div>
        ) : (
          <ul class="post-list" id="post-list">
            {trusted(props.posts.map((p) => postRowHtml(p, props.brands, channelsById)).join(""))}
          </ul>
        )}
        <nav class="pager" aria-label="Pages">
          {props.newer ? (
            <a href={props.newer} rel="prev">
              ← Newer
            </a>
          ) : null}
          {props.older ? (
            <a href={props.older} rel="next">
              Older →
            </a>
          ) : null}
        </nav>
      </div>
    </Layout>
  );
}

const OUTCOME: Record<string, string> = {
  published: "Published",
  rate_limited: "Rate limited (tried again later)",
  auth_revoked: "The account's access was revoked",
  rejected: "Refused by the network",
  transient: "Network error (tried again later)",
  uncertain: "No answer: may or may not have been posted",
  unknown: "Unknown error",
  running: "Running",
};

/** Still on its way: its card polls for changes. */
export const inFlight = (status: string) =>
  status === "queued" || status === "publishing" || status === "held";

export interface TargetProps {
  f: Frame;
  postId: string;
  target: PostTarget;
  attempts: Attempt[];
  channel: ChannelInfo | undefined;
  timezone: string;
  problems?: Problems | undefined;
  /** The post's status, swapped in out of band when the card refreshes itself. */
  postStatus?: string;
}

export function TargetCard(props: TargetProps) {
  const { target: t, channel: c, postId, f } = props;
  const writable = canChange(f);
  const base = `/posts/${postId}/targets/${t.id}`;
  const poll = inFlight(t.status);
  const markBad = props.problems?.[`permalink.${t.id}`];
  return (
    <li
      class={`target target-${t.status}`}
      id={`target-${t.id}`}
      hx-get={poll ? base : undefined}
      hx-trigger={poll ? "every 3s" : undefined}
      hx-swap={poll ? "outerHTML" : undefined}
    >
      <div class="target-head">
        <strong>{c?.display_name ?? t.channel_name}</strong>
        {c ? <NetworkTag c={c} /> : <span class="tag">{t.provider}</span>}
        {c?.handle ? <span class="muted">{c.handle}</span> : null}
        <StatusTag status={t.status} id={`target-status-${t.id}`} />
      </div>
      <ol class={t.parts.length > 1 ? "parts thread" : "parts"}>
        {t.parts.map((p) => (
          <li class="part">
            <p class="part-text">{p}</p>
          </li>
        ))}
      </ol>
      <dl class="facts">
        {t.published_at ? (
          <>
            <dt>Published</dt>
            <dd>{whenIn(t.published_at, props.timezone)}</dd>
          </>
        ) : null}
        {t.next_attempt_at ? (
          <>
            <dt>Next try</dt>
            <dd>{whenIn(t.next_attempt_at, props.timezone)}</dd>
          </>
        ) : null}
        {t.permalink ? (
          <>
            <dt>On the network</dt>
            <dd>
              <a href={t.permalink} class="permalink" rel="noopener noreferrer">
                {t.permalink}
              </a>
            </dd>
          </>
        ) : null}
        {t.first_comment ? (
          <>
            <dt>First comment</dt>
            <dd class="first-comment">
              {t.first_comment.permalink ? (
                <a href={t.first_comment.permalink} rel="noopener noreferrer">
                  {t.first_comment.text}
                </a>
              ) : (
                t.first_comment.text
              )}{" "}
              <span class="muted">({t.first_comment.status.replace("_", " ")})</span>
            </dd>
          </>
        ) : null}
        {t.deleted_at ? (
          <>
            <dt>Deleted</dt>
            <dd>Removed from the network {whenIn(t.deleted_at, props.timezone)}</dd>
          </>
        ) : null}
        {t.engagement?.read_at ? (
          <>
            <dt>Engagement</dt>
            <dd class="engagement">
              {t.engagement.likes} likes · {t.engagement.reposts} reposts · {t.engagement.replies} replies ·{" "}
              {t.engagement.quotes} quotes
              {t.engagement.views !== null ? ` · ${t.engagement.views} views` : ""}{" "}
              <span class="muted">(read {whenIn(t.engagement.read_at, props.timezone)})</span>
            </dd>
          </>
        ) : null}
        {t.error ? (
          <>
            <dt>Error</dt>
            <dd class="target-error">
              {t.error.message} <code class="code">{t.error.code}</code>
            </dd>
          </>
        ) : null}
      </dl>
      {props.attempts.length ? (
        <details class="attempts" open={t.status === "failed" || t.status === "needs_attention"}>
          <summary>
            {props.attempts.length} attempt{props.attempts.length > 1 ? "s" : ""}
          </summary>
          <ol class="plain attempt-list">
            {props.attempts.map((a) => (
              <li>
                <span class="when">{whenIn(a.started_at, props.timezone)}</span>{" "}
                <strong>{OUTCOME[a.outcome] ?? a.outcome}</strong>
                {a.error ? (
                  <span class="attempt-error">
                    {" "}
                    — {a.error.message} <code class="code">{a.error.code}</code>
                  </span>
                ) : null}
              </li>
            ))}
          </ol>
        </details>
      ) : null}
      {t.status === "needs_attention" || t.status === "failed" ? (
        <div class="resolve">
          {t.status === "needs_attention" ? (
            <p class="explain">
              <strong>This may or may not have been posted.</strong> svc sent it to the network but did not
              hear back, so the post may be on the account or may not. Look at the account
              {c?.profile_url ? (
                <>
                  {" "}
                  (
                  <a href={c.profile_url} rel="noopener noreferrer">
                    open it
                  </a>
                  )
                </>
              ) : null}{" "}
              before you choose: if it is there, mark it published (paste its link if you like); if it is not,
              retry. Retrying a post that is already there would post it twice.
            </p>
          ) : (
            <p class="explain">
              It was not posted. Fix the cause (for example reconnect the channel) and retry, or, if you
              posted it by hand, mark it published.
            </p>
          )}
          <form method="post" action={`${base}/retry`} class="inline">
            <Csrf token={f.csrf} />
            <button type="submit" disabled={!writable}>
              Retry
            </button>
          </form>
          <form method="post" action={`${base}/mark-published`} class="mark">
            <Csrf token={f.csrf} />
            <label for={`permalink-${t.id}`}>Its link on the network (optional)</label>
            <input
              id={`permalink-${t.id}`}
              name="permalink"
              type="url"
              aria-describedby={markBad ? `permalink-${t.id}-error` : undefined}
            />
            <FieldProblems id={`permalink-${t.id}-error`} problems={markBad} />
            <button type="submit" disabled={!writable}>
              Mark published
            </button>
          </form>
        </div>
      ) : null}
      {props.postStatus ? (
        <span id="post-status" hx-swap-oob="true">
          <StatusTag status={props.postStatus} />
        </span>
      ) : null}
    </li>
  );
}

export interface DetailProps {
  f: Frame;
  post: PostRow;
  brand: PostBrand;
  attempts: Record<string, Attempt[]>;
  channels: ChannelInfo[];
  problems?: Problems | undefined;
}

const CANCELABLE = new Set(["draft", "held", "queued", "needs_attention"]);
const EDITABLE = new Set(["draft", "scheduled", "pending_approval"]);

/** The text of a post made from content (a template post is edited through the API or the CLI). */
function bodyOf(p: PostRow): string | null {
  const c = p.content as { body?: string; parts?: string[] } | null | undefined;
  if (!c) return null;
  return c.body ?? (c.parts ? c.parts.join("\n{{thread}}\n") : null);
}

/** Edit a post before it is published: its text and first comment; a draft can be scheduled from here. */
function EditForm(props: { f: Frame; post: PostRow; problems?: Problems | undefined }) {
  const { f, post: p } = props;
  const body = bodyOf(p);
  if (!EDITABLE.has(p.status) || p.targets.some((t) => t.attempts > 0) || body === null) return null;
  const comment = p.targets[0]?.first_comment?.text ?? "";
  return (
    <form method="post" action={`/posts/${p.id}/edit`} class="card edit-post" id="edit-post">
      <h2>Edit before publishing</h2>
      <Csrf token={f.csrf} />
      <label for="edit-body">Text</label>
      <textarea id="edit-body" name="body" rows={5}>
        {body}
      </textarea>
      <label for="edit-comment">First comment (optional)</label>
      <input id="edit-comment" type="text" name="first_comment" value={comment} />
      <p class="muted">Checked again against every channel's rules when saved.</p>
      <button type="submit" disabled={!canChange(f)}>
        Save
      </button>{" "}
      {p.status === "draft" ? (
        <button type="submit" name="schedule" value="1" class="secondary" disabled={!canChange(f)}>
          Save and schedule
        </button>
      ) : null}
    </form>
  );
}

export function PostPage(props: DetailProps) {
  const { f, post: p, brand } = props;
  const writable = canChange(f);
  const byId = new Map(props.channels.map((c) => [c.id, c]));
  const cancelable = p.targets.some((t) => CANCELABLE.has(t.status));
  return (
    <Layout f={f}>
      <div class="post-summary card" id="post-summary">
        <p>
          <span id="post-status">
            <StatusTag status={p.status} />
          </span>{" "}
          <strong>{brandLabel(brand)}</strong>
        </p>
        <dl class="facts">
          <dt>Time</dt>
          <dd id="post-time">
            {p.publish_at
              ? whenIn(p.publish_at, brand.timezone)
              : p.status === "draft"
                ? "Not scheduled yet (a draft)"
                : "When it is approved"}
          </dd>
          {p.publish_by ? (
            <>
              <dt>Publish by</dt>
              <dd>{whenIn(p.publish_by, brand.timezone)}</dd>
            </>
          ) : null}
          <dt>Created</dt>
          <dd>{when(p.created_at)}</dd>
          {f.scopes.includes("events:read") ? (
            <>
              <dt>History</dt>
              <dd>
                <a href={`/events?post=${p.id}`} id="post-events">
                  Events of this post
                </a>
              </dd>
            </>
          ) : null}
          {p.approval.required ? (
            <>
              <dt>Approval</dt>
              <dd>
                {p.approval.reviewed_at ? `Reviewed ${when(p.approval.reviewed_at)}` : "Waiting for approval"}
                {p.approval.note ? ` — “${p.approval.note}”` : ""}
              </dd>
            </>
          ) : null}
          {p.media.length ? (
            <>
              <dt>Media</dt>
              <dd>
                <ul class="plain">
                  {p.media.map((m) => (
                    <li>
                      {m.filename ?? m.id}{" "}
                      <span class="muted">{m.alt ? `Alt text: ${m.alt}` : "No alt text"}</span>
                    </li>
                  ))}
                </ul>
              </dd>
            </>
          ) : null}
        </dl>
        {p.targets.some((t) => t.status === "published" && !t.deleted_at) ? (
          <form
            method="post"
            action={`/posts/${p.id}/delete-published`}
            class="inline"
            data-confirm="Delete this post from every network that allows it? This cannot be undone."
          >
            <Csrf token={f.csrf} />
            <button type="submit" class="danger" disabled={!writable}>
              Delete from networks
            </button>
          </form>
        ) : null}
        {cancelable ? (
          <form
            method="post"
            action={`/posts/${p.id}/cancel`}
            class="inline"
            data-confirm="Cancel this post? What is not published yet will not be."
          >
            <Csrf token={f.csrf} />
            <button type="submit" class="danger" disabled={!writable}>
              {p.status === "draft" ? "Discard draft" : "Cancel post"}
            </button>
          </form>
        ) : null}
      </div>
      {p.problems?.length ? (
        <div class="card notice" id="draft-problems">
          <strong>What to fix before it can be scheduled</strong>
          <ul>
            {p.problems.map((x) => (
              <li>
                {x.message} <span class="muted">({x.code})</span>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      <OtherProblems problems={props.problems} shown={(k) => k.startsWith("permalink.")} />
      <EditForm f={f} post={p} problems={props.problems} />
      <h2>Channels</h2>
      <ul class="targets" id="targets">
        {p.targets.map((t) => (
          <TargetCard
            f={f}
            postId={p.id}
            target={t}
            attempts={props.attempts[t.id] ?? []}
            channel={byId.get(t.channel)}
            timezone={brand.timezone}
            problems={props.problems}
          />
        ))}
      </ul>
      <p>
        <a href="/posts">All posts</a>
      </p>
    </Layout>
  );
}
