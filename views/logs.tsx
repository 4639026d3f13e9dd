// The org's logs: events (what happened, 30 days, this mode), the audit log (who changed what, every mode) and the
// request log (the API requests of the org's keys and CLI sign-ins in this mode, 14 days). Each has filters in a
// GET form and cursor paging; every value shown is escaped, payloads included.
import type { Child } from "hono/jsx";
import type { FieldErrors, Frame } from "./frame.ts";
import { Layout } from "./layout.tsx";
import { FormError, when } from "./parts.tsx";

export function Pager(props: { older: string | null; newer: string | null }) {
  return (
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
  );
}

function Filters(props: { id: string; action: string; filtered: boolean; children?: Child }) {
  return (
    <search>
      <form method="get" action={props.action} class="filters" id={props.id}>
        {props.children}
        <button type="submit">Filter</button>
        {props.filtered ? <a href={props.action}>Clear filters</a> : null}
      </form>
    </search>
  );
}

function FilterField(props: {
  name: string;
  label: string;
  errors?: FieldErrors | undefined;
  children?: Child;
}) {
  const error = props.errors?.[props.name];
  return (
    <div class={error ? "field has-error" : "field"}>
      <label for={`f-${props.name}`}>{props.label}</label>
      {props.children}
      {error ? (
        <p class="error" id={`f-${props.name}-error`}>
          {error}
        </p>
      ) : null}
    </div>
  );
}

function Empty(props: { id: string; filtered: boolean; clear: string; children?: Child }) {
  return (
    <div class="empty" id={props.id}>
      {props.filtered ? (
        <p>
          Nothing matches these filters. <a href={props.clear}>Clear filters</a> to see everything.
        </p>
      ) : (
        <p>{props.children}</p>
      )}
    </div>
  );
}

export interface EventRow {
  id: string;
  type: string;
  request_id: string | null;
  created_at: string;
  data: { object: unknown };
}

/** The object an event is about, as a link when the dashboard has a page for it. */
function subject(data: { object: unknown }): { id: string; href: string | null } | null {
  const o = data.object as { id?: unknown; object?: unknown } | null;
  if (!o || typeof o.id !== "string") return null;
  if (o.object === "post") return { id: o.id, href: `/posts/${o.id}` };
  if (o.object === "post_target" && typeof (o as { post?: unknown }).post === "string")
    return { id: o.id, href: `/posts/${(o as { post: string }).post}` };
  if (o.object === "webhook_endpoint") return { id: o.id, href: `/webhooks/${o.id}` };
  return { id: o.id, href: null };
}

export function EventsPage(props: {
  f: Frame;
  types: string[];
  filters: { type: string; post: string };
  events: EventRow[];
  older: string | null;
  newer: string | null;
  errors?: FieldErrors | undefined;
}) {
  const { f, filters } = props;
  const filtered = filters.type !== "" || filters.post !== "";
  return (
    <Layout f={f}>
      <div class="wide">
        {filters.post && !props.errors?.post ? (
          <p id="events-of-post">
            Events of post <a href={`/posts/${filters.post}`}>{filters.post}</a> and its channels.
          </p>
        ) : null}
        <p class="hint">
          Everything that happened in {f.livemode ? "live" : "test"} mode in the last 30 days, newest first:
          the same events webhooks deliver and <code>GET /v1/events</code> lists.
        </p>
        <Filters id="event-filters" action="/events" filtered={filtered}>
          <FilterField name="type" label="Type" errors={props.errors}>
            <select id="f-type" name="type">
              <option value="">Every type</option>
              {props.types.map((t) => (
                <option value={t} selected={filters.type === t}>
                  {t}
                </option>
              ))}
            </select>
          </FilterField>
          <FilterField name="post" label="Post ID" errors={props.errors}>
            <input id="f-post" name="post" value={filters.post} placeholder="post_…" spellcheck={false} />
          </FilterField>
        </Filters>
        <FormError errors={props.errors} shown={["type", "post"]} />
        {props.events.length === 0 ? (
          <Empty id="events-empty" filtered={filtered} clear="/events">
            No events in {f.livemode ? "live" : "test"} mode in the last 30 days. Creating a post, connecting
            a channel or publishing writes one.
          </Empty>
        ) : (
          <ul class="plain log-list" id="events">
            {props.events.map((e) => {
              const s = subject(e.data);
              return (
                <li class="log-row" id={`event-${e.id}`}>
                  <div class="log-head">
                    <code class="log-type">{e.type}</code>
                    <span class="when">{when(e.created_at)}</span>
                    {s ? s.href ? <a href={s.href}>{s.id}</a> : <span class="handle">{s.id}</span> : null}
                  </div>
                  <details class="log-detail">
                    <summary>
                      Payload <span class="muted handle">{e.id}</span>
                      {e.request_id ? <span class="muted handle"> · {e.request_id}</span> : null}
                    </summary>
                    <pre class="excerpt payload">{JSON.stringify(e.data, null, 2)}</pre>
                  </details>
                </li>
              );
            })}
          </ul>
        )}
        <Pager older={props.older} newer={props.newer} />
      </div>
    </Layout>
  );
}

export interface AuditRow {
  id: string;
  action: string;
  target: string | null;
  user: string | null;
  api_key: string | null;
  user_token: string | null;
  operator: string | null;
  outcome: string;
  request_id: string | null;
  detail: unknown;
  created_at: string;
}

export function AuditPage(props: {
  f: Frame;
  filters: { action: string; outcome: string };
  rows: AuditRow[];
  /** Names for the people and keys the rows mention. */
  names: Record<string, string>;
  older: string | null;
  newer: string | null;
  errors?: FieldErrors | undefined;
}) {
  const { f, filters } = props;
  const filtered = filters.action !== "" || filters.outcome !== "";
  const who = (r: AuditRow) => {
    if (r.operator) return `operator (${r.operator})`;
    const person = r.user ? (props.names[r.user] ?? r.user) : null;
    const key = r.api_key ? `key ${props.names[r.api_key] ?? r.api_key}` : null;
    const cli = r.user_token ? "CLI sign-in" : null;
    return [person, key, cli].filter(Boolean).join(" · ") || "—";
  };
  return (
    <Layout f={f}>
      <div class="wide">
        <p class="hint">Who changed what in this org, in both modes, newest first.</p>
        <Filters id="audit-filters" action="/audit" filtered={filtered}>
          <FilterField
            name="action"
            label="Action (post.approve, or post. for all on posts)"
            errors={props.errors}
          >
            <input id="f-action" name="action" type="search" value={filters.action} maxlength={100} />
          </FilterField>
          <FilterField name="outcome" label="Outcome" errors={props.errors}>
            <select id="f-outcome" name="outcome">
              <option value="">Any</option>
              <option value="success" selected={filters.outcome === "success"}>
                Done
              </option>
              <option value="denied" selected={filters.outcome === "denied"}>
                Refused
              </option>
            </select>
          </FilterField>
        </Filters>
        <FormError errors={props.errors} shown={["action", "outcome"]} />
        {props.rows.length === 0 ? (
          <Empty id="audit-empty" filtered={filtered} clear="/audit">
            Nothing audited yet. Changes to keys, members, posts, channels and webhooks are recorded here.
          </Empty>
        ) : (
          <section class="table-wrap" tabindex={0} aria-label="Audit log (scrolls sideways)">
            <table id="audit">
              <thead>
                <tr>
                  <th scope="col">When</th>
                  <th scope="col">Action</th>
                  <th scope="col">By</th>
                  <th scope="col">Target</th>
                  <th scope="col">Detail</th>
                </tr>
              </thead>
              <tbody>
                {props.rows.map((r) => (
                  <tr id={`audit-${r.id}`}>
                    <td class="when">{when(r.created_at)}</td>
                    <td>
                      <code>{r.action}</code>
                      {r.outcome === "denied" ? <span class="status status-failed"> refused</span> : null}
                    </td>
                    <td class="text">{who(r)}</td>
                    <td>
                      <span class="handle">{r.target ?? "—"}</span>
                    </td>
                    <td class="text">
                      {r.detail ? (
                        <pre class="excerpt">{JSON.stringify(r.detail)}</pre>
                      ) : (
                        <span class="muted">—</span>
                      )}
                      {r.request_id ? <span class="muted handle">{r.request_id}</span> : null}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </section>
        )}
        <Pager older={props.older} newer={props.newer} />
      </div>
    </Layout>
  );
}

export interface RequestRow {
  id: string;
  method: string;
  path: string;
  status: number;
  code: string | null;
  duration_ms: number;
  api_key: string | null;
  user_token: string | null;
  created_at: string;
}

export const STATUS_FILTERS = [
  ["", "Any status"],
  ["2xx", "2xx (done)"],
  ["4xx", "4xx (refused)"],
  ["5xx", "5xx (our side)"],
  ["400", "400"],
  ["401", "401"],
  ["403", "403"],
  ["404", "404"],
  ["409", "409"],
  ["422", "422"],
  ["429", "429"],
] as const;

export function RequestsPage(props: {
  f: Frame;
  filters: { status: string; code: string; key: string };
  rows: RequestRow[];
  keys: { id: string; label: string }[];
  names: Record<string, string>;
  older: string | null;
  newer: string | null;
  errors?: FieldErrors | undefined;
}) {
  const { f, filters } = props;
  const filtered = filters.status !== "" || filters.code !== "" || filters.key !== "";
  const statusKnown = STATUS_FILTERS.some(([v]) => v === filters.status);
  return (
    <Layout f={f}>
      <div class="wide">
        <p class="hint">
          The API requests made with this org's keys and CLI sign-ins in {f.livemode ? "live" : "test"} mode,
          kept 14 days, newest first. Bodies are not kept. Give the request ID to support when asking about
          one.
        </p>
        <Filters id="request-filters" action="/requests" filtered={filtered}>
          <FilterField name="status" label="Status" errors={props.errors}>
            <select id="f-status" name="status">
              {STATUS_FILTERS.map(([v, label]) => (
                <option value={v} selected={filters.status === v}>
                  {label}
                </option>
              ))}
              {statusKnown ? null : (
                <option value={filters.status} selected>
                  {filters.status}
                </option>
              )}
            </select>
          </FilterField>
          <FilterField name="code" label="Problem code" errors={props.errors}>
            <input id="f-code" name="code" type="search" value={filters.code} maxlength={64} />
          </FilterField>
          <FilterField name="key" label="Key or CLI sign-in" errors={props.errors}>
            <select id="f-key" name="key">
              <option value="">Any</option>
              {props.keys.map((k) => (
                <option value={k.id} selected={filters.key === k.id}>
                  {k.label}
                </option>
              ))}
            </select>
          </FilterField>
        </Filters>
        <FormError errors={props.errors} shown={["status", "code", "key"]} />
        {props.rows.length === 0 ? (
          <Empty id="requests-empty" filtered={filtered} clear="/requests">
            No API requests in {f.livemode ? "live" : "test"} mode in the last 14 days. Requests made with an
            API key or the CLI appear here a second or so after they finish.
          </Empty>
        ) : (
          <section class="table-wrap" tabindex={0} aria-label="Request log (scrolls sideways)">
            <table id="requests">
              <thead>
                <tr>
                  <th scope="col">When</th>
                  <th scope="col">Request</th>
                  <th scope="col">Status</th>
                  <th scope="col">Duration</th>
                  <th scope="col">Key</th>
                </tr>
              </thead>
              <tbody>
                {props.rows.map((r) => {
                  const cred = r.api_key ?? r.user_token;
                  return (
                    <tr id={`request-${r.id}`}>
                      <td class="when">
                        {when(r.created_at)}
                        <br />
                        <span class="muted handle request-id">{r.id}</span>
                      </td>
                      <td class="text request-path">
                        <code>
                          {r.method} {r.path}
                        </code>
                      </td>
                      <td>
                        <span
                          class={`status ${r.status < 400 ? "status-published" : r.status < 500 ? "status-pending_approval" : "status-failed"}`}
                        >
                          {r.status}
                        </span>
                        {r.code ? <code> {r.code}</code> : null}
                      </td>
                      <td>{r.duration_ms} ms</td>
                      <td class="text">{cred ? (props.names[cred] ?? cred) : "—"}</td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </section>
        )}
        <Pager older={props.older} newer={props.newer} />
      </div>
    </Layout>
  );
}
