// Meta's Marketing API (Graph API v25.0), read-only: the ad account node (`GET act_{id}` with name, currency,
// account_status) and its insights at campaign level, one row per campaign and day, read as an asynchronous report
// run as Meta advises for multi-day breakdowns (developers.facebook.com/docs/marketing-api/insights/best-practices:
// `POST act_{id}/insights?level=campaign&time_increment=1&time_range=…` → `{report_run_id}`, then
// `GET {report_run_id}` until `async_status` is "Job Completed", then `GET {report_run_id}/insights`, paged).
// Insights' `spend` is a decimal string in the account currency's main unit (unlike the account's
// `amount_spent`, which is in minor units): it is converted to minor units here.
// Graph errors are `{error: {message, type, code, error_subcode}}` (developers.facebook.com/docs/graph-api/
// guides/error-handling): 190 and the permission codes mean the token no longer works; throttling (4, 17, 32,
// 613, 80000-80014) and service errors (1, 2, 5xx) mean try later.
import type { App } from "../../app/context.ts";
import { toMinor } from "../../lib/money.ts";
import type { Refusal } from "../insights/types.ts";
import { field, type NetworkResponse, NoAnswer, networkRequest, str } from "../plumbing/http.ts";
import { providerOrigin } from "../plumbing/origins.ts";
import type { AdDay, AdNetworkAdapter } from "./types.ts";

export const GRAPH_ORIGIN = "https://graph.facebook.com";
export const GRAPH_VERSION = "v25.0";
const INSIGHT_FIELDS = "campaign_id,campaign_name,spend,impressions,clicks,date_start,date_stop";
/** Pages of insights followed at most (500 rows each): a year of a busy account stays well inside. */
const MAX_PAGES = 200;

const base = (app: App) =>
  `${providerOrigin(app, "meta", GRAPH_ORIGIN).replace(/\/+$/, "")}/${GRAPH_VERSION}`;
const actId = (id: string) => (id.startsWith("act_") ? id : `act_${id.trim()}`);

const REFUSING = new Set([10, 102, 190, 200, 270, 272, 273, 274, 275, 278, 294]);
const THROTTLED = new Set([1, 2, 4, 17, 32, 341, 613]);

/** How svc reads a Graph error answer. */
export function classifyGraphError(res: NetworkResponse): Refusal {
  const err = field(res.json, "error");
  const code = Number(field(err, "code"));
  const subcode = Number(field(err, "error_subcode"));
  const message = `Meta: ${str(field(err, "message")) ?? (res.text.slice(0, 200) || `HTTP ${res.status}`)}`;
  if (res.status >= 500 || THROTTLED.has(code) || (code >= 80000 && code <= 80014))
    return { kind: "unavailable", message };
  // 100/33: the account does not exist or the token cannot see it.
  if (
    REFUSING.has(code) ||
    (code >= 200 && code < 300) ||
    (code === 100 && subcode === 33) ||
    res.status === 401
  )
    return { kind: "refused", message };
  return { kind: "unavailable", message };
}

async function graphGet(
  app: App,
  path: string,
  query: Record<string, string>,
  token: string,
  signal?: AbortSignal,
  method: "GET" | "POST" = "GET",
): Promise<{ ok: true; json: unknown } | { ok: false; refusal: Refusal }> {
  try {
    const res = await networkRequest(app, {
      method,
      url: `${base(app)}/${path}?${new URLSearchParams(query)}`,
      headers: { authorization: `Bearer ${token}` },
      ...(signal ? { signal } : {}),
    });
    if (res.status === 200 && res.json !== undefined && !field(res.json, "error"))
      return { ok: true, json: res.json };
    return { ok: false, refusal: classifyGraphError(res) };
  } catch (e) {
    if (e instanceof NoAnswer)
      return { ok: false, refusal: { kind: "unavailable", message: `Meta: ${e.message}` } };
    throw e;
  }
}

const whole = (v: unknown) => {
  const n = Number(v ?? 0);
  return Number.isFinite(n) ? Math.round(n) : 0;
};

export const metaAds: AdNetworkAdapter = {
  async verify(app, { settings, secrets, signal }) {
    const id = actId(settings.ad_account_id ?? "");
    const r = await graphGet(
      app,
      id,
      { fields: "id,account_id,name,currency,account_status" },
      secrets.access_token ?? "",
      signal,
    );
    if (!r.ok) return r.refusal;
    const currency = str(field(r.json, "currency"));
    if (!currency)
      return { kind: "unavailable", message: "Meta: the ad account has no currency in its answer." };
    return {
      kind: "ok",
      account: {
        external_id: str(field(r.json, "id")) ?? id,
        name: str(field(r.json, "name")) ?? id,
        currency,
      },
    };
  },

  async read(app, input) {
    const token = input.secrets.access_token ?? "";
    const started = await graphGet(
      app,
      `${actId(input.externalId)}/insights`,
      {
        level: "campaign",
        time_increment: "1",
        time_range: JSON.stringify({ since: input.since, until: input.until }),
        fields: INSIGHT_FIELDS,
      },
      token,
      input.signal,
      "POST",
    );
    if (!started.ok) return started.refusal;
    const run = str(field(started.json, "report_run_id"));
    if (!run) return { kind: "unavailable", message: "Meta: the insights job has no report_run_id." };
    // Poll the job: at once, then 1, 2, 4 … s apart (capped at 8 s), within the read's own deadline.
    for (let wait = 0; ; wait = Math.min(wait === 0 ? 1000 : wait * 2, 8000)) {
      if (wait) await Bun.sleep(wait);
      if (input.signal?.aborted)
        return { kind: "unavailable", message: "Meta: the insights job did not finish in time." };
      const job = await graphGet(
        app,
        run,
        { fields: "id,async_status,async_percent_completion" },
        token,
        input.signal,
      );
      if (!job.ok) return job.refusal;
      const status = str(field(job.json, "async_status"));
      if (status === "Job Completed") break;
      if (status === "Job Failed" || status === "Job Skipped")
        return { kind: "unavailable", message: `Meta: the insights job ended as "${status}".` };
    }
    const rows: AdDay[] = [];
    const query: Record<string, string> = { limit: "500" };
    for (let pageNo = 0; pageNo < MAX_PAGES; pageNo++) {
      const r = await graphGet(app, `${run}/insights`, query, token, input.signal);
      if (!r.ok) return r.refusal;
      const data = field(r.json, "data");
      if (!Array.isArray(data))
        return { kind: "unavailable", message: "Meta: insights answer without data." };
      for (const d of data) {
        const spend = toMinor(str(field(d, "spend")) ?? "0", input.currency);
        rows.push({
          day: str(field(d, "date_start")) ?? "",
          campaign_id: str(field(d, "campaign_id")) ?? "",
          campaign_name: str(field(d, "campaign_name")) ?? "",
          spend: spend ?? 0,
          impressions: whole(field(d, "impressions")),
          clicks: whole(field(d, "clicks")),
        });
      }
      const after = str(field(field(field(r.json, "paging"), "cursors"), "after"));
      if (!after || !str(field(field(r.json, "paging"), "next"))) break;
      query.after = after;
    }
    return { kind: "ok", rows: rows.filter((r) => r.day !== "" && r.campaign_id !== "") };
  },
};
