// Webhooks: the endpoints of this mode (create; the whsec_ secret is shown once), an endpoint's page (edit, disable
// and enable, roll the secret with an overlap, delete) and its delivery log: event, outcome, response status and
// the first bytes of the response, with Resend. Everything a person typed or a receiver answered is escaped.
import type { FieldErrors, Frame } from "./frame.ts";
import { Layout } from "./layout.tsx";
import { Csrf, Field, FormError, Section, when } from "./parts.tsx";
import { canChange } from "./publishing.tsx";

export interface EndpointRow {
  id: string;
  url: string;
  description: string;
  enabled_events: string[];
  status: string;
  disabled_reason: string | null;
  created_at: string;
}
export interface DeliveryRow {
  id: string;
  event: string;
  event_type: string;
  status: string;
  attempts: number;
  response_status: number | null;
  response_body: string | null;
  error: string | null;
  duration_ms: number | null;
  last_attempt_at: string | null;
  next_attempt_at: string | null;
  created_at: string;
}
export interface EndpointForm {
  url: string;
  description: string;
  events: string[];
}

const OVERLAPS = [0, 1, 24, 72, 168];

function EndpointStatus(props: { e: EndpointRow }) {
  const { e } = props;
  if (e.status === "enabled") return <span class="status status-published">Enabled</span>;
  return (
    <span class="status status-failed">
      {e.disabled_reason === "failing" ? "Disabled: failing for 72 hours" : "Disabled"}
    </span>
  );
}

const eventsLabel = (events: string[]) => (events.includes("*") ? "Every event" : events.join(", "));

function EndpointFields(props: {
  form: EndpointForm;
  types: string[];
  errors?: FieldErrors | undefined;
  live: boolean;
}) {
  const { form, errors } = props;
  const all = form.events.includes("*");
  return (
    <>
      <Field
        name="url"
        label="URL"
        type="url"
        value={form.url}
        errors={errors}
        maxlength={2048}
        required
        hint={props.live ? "https only in live mode." : "Where svc POSTs each event, signed with the secret."}
      />
      <Field
        name="description"
        label="Description (optional)"
        value={form.description}
        errors={errors}
        maxlength={500}
      />
      <fieldset class={errors?.enabled_events ? "events has-error" : "events"}>
        <legend>Events</legend>
        <p class="hint">Tick “Every event” or the types this endpoint wants.</p>
        <label class="chip">
          <input type="checkbox" name="enabled_events" value="*" checked={all} />{" "}
          <span class="chip-name">Every event</span>
        </label>
        <div class="event-types">
          {props.types.map((t) => (
            <label>
              <input
                type="checkbox"
                name="enabled_events"
                value={t}
                checked={!all && form.events.includes(t)}
              />{" "}
              <code>{t}</code>
            </label>
          ))}
        </div>
        {errors?.enabled_events ? (
          <p class="error" id="f-enabled_events-error">
            {errors.enabled_events}
          </p>
        ) : null}
      </fieldset>
    </>
  );
}

function SecretShown(props: { secret: string; rolled: boolean }) {
  return (
    <div class="alert ok" role="status" id="webhook-secret">
      <p>
        <strong>
          {props.rolled ? "New signing secret." : "Endpoint created."} Copy the secret now: it is not shown
          again.
        </strong>
      </p>
      <p class="secret" id="webhook-secret-value">
        {props.secret}
      </p>
      <p class="hint">
        Check the <code>Svc-Signature</code> header of each delivery with it (see the webhooks guide).
      </p>
    </div>
  );
}

export function WebhooksPage(props: {
  f: Frame;
  endpoints: EndpointRow[];
  types: string[];
  form: EndpointForm;
  errors?: FieldErrors | undefined;
  created: { id: string; secret: string } | null;
}) {
  const { f } = props;
  const mayWrite = f.scopes.includes("webhooks:write");
  const writable = canChange(f);
  return (
    <Layout f={f}>
      <div class="wide">
        {props.created ? <SecretShown secret={props.created.secret} rolled={false} /> : null}
        <Section title={`${f.livemode ? "Live" : "Test"} endpoints`} id="s-endpoints">
          {props.endpoints.length === 0 ? (
            <div class="empty" id="webhooks-empty">
              <p>
                No webhook endpoints in {f.livemode ? "live" : "test"} mode.{" "}
                {mayWrite
                  ? "Add one below and svc sends each event to it as it happens, signed."
                  : "Admins and owners add them."}
              </p>
            </div>
          ) : (
            <ul class="post-list" id="endpoints">
              {props.endpoints.map((e) => (
                <li class="post-row endpoint-row" id={`endpoint-${e.id}`}>
                  <div class="post-when">
                    <EndpointStatus e={e} />
                    <span class="muted">since {when(e.created_at)}</span>
                  </div>
                  <a class="post-text endpoint-url" href={`/webhooks/${e.id}`}>
                    {e.url}
                  </a>
                  <p class="muted endpoint-meta">
                    {e.description ? <span class="endpoint-desc">{e.description} · </span> : null}
                    {eventsLabel(e.enabled_events)}
                  </p>
                </li>
              ))}
            </ul>
          )}
        </Section>
        {mayWrite ? (
          <Section title="Add an endpoint" id="s-add-endpoint">
            <form method="post" action="/webhooks" class="card" id="endpoint-create">
              <Csrf token={f.csrf} />
              <FormError errors={props.errors} shown={["url", "description", "enabled_events"]} />
              <EndpointFields form={props.form} types={props.types} errors={props.errors} live={f.livemode} />
              <button type="submit" class="primary" disabled={!writable}>
                Add {f.livemode ? "live" : "test"} endpoint
              </button>
            </form>
          </Section>
        ) : null}
      </div>
    </Layout>
  );
}

const DELIVERY_STATUS: Record<string, [string, string]> = {
  pending: ["Waiting", "status-queued"],
  delivering: ["Sending", "status-publishing"],
  succeeded: ["Delivered", "status-published"],
  failed: ["Failed", "status-failed"],
};

function Deliveries(props: { f: Frame; rows: DeliveryRow[]; mayWrite: boolean }) {
  const writable = canChange(props.f);
  if (props.rows.length === 0)
    return (
      <div class="empty" id="deliveries-empty">
        <p>No deliveries yet. One is made for every event this endpoint subscribes to.</p>
      </div>
    );
  return (
    <section class="table-wrap" tabindex={0} aria-label="Deliveries (scrolls sideways)">
      <table id="deliveries">
        <thead>
          <tr>
            <th scope="col">Event</th>
            <th scope="col">Outcome</th>
            <th scope="col">Response</th>
            <th scope="col">Attempts</th>
            <th scope="col">When</th>
            {props.mayWrite ? (
              <th scope="col">
                <span class="muted">Action</span>
              </th>
            ) : null}
          </tr>
        </thead>
        <tbody>
          {props.rows.map((d) => {
            const [label, cls] = DELIVERY_STATUS[d.status] ?? [d.status, ""];
            return (
              <tr id={`delivery-${d.id}`}>
                <td>
                  <code>{d.event_type}</code>
                  <br />
                  <span class="muted handle">{d.event}</span>
                </td>
                <td>
                  <span class={`status ${cls}`}>{label}</span>
                  {d.response_status !== null ? <span class="muted"> HTTP {d.response_status}</span> : null}
                  {d.duration_ms !== null ? <span class="muted"> · {d.duration_ms} ms</span> : null}
                </td>
                <td class="text">
                  {d.error ? <p class="error">{d.error}</p> : null}
                  {d.response_body ? (
                    <pre class="excerpt">{d.response_body}</pre>
                  ) : d.error ? null : (
                    <span class="muted">—</span>
                  )}
                </td>
                <td>{d.attempts}</td>
                <td class="when">
                  {when(d.last_attempt_at ?? d.created_at)}
                  {d.next_attempt_at && d.status !== "succeeded" ? (
                    <>
                      <br />
                      <span class="muted">next {when(d.next_attempt_at)}</span>
                    </>
                  ) : null}
                </td>
                {props.mayWrite ? (
                  <td>
                    {d.status === "delivering" ? (
                      <span class="muted">sending…</span>
                    ) : (
                      <form method="post" action={`/webhook-deliveries/${d.id}/resend`} class="inline">
                        <Csrf token={props.f.csrf} />
                        <button
                          type="submit"
                          disabled={!writable}
                          aria-label={`Resend ${d.event_type} delivery ${d.id}`}
                        >
                          Resend
                        </button>
                      </form>
                    )}
                  </td>
                ) : null}
              </tr>
            );
          })}
        </tbody>
      </table>
    </section>
  );
}

export function WebhookPage(props: {
  f: Frame;
  endpoint: EndpointRow;
  types: string[];
  form: EndpointForm;
  errors?: FieldErrors | undefined;
  secret: string | null;
  deliveries: DeliveryRow[];
  older: string | null;
  newer: string | null;
}) {
  const { f, endpoint: e } = props;
  const mayWrite = f.scopes.includes("webhooks:write");
  const writable = canChange(f);
  return (
    <Layout f={f}>
      <div class="wide">
        <p>
          <a href="/webhooks">← Webhooks</a>
        </p>
        {props.secret ? <SecretShown secret={props.secret} rolled={true} /> : null}
        <div class="post-summary card" id="endpoint-summary">
          <h2 class="endpoint-url">{e.url}</h2>
          <p>
            <EndpointStatus e={e} /> <span class="muted">{eventsLabel(e.enabled_events)}</span>
          </p>
          {e.description ? <p class="endpoint-desc">{e.description}</p> : null}
          {mayWrite ? (
            <div class="actions" id="endpoint-actions">
              <form
                method="post"
                action={`/webhooks/${e.id}/${e.status === "enabled" ? "disable" : "enable"}`}
                class="inline"
              >
                <Csrf token={f.csrf} />
                <button type="submit" disabled={!writable} id="endpoint-toggle">
                  {e.status === "enabled" ? "Disable" : "Enable"}
                </button>
              </form>
              <form method="post" action={`/webhooks/${e.id}/roll`} class="inline" id="endpoint-roll">
                <Csrf token={f.csrf} />
                <label for="overlap" class="muted">
                  Old secret also signs for
                </label>
                <select id="overlap" name="overlap_hours">
                  {OVERLAPS.map((h) => (
                    <option value={String(h)} selected={h === 24}>
                      {h} h
                    </option>
                  ))}
                </select>
                <button type="submit" disabled={!writable}>
                  Roll secret
                </button>
              </form>
              <form
                method="post"
                action={`/webhooks/${e.id}/delete`}
                class="inline"
                data-confirm={`Delete the endpoint ${e.url} and its delivery log? Nothing more is sent to it.`}
              >
                <Csrf token={f.csrf} />
                <button type="submit" class="danger" disabled={!writable}>
                  Delete
                </button>
              </form>
            </div>
          ) : null}
        </div>
        <FormError errors={props.errors} shown={["url", "description", "enabled_events"]} />
        <Section title="Deliveries" id="s-deliveries">
          <Deliveries f={f} rows={props.deliveries} mayWrite={mayWrite} />
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
        </Section>
        {mayWrite ? (
          <details class="card" open={props.errors ? true : undefined} id="endpoint-edit-box">
            <summary>Edit the endpoint</summary>
            <form method="post" action={`/webhooks/${e.id}`} id="endpoint-edit">
              <Csrf token={f.csrf} />
              <EndpointFields form={props.form} types={props.types} errors={props.errors} live={f.livemode} />
              <button type="submit" class="primary" disabled={!writable}>
                Save
              </button>
            </form>
          </details>
        ) : null}
      </div>
    </Layout>
  );
}
