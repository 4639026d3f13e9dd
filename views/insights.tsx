// /insights: what the brand's ad accounts spent and which posts brought visitors, read-only. Ad accounts and
// analytics sources of this mode with their state, spend per campaign and visitors per post over the last 30 days.
// Amounts arrive in the currency's minor unit and are shown as money; every value is escaped.
import type { Frame } from "./frame.ts";
import { Layout } from "./layout.tsx";

export interface InsightAccount {
  id: string;
  network: string;
  name: string;
  currency: string;
  status: string;
  status_note: string | null;
  collected_at: string | null;
}
export interface InsightSource {
  id: string;
  provider: string;
  site: string;
  goals: string[];
  status: string;
  status_note: string | null;
  collected_at: string | null;
}
export interface CampaignRow {
  campaign?: string;
  campaign_name?: string;
  currency: string;
  spend: number;
  clicks: number;
}
export interface PostVisits {
  post?: string;
  visitors: number;
  conversions_total: number;
}

function money(minor: number, currency: string): string {
  try {
    const f = new Intl.NumberFormat("en", { style: "currency", currency });
    return f.format(minor / 10 ** (f.resolvedOptions().maximumFractionDigits ?? 2));
  } catch {
    return `${minor} ${currency}`;
  }
}

const State = (props: { status: string; note: string | null }) => (
  <span
    class={props.status === "active" ? "status status-published" : "status status-needs_attention"}
    title={props.note ?? undefined}
  >
    {props.status === "active" ? "Active" : "Needs reconnecting"}
  </span>
);

export function InsightsPage(props: {
  f: Frame;
  accounts: InsightAccount[];
  sources: InsightSource[];
  campaigns: CampaignRow[];
  posts: PostVisits[];
  since: string;
  until: string;
}) {
  return (
    <Layout f={props.f}>
      <h1>Insights</h1>
      <p class="muted">
        Ad spend and web analytics read daily from the brand's own accounts, {props.since} to {props.until}.
        svc spends nothing and keeps no visitor record. Connect accounts with <code>svc ads connect</code> and{" "}
        <code>svc analytics connect</code> (or the API); see the Insights documentation.
      </p>
      <h2 id="ads-heading">Ad accounts</h2>
      {props.accounts.length === 0 ? (
        <p class="empty" id="ad-accounts-empty">
          No ad account is connected in this mode.
        </p>
      ) : (
        <section class="table-wrap" tabindex={0} aria-labelledby="ads-heading">
          <table id="ad-accounts">
            <thead>
              <tr>
                <th scope="col">Account</th>
                <th scope="col">Network</th>
                <th scope="col">Currency</th>
                <th scope="col">State</th>
                <th scope="col">Last read</th>
              </tr>
            </thead>
            <tbody>
              {props.accounts.map((a) => (
                <tr id={`ad-account-${a.id}`}>
                  <td>{a.name}</td>
                  <td>{a.network}</td>
                  <td>{a.currency}</td>
                  <td>
                    <State status={a.status} note={a.status_note} />
                  </td>
                  <td>{a.collected_at ?? "—"}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      )}
      {props.campaigns.length ? (
        <section class="table-wrap" tabindex={0} aria-label="Spend by campaign">
          <table id="campaigns">
            <caption>Spend by campaign</caption>
            <thead>
              <tr>
                <th scope="col">Campaign</th>
                <th scope="col">Spend</th>
                <th scope="col">Clicks</th>
              </tr>
            </thead>
            <tbody>
              {props.campaigns.map((c) => (
                <tr>
                  <td>{c.campaign_name ?? c.campaign}</td>
                  <td>{money(c.spend, c.currency)}</td>
                  <td>{c.clicks}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      ) : null}
      <h2 id="analytics-heading">Web analytics</h2>
      {props.sources.length === 0 ? (
        <p class="empty" id="analytics-sources-empty">
          No analytics source is connected in this mode.
        </p>
      ) : (
        <section class="table-wrap" tabindex={0} aria-labelledby="analytics-heading">
          <table id="analytics-sources">
            <thead>
              <tr>
                <th scope="col">Site</th>
                <th scope="col">Tool</th>
                <th scope="col">Goals</th>
                <th scope="col">State</th>
                <th scope="col">Last read</th>
              </tr>
            </thead>
            <tbody>
              {props.sources.map((s) => (
                <tr id={`analytics-source-${s.id}`}>
                  <td>{s.site}</td>
                  <td>{s.provider}</td>
                  <td>{s.goals.join(", ") || "—"}</td>
                  <td>
                    <State status={s.status} note={s.status_note} />
                  </td>
                  <td>{s.collected_at ?? "—"}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      )}
      {props.posts.length ? (
        <section class="table-wrap" tabindex={0} aria-label="Visitors by post">
          <table id="post-visits">
            <caption>Visitors by post</caption>
            <thead>
              <tr>
                <th scope="col">Post</th>
                <th scope="col">Visitors</th>
                <th scope="col">Conversions</th>
              </tr>
            </thead>
            <tbody>
              {props.posts.map((p) => (
                <tr>
                  <td>
                    {p.post === "untagged" ? "Untagged visits" : <a href={`/posts/${p.post}`}>{p.post}</a>}
                  </td>
                  <td>{p.visitors}</td>
                  <td>{p.conversions_total}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      ) : null}
    </Layout>
  );
}
