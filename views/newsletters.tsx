// Newsletters: the list of this mode's issues (filter by brand and status), and an issue's editor (subject,
// preview text, Markdown body, deliveries), its preview as recipients see it, its actions as its status allows
// (save, schedule, unschedule, cancel, approve, reject, send a test), its timeline and each delivery's results.
// The rendered email is never put into the page: it is shown only inside a sandboxed iframe's srcdoc, which the
// JSX runtime escapes as any attribute, so neither it nor what people typed can run in the dashboard.
import type { FieldErrors, Frame } from "./frame.ts";
import { Layout } from "./layout.tsx";
import { type BrandRef, brandLabel, Csrf, Field, FormError, Section, when, whenIn } from "./parts.tsx";
import { canChange } from "./publishing.tsx";

export interface NlBrand extends BrandRef {
  id: string;
  timezone: string;
}
export interface NlResults {
  sent: number;
  opens: number;
  clicks: number;
  unsubscribes: number;
  bounces: number;
  read_at?: string | null;
}
export interface NlDelivery {
  id: string;
  mail_account: string;
  provider: string;
  audiences: string[];
  status: string;
  error: string | null;
  results: Record<string, unknown> | null;
}
export interface NlIssue {
  id: string;
  brand: string;
  status: string;
  subject: string;
  preview_text: string;
  body: string;
  send_at: string | null;
  approval: { required: boolean; note: string | null; reviewed_at: string | null };
  deliveries: NlDelivery[];
  created_at: string;
  updated_at: string;
}
export interface NlAccount {
  id: string;
  display_name: string;
  provider: string;
  from_name: string;
  from_email: string;
  status: string;
  default_audiences: string[];
  /** The provider's audiences, or null when they could not be read now. */
  audiences: { id: string; name: string; size: number | null }[] | null;
}
export interface NlTimelineEntry {
  id: string;
  action: string;
  user: string | null;
  api_key: string | null;
  outcome: string;
  detail: Record<string, unknown> | null;
  created_at: string;
}
export interface IssueForm {
  brand: string;
  subject: string;
  preview_text: string;
  body: string;
  /** Mail account ID → the audiences ticked (empty: the account's defaults). */
  deliveries: Record<string, string[]>;
}
export interface NlPreview {
  html: string;
  text: string;
  links: number;
}

export const STATUS_LABEL: Record<string, string> = {
  draft: "Draft",
  pending_approval: "Waiting for approval",
  scheduled: "Scheduled",
  sending: "Sending",
  sent: "Sent",
  partially_sent: "Partly sent",
  canceled: "Canceled",
  failed: "Failed",
};
const STATUS_CLASS: Record<string, string> = {
  draft: "status-draft",
  pending_approval: "status-pending_approval",
  scheduled: "status-scheduled",
  sending: "status-publishing",
  sent: "status-published",
  partially_sent: "status-partially_published",
  canceled: "status-canceled",
  failed: "status-failed",
};

export function IssueStatus(props: { status: string }) {
  return (
    <span class={`status ${STATUS_CLASS[props.status] ?? ""}`}>
      {STATUS_LABEL[props.status] ?? props.status}
    </span>
  );
}

export function NewslettersPage(props: {
  f: Frame;
  issues: NlIssue[];
  brands: NlBrand[];
  filter: { brand: string; status: string };
  errors?: FieldErrors | undefined;
  older: string | null;
  newer: string | null;
}) {
  const { f } = props;
  const byId = new Map(props.brands.map((b) => [b.id, b]));
  const mayWrite = f.scopes.includes("newsletters:write");
  return (
    <Layout f={f}>
      <div class="wide">
        <div class="actions">
          {mayWrite ? (
            <a class="button primary" href="/newsletters/new" id="new-issue">
              New issue
            </a>
          ) : null}
        </div>
        <form method="get" action="/newsletters" class="filters" id="newsletter-filters">
          <label for="filter-brand">Brand</label>
          <select id="filter-brand" name="brand">
            <option value="">Every brand</option>
            {props.brands.map((b) => (
              <option value={b.id} selected={props.filter.brand === b.id}>
                {brandLabel(b)}
              </option>
            ))}
          </select>
          <label for="filter-status">Status</label>
          <select id="filter-status" name="status">
            <option value="">Every status</option>
            {Object.entries(STATUS_LABEL).map(([k, v]) => (
              <option value={k} selected={props.filter.status === k}>
                {v}
              </option>
            ))}
          </select>
          <button type="submit">Filter</button>
        </form>
        <FormError errors={props.errors} />
        <Section title={`${f.livemode ? "Live" : "Test"} issues`} id="s-issues">
          {props.issues.length === 0 ? (
            <div class="empty" id="newsletters-empty">
              <p>
                No newsletter issues{props.filter.brand || props.filter.status ? " match" : ""} in{" "}
                {f.livemode ? "live" : "test"} mode.
              </p>
            </div>
          ) : (
            <ul class="post-list" id="issues">
              {props.issues.map((n) => {
                const b = byId.get(n.brand);
                return (
                  <li class="post-row" id={`issue-${n.id}`}>
                    <div class="post-when">
                      <IssueStatus status={n.status} />
                      <span class="muted">
                        {n.send_at ? whenIn(n.send_at, b?.timezone ?? "UTC") : "not scheduled"}
                      </span>
                    </div>
                    <a class="post-text issue-subject" href={`/newsletters/${n.id}`}>
                      {n.subject}
                    </a>
                    <p class="muted">{b ? brandLabel(b) : n.brand}</p>
                  </li>
                );
              })}
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
        </Section>
      </div>
    </Layout>
  );
}

/** The email at two widths, each in an iframe that runs nothing and reaches nothing (sandbox with no allowances). */
export function PreviewPane(props: { preview: NlPreview | null; error?: string | null }) {
  return (
    <div id="preview" aria-live="polite">
      {props.error ? (
        <p class="error" id="preview-error">
          {props.error}
        </p>
      ) : null}
      {props.preview ? (
        <div class="nl-previews">
          <figure class="nl-preview nl-desktop">
            <figcaption>Desktop</figcaption>
            <iframe
              sandbox=""
              title="The email at desktop width"
              id="preview-desktop"
              srcdoc={props.preview.html}
              width="640"
              height="560"
            />
          </figure>
          <figure class="nl-preview nl-phone">
            <figcaption>Phone</figcaption>
            <iframe
              sandbox=""
              title="The email at phone width"
              id="preview-phone"
              srcdoc={props.preview.html}
              width="360"
              height="560"
            />
          </figure>
          <details>
            <summary>Text version</summary>
            <pre class="excerpt" id="preview-text">
              {props.preview.text}
            </pre>
          </details>
        </div>
      ) : props.error ? null : (
        <p class="muted">Write a subject and a body, then Preview.</p>
      )}
    </div>
  );
}

function Deliveries(props: {
  accounts: NlAccount[];
  form: IssueForm;
  errors?: FieldErrors | undefined;
  disabled: boolean;
}) {
  const error = props.errors?.deliveries;
  return (
    <fieldset class={error ? "events has-error" : "events"} id="deliveries-field">
      <legend>Deliveries</legend>
      {props.accounts.length === 0 ? (
        <p class="hint">
          This brand has no mail account in this mode: <a href="/mail-accounts">connect one</a>.
        </p>
      ) : (
        <p class="hint">
          Tick the mail accounts to send through; no audience ticked means the account's defaults.
        </p>
      )}
      {props.accounts.map((a) => {
        const ticked = props.form.deliveries[a.id];
        return (
          <div class="nl-account" id={`account-${a.id}`}>
            <label>
              <input
                type="checkbox"
                name="deliver"
                value={a.id}
                checked={ticked !== undefined}
                disabled={props.disabled}
              />{" "}
              <strong>{a.display_name}</strong>{" "}
              <span class="muted">
                {a.provider} · {a.from_name} &lt;{a.from_email}&gt;
                {a.status === "needs_reauth" ? " · needs reconnecting" : ""}
              </span>
            </label>
            {a.audiences ? (
              <div class="event-types">
                {a.audiences.map((au) => (
                  <label>
                    <input
                      type="checkbox"
                      name={`audiences.${a.id}`}
                      value={au.id}
                      checked={ticked?.includes(au.id) ?? false}
                      disabled={props.disabled}
                    />{" "}
                    {au.name}
                    {au.size !== null ? <span class="muted"> ({au.size})</span> : null}
                    {a.default_audiences.includes(au.id) ? <span class="muted"> · default</span> : null}
                  </label>
                ))}
              </div>
            ) : (
              <p class="muted">Its audiences cannot be read now; its defaults are used.</p>
            )}
          </div>
        );
      })}
      {error ? (
        <p class="error" id="f-deliveries-error">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}

const RESULT_KEYS = ["sent", "opens", "clicks", "unsubscribes", "bounces"] as const;

function Results(props: { issue: NlIssue; accounts: NlAccount[] }) {
  const names = new Map(props.accounts.map((a) => [a.id, a.display_name]));
  if (props.issue.deliveries.length === 0) return <p class="muted">No deliveries.</p>;
  return (
    <section class="table-wrap" tabindex={0} aria-label="Results (scrolls sideways)">
      <table id="results">
        <thead>
          <tr>
            <th scope="col">Delivery</th>
            <th scope="col">Status</th>
            {RESULT_KEYS.map((k) => (
              <th scope="col">{k[0]!.toUpperCase() + k.slice(1)}</th>
            ))}
          </tr>
        </thead>
        <tbody>
          {props.issue.deliveries.map((d) => (
            <tr id={`delivery-${d.id}`}>
              <td>
                {names.get(d.mail_account) ?? d.mail_account}
                <br />
                <span class="muted">{d.audiences.join(", ") || "default audiences"}</span>
              </td>
              <td>
                {d.status}
                {d.error ? <p class="error">{d.error}</p> : null}
              </td>
              {RESULT_KEYS.map((k) => {
                const v = d.results?.[k];
                return <td>{typeof v === "number" ? v : "—"}</td>;
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

function Timeline(props: { entries: NlTimelineEntry[] }) {
  if (props.entries.length === 0) return <p class="muted">Nothing yet.</p>;
  return (
    <ol class="timeline" id="timeline">
      {props.entries.map((e) => (
        <li id={`event-${e.id}`}>
          <span class="muted">{when(e.created_at)}</span> <code>{e.action}</code>
          {e.outcome !== "success" ? <span class="muted"> ({e.outcome})</span> : null}
          <span class="muted"> by {e.user ?? e.api_key ?? "svc"}</span>
          {typeof e.detail?.note === "string" && e.detail.note ? (
            <p class="endpoint-desc">“{e.detail.note}”</p>
          ) : null}
        </li>
      ))}
    </ol>
  );
}

export function IssuePage(props: {
  f: Frame;
  issue: NlIssue | null;
  brand: NlBrand | null;
  brands: NlBrand[];
  accounts: NlAccount[];
  form: IssueForm;
  errors?: FieldErrors | undefined;
  preview: NlPreview | null;
  previewError?: string | null;
  timeline: NlTimelineEntry[];
  sendAtLocal: string;
  testTo: string;
  flash?: string | null;
}) {
  const { f, issue } = props;
  const writable = canChange(f);
  const mayWrite = f.scopes.includes("newsletters:write") && writable;
  const mayReview = f.scopes.includes("posts:approve") && writable;
  const status = issue?.status ?? "draft";
  const editable = mayWrite && status === "draft";
  const action = issue ? `/newsletters/${issue.id}` : "/newsletters";
  const tz = props.brand?.timezone ?? "UTC";
  const shown = [
    "subject",
    "preview_text",
    "body",
    "deliveries",
    "brand",
    "send_at",
    "to",
    "note",
    "mail_account",
  ];
  return (
    <Layout f={f}>
      <div class="wide">
        <p>
          <a href="/newsletters">← Newsletters</a>
        </p>
        {props.flash ? (
          <div class="alert ok" role="status" id="issue-flash">
            <p>{props.flash}</p>
          </div>
        ) : null}
        {issue ? (
          <div class="post-summary card" id="issue-summary">
            <p>
              <IssueStatus status={issue.status} />{" "}
              <span class="muted">
                {props.brand ? brandLabel(props.brand) : issue.brand}
                {issue.send_at ? ` · sends ${whenIn(issue.send_at, tz)}` : ""}
              </span>
            </p>
            {issue.approval.note ? <p class="endpoint-desc">Review note: {issue.approval.note}</p> : null}
          </div>
        ) : null}
        <FormError errors={props.errors} shown={shown} />
        <div class="nl-editor">
          <form
            method="post"
            action={action}
            class="card"
            id="issue-form"
            hx-post="/newsletters/preview"
            hx-trigger="input delay:600ms"
            hx-target="#preview"
            hx-swap="outerHTML"
            hx-sync="this:replace"
          >
            <Csrf token={f.csrf} />
            {issue ? (
              <input type="hidden" name="brand" value={issue.brand} />
            ) : (
              <div class="field">
                <label for="f-brand">Brand</label>
                <select id="f-brand" name="brand">
                  {props.brands.map((b) => (
                    <option value={b.id} selected={props.form.brand === b.id}>
                      {brandLabel(b)}
                    </option>
                  ))}
                </select>
                {props.errors?.brand ? <p class="error">{props.errors.brand}</p> : null}
                <button type="submit" formmethod="get" formaction="/newsletters/new" formnovalidate>
                  Use this brand
                </button>
              </div>
            )}
            <Field
              name="subject"
              label="Subject"
              value={props.form.subject}
              errors={props.errors}
              maxlength={200}
              required
            />
            <Field
              name="preview_text"
              label="Preview text (optional)"
              value={props.form.preview_text}
              errors={props.errors}
              maxlength={200}
              hint="Shown after the subject in most inboxes."
            />
            <div class={props.errors?.body ? "field has-error" : "field"}>
              <label for="f-body">Body (Markdown)</label>
              <textarea
                id="f-body"
                name="body"
                rows={14}
                required
                aria-invalid={props.errors?.body ? "true" : undefined}
                aria-describedby={props.errors?.body ? "f-body-error" : undefined}
                readonly={!editable && !!issue}
              >
                {props.form.body}
              </textarea>
              {props.errors?.body ? (
                <p class="error" id="f-body-error">
                  {props.errors.body}
                </p>
              ) : null}
            </div>
            <Deliveries
              accounts={props.accounts}
              form={props.form}
              errors={props.errors}
              disabled={!editable && !!issue}
            />
            <div class="actions">
              <button type="submit" name="do" value="preview" formnovalidate id="preview-button">
                Preview
              </button>
              {editable || (!issue && mayWrite) ? (
                <button type="submit" class="primary" id="save-draft">
                  Save draft
                </button>
              ) : null}
            </div>
          </form>
          <Section title="Preview" id="s-preview">
            <PreviewPane preview={props.preview} error={props.previewError ?? null} />
          </Section>
        </div>
        {issue ? (
          <IssueActions
            f={f}
            issue={issue}
            tz={tz}
            accounts={props.accounts}
            mayWrite={mayWrite}
            mayReview={mayReview}
            errors={props.errors}
            sendAtLocal={props.sendAtLocal}
            testTo={props.testTo}
          />
        ) : null}
        {issue ? (
          <>
            <Section title="Results" id="s-results">
              <Results issue={issue} accounts={props.accounts} />
            </Section>
            <Section title="Timeline" id="s-timeline">
              <Timeline entries={props.timeline} />
            </Section>
          </>
        ) : null}
      </div>
    </Layout>
  );
}

function IssueActions(props: {
  f: Frame;
  issue: NlIssue;
  tz: string;
  accounts: NlAccount[];
  mayWrite: boolean;
  mayReview: boolean;
  errors?: FieldErrors | undefined;
  sendAtLocal: string;
  testTo: string;
}) {
  const { f, issue: n, errors } = props;
  const base = `/newsletters/${n.id}`;
  const s = n.status;
  const canSchedule = s === "draft" || s === "scheduled";
  const canUnschedule = s === "scheduled" || s === "pending_approval";
  const canCancel = !["sent", "partially_sent", "failed", "canceled"].includes(s);
  const finished = !canCancel;
  if (finished || (!props.mayWrite && !props.mayReview)) return null;
  return (
    <Section title="Actions" id="s-actions">
      {props.mayWrite && canSchedule ? (
        <form method="post" action={`${base}/schedule`} class="card" id="schedule-form">
          <Csrf token={f.csrf} />
          <Field
            name="send_at"
            label={`${s === "scheduled" ? "Move to" : "Send at"} (${props.tz})`}
            type="datetime-local"
            value={props.sendAtLocal}
            errors={errors}
            required
          />
          <button type="submit" class="primary" id="schedule-button">
            {s === "scheduled" ? "Move" : "Schedule"}
          </button>
        </form>
      ) : null}
      {props.mayReview && s === "pending_approval" ? (
        <form method="post" action={`${base}/approve`} class="card" id="review-form">
          <Csrf token={f.csrf} />
          <Field name="note" label="Note (optional)" errors={errors} maxlength={500} />
          <div class="actions">
            <button type="submit" class="primary" id="approve-button">
              Approve
            </button>
            <button type="submit" formaction={`${base}/reject`} id="reject-button">
              Reject
            </button>
          </div>
        </form>
      ) : null}
      <div class="actions">
        {props.mayWrite && canUnschedule ? (
          <form method="post" action={`${base}/unschedule`} class="inline">
            <Csrf token={f.csrf} />
            <button type="submit" id="unschedule-button">
              Unschedule
            </button>
          </form>
        ) : null}
        {props.mayWrite && canCancel ? (
          <form
            method="post"
            action={`${base}/cancel`}
            class="inline"
            data-confirm="Cancel this issue? It is not sent and cannot be scheduled again."
          >
            <Csrf token={f.csrf} />
            <button type="submit" class="danger" id="cancel-button">
              Cancel issue
            </button>
          </form>
        ) : null}
      </div>
      {props.mayWrite && n.deliveries.length > 0 ? (
        <form method="post" action={`${base}/test`} class="card" id="test-form">
          <Csrf token={f.csrf} />
          <div class="field">
            <label for="f-mail_account">Send a test through</label>
            <select id="f-mail_account" name="mail_account">
              {n.deliveries.map((d) => (
                <option value={d.mail_account}>
                  {props.accounts.find((a) => a.id === d.mail_account)?.display_name ?? d.mail_account}
                </option>
              ))}
            </select>
          </div>
          <Field
            name="to"
            label="To (1 to 5 addresses, separated by commas)"
            value={props.testTo}
            errors={errors}
            required
          />
          <button type="submit" id="test-button">
            Send test
          </button>
        </form>
      ) : null}
    </Section>
  );
}
