// The report a client reads: the headline figures beside the period before, engagement per day, posts per
// network and the top posts, then any other section (ads, web analytics, newsletters) as a table of its figures.
// The same body serves the dashboard's /reports page and the account-free share link; both print to PDF from the
// browser (app.css hides the page's controls in print).
import type { Child } from "hono/jsx";
import type { FieldErrors, Frame } from "./frame.ts";
import { Layout } from "./layout.tsx";
import { type BrandRef, brandLabel, Csrf, Field, FormError, Section, when } from "./parts.tsx";
import { CompareBars, DailyChart } from "./report-charts.tsx";

interface Pair {
  value: number;
  previous: number;
}

export interface ReportData {
  brand: { id: string; name: string; slug: string };
  timezone: string;
  livemode: boolean;
  month: string | null;
  since: string;
  until: string;
  previous_since: string;
  previous_until: string;
  generated_at: string;
  sections: Record<string, object | null>;
}

const fmt = (n: number) => n.toLocaleString("en-US");
const isPair = (v: unknown): v is Pair =>
  typeof v === "object" && v !== null && "value" in v && "previous" in v && Object.keys(v).length === 2;

const monthTitle = (month: string) =>
  new Date(`${month}-01T12:00:00Z`).toLocaleString("en-US", {
    month: "long",
    year: "numeric",
    timeZone: "UTC",
  });

/** The period in words, in the brand's zone. */
export function periodTitle(r: Pick<ReportData, "month" | "since" | "until" | "timezone">): string {
  if (r.month) return monthTitle(r.month);
  const d = (iso: string) =>
    new Date(iso).toLocaleDateString("en-GB", {
      day: "numeric",
      month: "short",
      year: "numeric",
      timeZone: r.timezone,
    });
  return `${d(r.since)} – ${d(new Date(Date.parse(r.until) - 1).toISOString())}`;
}

/** "+12%" / "−5%" / "new" against the period before. */
function Change(props: { p: Pair }) {
  const { value, previous } = props.p;
  if (previous === 0 && value === 0) return <span class="change flat">no change</span>;
  if (previous === 0) return <span class="change up">new</span>;
  const pct = Math.round(((value - previous) / previous) * 100);
  const cls = pct > 0 ? "up" : pct < 0 ? "down" : "flat";
  const arrow = pct > 0 ? "▲" : pct < 0 ? "▼" : "■";
  return (
    <span class={`change ${cls}`}>
      {arrow} {pct > 0 ? "+" : ""}
      {pct}% <span class="muted">vs {fmt(previous)} before</span>
    </span>
  );
}

function Kpi(props: { label: string; p: Pair | undefined }) {
  if (!props.p) return null;
  return (
    <div class="kpi">
      <p class="kpi-label">{props.label}</p>
      <p class="kpi-value">{fmt(props.p.value)}</p>
      <p>
        <Change p={props.p} />
      </p>
    </div>
  );
}

const words = (key: string) => key.replaceAll("_", " ").replace(/^./, (c) => c.toUpperCase());

/** A section this view does not know (another feature's): its pairs as rows, its lists as small tables. */
function OtherSection(props: { name: string; figures: Record<string, unknown> }) {
  const pairs = Object.entries(props.figures).filter(([, v]) => isPair(v)) as [string, Pair][];
  const scalars = Object.entries(props.figures).filter(
    ([, v]) => typeof v === "string" || typeof v === "number",
  );
  const lists = Object.entries(props.figures).filter(([, v]) => Array.isArray(v)) as [string, unknown[]][];
  return (
    <Section title={words(props.name)} id={`section-${props.name}`}>
      {pairs.length ? (
        <div class="kpis">
          {pairs.map(([k, p]) => (
            <Kpi label={words(k)} p={p} />
          ))}
        </div>
      ) : null}
      {scalars.length ? (
        <dl class="report-facts">
          {scalars.map(([k, v]) => (
            <>
              <dt>{words(k)}</dt>
              <dd>{typeof v === "number" ? fmt(v) : String(v)}</dd>
            </>
          ))}
        </dl>
      ) : null}
      {lists.map(([k, rows]) => {
        const objects = rows.filter((r): r is Record<string, unknown> => typeof r === "object" && r !== null);
        const cols = [...new Set(objects.flatMap((o) => Object.keys(o)))];
        return (
          <div class="table-wrap">
            <table>
              <caption>{words(k)}</caption>
              <thead>
                <tr>
                  {cols.map((c) => (
                    <th scope="col">{words(c)}</th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {objects.map((o) => (
                  <tr>
                    {cols.map((c) => {
                      const v = o[c];
                      return (
                        <td>
                          {isPair(v)
                            ? `${fmt(v.value)} (${fmt(v.previous)} before)`
                            : typeof v === "number"
                              ? fmt(v)
                              : v === null || v === undefined
                                ? "—"
                                : typeof v === "object"
                                  ? JSON.stringify(v)
                                  : String(v)}
                        </td>
                      );
                    })}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        );
      })}
    </Section>
  );
}

interface TopPost {
  post: string;
  text: string;
  published_at: string;
  total: number;
  likes: number;
  reposts: number;
  replies: number;
  quotes: number;
  targets: { network: string; channel_name: string; permalink: string | null }[];
}

/** The report itself, without the page around it. */
export function ReportBody(props: { r: ReportData; heading?: boolean }) {
  const r = props.r;
  const s = r.sections;
  const posts = s.posts as { posts: Pair; by_network: { network: string; published: Pair }[] } | null;
  const eng = s.engagement as
    | (Record<string, Pair> & {
        by_network: { network: string; total: Pair }[];
        daily: { date: string; published: number; total: number }[];
      })
    | null;
  const top = s.top_posts as { data: TopPost[] } | null;
  const known = new Set(["posts", "engagement", "top_posts"]);
  const others = Object.entries(s).filter(([k, v]) => !known.has(k) && v !== null) as unknown as [
    string,
    Record<string, unknown>,
  ][];
  const empty = Object.values(s).every((v) => v === null);
  return (
    <article class="report" id="report">
      <header class="report-head">
        {props.heading === false ? null : (
          <h2>
            {r.brand.name} <span class="muted">· {periodTitle(r)}</span>
          </h2>
        )}
        <p class="muted">
          Compared with the period before of the same length (
          {periodTitle({ ...r, month: null, since: r.previous_since, until: r.previous_until })}). Times in{" "}
          {r.timezone}.{r.livemode ? "" : " Test mode: sandbox figures, not real networks."}
        </p>
      </header>
      {empty ? (
        <p class="alert" id="report-empty">
          Nothing to report for this period: no post was published and no other source had figures.
        </p>
      ) : null}
      {posts || eng ? (
        <div class="kpis" id="report-kpis">
          <Kpi label="Posts published" p={posts?.posts} />
          <Kpi label="Engagement" p={eng?.total} />
          <Kpi label="Likes" p={eng?.likes} />
          <Kpi label="Reposts" p={eng?.reposts} />
          <Kpi label="Replies" p={eng?.replies} />
          {eng?.views && eng.views.value + eng.views.previous > 0 ? (
            <Kpi label="Views" p={eng.views} />
          ) : null}
        </div>
      ) : null}
      {eng ? (
        <Section title="Engagement per day" id="section-engagement">
          <DailyChart
            days={eng.daily}
            label={`Engagement per day: ${fmt(eng.total?.value ?? 0)} in all, the most on ${
              [...eng.daily].sort((a, b) => b.total - a.total)[0]?.date ?? "no day"
            }`}
          />
          <p class="muted">
            Likes, reposts, replies and quotes of what was published each day, as last read. Per published
            post: {String(eng.per_target?.value ?? 0)} ({String(eng.per_target?.previous ?? 0)} before).
          </p>
        </Section>
      ) : null}
      {posts ? (
        <Section title="Published per network" id="section-posts">
          <CompareBars
            rows={posts.by_network.map((n) => ({ label: n.network, ...n.published }))}
            label={posts.by_network.map((n) => `${n.network}: ${n.published.value}`).join(", ")}
          />
        </Section>
      ) : null}
      {eng && eng.by_network.length > 1 ? (
        <Section title="Engagement per network" id="section-engagement-network">
          <CompareBars
            rows={eng.by_network.map((n) => ({ label: n.network, ...n.total }))}
            label={eng.by_network.map((n) => `${n.network}: ${n.total.value}`).join(", ")}
          />
        </Section>
      ) : null}
      {top ? (
        <Section title="Top posts" id="section-top-posts">
          <ol class="top-posts">
            {top.data.map((p) => (
              <li>
                <p class="top-text">{p.text}</p>
                <p class="muted">
                  {fmt(p.total)} engagement · {fmt(p.likes)} likes · {fmt(p.reposts)} reposts ·{" "}
                  {fmt(p.replies)} replies · {when(p.published_at)} ·{" "}
                  {p.targets.map((t, i) => (
                    <>
                      {i > 0 ? ", " : ""}
                      {t.permalink ? (
                        <a href={t.permalink} rel="noreferrer noopener">
                          {t.network}
                        </a>
                      ) : (
                        t.network
                      )}
                    </>
                  ))}
                </p>
              </li>
            ))}
          </ol>
        </Section>
      ) : null}
      {others.map(([name, figures]) => (
        <OtherSection name={name} figures={figures} />
      ))}
      <p class="muted report-foot">Made {when(r.generated_at)} from what the networks reported by then.</p>
    </article>
  );
}

export interface ShareLinkRow {
  id: string;
  month: string;
  hint: string;
  created_by: string;
  created_at: string;
  expires_at: string;
  revoked_at: string | null;
}

/** GET /reports: the report, a brand and month picker, and (admins, owners) its share links and recipients. */
export function ReportPage(props: {
  f: Frame;
  brands: (BrandRef & { id: string })[];
  brandId: string;
  month: string;
  report: ReportData | null;
  error?: string | undefined;
  admin: boolean;
  links: ShareLinkRow[];
  created: { url: string } | null;
  recipients: { email: string; last_sent_month: string | null }[];
  errors?: FieldErrors | undefined;
  children?: Child;
}) {
  return (
    <Layout f={props.f}>
      <form method="get" action="/reports" class="inline report-pick no-print" id="report-pick">
        <label for="report-brand">Brand</label>
        <select id="report-brand" name="brand">
          {props.brands.map((b) => (
            <option value={b.id} selected={b.id === props.brandId}>
              {brandLabel(b)}
            </option>
          ))}
        </select>
        <label for="report-month">Month</label>
        <input id="report-month" type="month" name="month" value={props.month} required />
        <button type="submit">Show</button>
        <span class="muted">To keep it as a PDF, print the page from your browser.</span>
      </form>
      {props.error ? (
        <div class="alert error" role="alert">
          <p>{props.error}</p>
        </div>
      ) : null}
      {props.report ? <ReportBody r={props.report} /> : null}
      {props.admin ? (
        <div class="no-print report-admin">
          <Section title="Share links" id="share-links">
            <p class="muted">
              A link shows this brand's month to anyone who has it, without an account, for 30 days. It is
              shown once.
            </p>
            {props.created ? (
              <div class="alert ok" role="status" id="share-created">
                <p>Copy this link now; it is not shown again:</p>
                <p>
                  <input
                    type="text"
                    readonly
                    value={props.created.url}
                    id="share-url"
                    class="wide"
                    aria-label="Share link"
                  />
                </p>
              </div>
            ) : null}
            <form method="post" action="/reports/share" class="inline" id="share-form">
              <Csrf token={props.f.csrf} />
              <input type="hidden" name="brand" value={props.brandId} />
              <input type="hidden" name="month" value={props.month} />
              <button type="submit" class="primary">
                Create a share link to {props.month}
              </button>
            </form>
            {props.links.length ? (
              <table id="share-list">
                <thead>
                  <tr>
                    <th scope="col">Month</th>
                    <th scope="col">Link ending</th>
                    <th scope="col">Made by</th>
                    <th scope="col">Expires</th>
                    <th scope="col">
                      <span class="muted">Action</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {props.links.map((l) => (
                    <tr>
                      <td>{l.month}</td>
                      <td>…{l.hint}</td>
                      <td>{l.created_by === "reports.mail" ? "the monthly email" : l.created_by}</td>
                      <td>{l.revoked_at ? `withdrawn ${when(l.revoked_at)}` : when(l.expires_at)}</td>
                      <td>
                        {l.revoked_at ? null : (
                          <form method="post" action={`/reports/share/${l.id}/withdraw`} class="inline">
                            <Csrf token={props.f.csrf} />
                            <input type="hidden" name="month" value={props.month} />
                            <button type="submit" class="danger">
                              Withdraw
                            </button>
                          </form>
                        )}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            ) : null}
          </Section>
          <Section title="Monthly email" id="recipients">
            <p class="muted">
              In the first week of each month these addresses get a link to the month before (live mode, at
              most 20).
              {props.f.mail ? "" : " This install sends no email (SMTP is not configured)."}
            </p>
            <FormError errors={props.errors} shown={["email"]} />
            <form method="post" action="/reports/recipients" class="inline" id="recipient-form">
              <Csrf token={props.f.csrf} />
              <input type="hidden" name="brand" value={props.brandId} />
              <input type="hidden" name="month" value={props.month} />
              <Field label="Email address" name="email" type="email" value="" errors={props.errors} />
              <button type="submit">Add</button>
            </form>
            {props.recipients.length ? (
              <ul id="recipient-list">
                {props.recipients.map((r) => (
                  <li>
                    {r.email}{" "}
                    <span class="muted">
                      {r.last_sent_month ? `last sent ${r.last_sent_month}` : "not sent yet"}
                    </span>{" "}
                    <form method="post" action="/reports/recipients/remove" class="inline">
                      <Csrf token={props.f.csrf} />
                      <input type="hidden" name="brand" value={props.brandId} />
                      <input type="hidden" name="month" value={props.month} />
                      <input type="hidden" name="email" value={r.email} />
                      <button type="submit" class="link">
                        Remove
                      </button>
                    </form>
                  </li>
                ))}
              </ul>
            ) : null}
          </Section>
        </div>
      ) : null}
    </Layout>
  );
}

/** The share link's page: the report alone, for someone without an account. */
export function SharedReportPage(props: {
  f: Frame;
  report: ReportData;
  orgName: string;
  expiresAt: string;
}) {
  return (
    <Layout f={props.f}>
      <ReportBody r={props.report} heading={false} />
      <p class="muted no-print" id="shared-note">
        Shared by {props.orgName}. This link works until {when(props.expiresAt)}. To keep a copy, print the
        page or save it as a PDF from your browser.
      </p>
    </Layout>
  );
}

export function SharedInvalidPage(props: { f: Frame; message: string }) {
  return (
    <Layout f={props.f}>
      <div class="card narrow" id="shared-invalid">
        <h1>This report link does not work</h1>
        <p>{props.message}</p>
      </div>
    </Layout>
  );
}

/** The report email's unsubscribe page: asks first (a mail scanner that follows links changes nothing). */
export function ReportUnsubscribePage(props: {
  f: Frame;
  state: "ask" | "done" | "invalid";
  email?: string;
  brandName?: string;
  message?: string;
}) {
  return (
    <Layout f={props.f}>
      <div class="card narrow" id="report-unsubscribe">
        {props.state === "ask" ? (
          <>
            <p>
              Stop emailing <strong>{props.email}</strong> the monthly report of{" "}
              <strong>{props.brandName}</strong>?
            </p>
            <form method="post">
              <Csrf token={props.f.csrf} />
              <button type="submit" class="primary" id="confirm-unsubscribe">
                Stop these emails
              </button>
            </form>
          </>
        ) : props.state === "done" ? (
          <p id="unsubscribed">This address gets no more monthly reports of {props.brandName}.</p>
        ) : (
          <p>{props.message}</p>
        )}
      </div>
    </Layout>
  );
}
