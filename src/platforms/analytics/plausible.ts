// Plausible's Stats API v2 (plausible.io/docs/stats-api): one endpoint, `POST /api/v2/query`, with a bearer Stats
// API key and a JSON query (site_id, metrics, date_range, dimensions, filters, pagination). Visitors come from a
// query by day and the four UTM dimensions; goal conversions (`events` under an `event:goal` filter) from the same
// query with `event:goal` added. Answers are `{results: [{dimensions, metrics}], meta, query}`; failures are
// `{error: "…"}` with 400 (a bad query or unknown site), 401 (bad key), 429 (rate limit) or 5xx.
import type { App } from "../../app/context.ts";
import type { Refusal } from "../insights/types.ts";
import { field, NoAnswer, networkRequest, str } from "../plumbing/http.ts";
import { providerOrigin } from "../plumbing/origins.ts";
import { type AnalyticsAdapter, type AnalyticsRow, noTag } from "./types.ts";

export const PLAUSIBLE_ORIGIN = "https://plausible.io";
const PAGE = 10_000;
const MAX_PAGES = 50;
const UTM = ["visit:utm_source", "visit:utm_medium", "visit:utm_campaign", "visit:utm_content"];

function origin(app: App, host: string | undefined): string {
  const h = (host || PLAUSIBLE_ORIGIN).replace(/\/+$/, "");
  // The hosted service may be pointed elsewhere (tests, a proxy); a self-hosted server is the tenant's own.
  return h === PLAUSIBLE_ORIGIN ? providerOrigin(app, "plausible", PLAUSIBLE_ORIGIN).replace(/\/+$/, "") : h;
}

async function query(
  app: App,
  settings: Record<string, string>,
  key: string,
  body: Record<string, unknown>,
  signal?: AbortSignal,
): Promise<{ ok: true; json: unknown } | { ok: false; refusal: Refusal }> {
  try {
    const res = await networkRequest(app, {
      method: "POST",
      url: `${origin(app, settings.host)}/api/v2/query`,
      headers: { authorization: `Bearer ${key}` },
      json: body,
      ...(signal ? { signal } : {}),
    });
    if (res.status === 200 && Array.isArray(field(res.json, "results"))) return { ok: true, json: res.json };
    const message = `Plausible: ${str(field(res.json, "error")) ?? (res.text.slice(0, 200) || `HTTP ${res.status}`)}`;
    // 401: the key is wrong or revoked; 400/404 name a site the key cannot see (or a query it refuses): a person
    // must fix the connection either way. 429 and 5xx pass.
    if (res.status === 401 || res.status === 403 || res.status === 400 || res.status === 404)
      return { ok: false, refusal: { kind: "refused", message } };
    return { ok: false, refusal: { kind: "unavailable", message } };
  } catch (e) {
    if (e instanceof NoAnswer)
      return { ok: false, refusal: { kind: "unavailable", message: `Plausible: ${e.message}` } };
    throw e;
  }
}

export const plausibleAnalytics: AnalyticsAdapter = {
  async verify(app, { settings, secrets, signal }) {
    const site = (settings.site_id ?? "").trim();
    const r = await query(
      app,
      settings,
      secrets.api_key ?? "",
      { site_id: site, metrics: ["visitors"], date_range: "day" },
      signal,
    );
    if (!r.ok) return r.refusal;
    return { kind: "ok", site: { external_id: site, name: site } };
  },

  async read(app, input) {
    const rows: AnalyticsRow[] = [];
    const passes: { goals: boolean }[] = [{ goals: false }, ...(input.goals.length ? [{ goals: true }] : [])];
    for (const pass of passes) {
      for (let pageNo = 0; pageNo < MAX_PAGES; pageNo++) {
        const body: Record<string, unknown> = {
          site_id: input.externalId,
          metrics: [pass.goals ? "events" : "visitors"],
          date_range: [input.since, input.until],
          dimensions: ["time:day", ...UTM, ...(pass.goals ? ["event:goal"] : [])],
          pagination: { limit: PAGE, offset: pageNo * PAGE },
        };
        if (pass.goals) body.filters = [["is", "event:goal", input.goals]];
        const r = await query(app, input.settings, input.secrets.api_key ?? "", body, input.signal);
        if (!r.ok) return r.refusal;
        const results = field(r.json, "results") as unknown[];
        for (const row of results) {
          const d = field(row, "dimensions") as unknown[];
          const m = Number((field(row, "metrics") as unknown[])?.[0] ?? 0);
          if (!Array.isArray(d) || !Number.isFinite(m)) continue;
          const day = String(d[0] ?? "").slice(0, 10);
          const base = {
            day,
            source: noTag(d[1]),
            medium: noTag(d[2]),
            campaign: noTag(d[3]),
            content: noTag(d[4]),
          };
          rows.push(
            pass.goals
              ? { ...base, goal: String(d[5] ?? ""), visitors: 0, conversions: Math.round(m) }
              : { ...base, goal: "", visitors: Math.round(m), conversions: 0 },
          );
        }
        if (results.length < PAGE) break;
      }
    }
    return { kind: "ok", rows: rows.filter((r) => /^\d{4}-\d{2}-\d{2}$/.test(r.day)) };
  },
};
