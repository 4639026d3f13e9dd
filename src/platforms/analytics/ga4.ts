// Google Analytics 4 through the Data API v1beta (developers.google.com/analytics/devguides/reporting/data/v1):
// `POST /v1beta/properties/{id}:runReport` with dimensions date and the session's source, medium, campaign and
// manual ad content (utm_content), metric activeUsers for visitors; goal conversions are eventCount of the named
// events (a dimension filter on eventName). The token comes from Google's OAuth token endpoint with the stored
// refresh token (developers.google.com/identity/protocols/oauth2/web-server#offline): `invalid_grant` there, 401
// or 403 from the API mean the grant no longer works; 429 and 5xx pass. Errors are `{error: {code, message,
// status}}`.
import type { App } from "../../app/context.ts";
import type { Credentials, Refusal } from "../insights/types.ts";
import { field, NoAnswer, networkRequest, str } from "../plumbing/http.ts";
import { providerOrigin } from "../plumbing/origins.ts";
import { type AnalyticsAdapter, type AnalyticsRow, noTag } from "./types.ts";

export const GA4_ORIGIN = "https://analyticsdata.googleapis.com";
export const GOOGLE_TOKEN_ORIGIN = "https://oauth2.googleapis.com";
const PAGE = 100_000;
const MAX_PAGES = 20;
const TAG_DIMENSIONS = ["sessionSource", "sessionMedium", "sessionCampaignName", "sessionManualAdContent"];

type Result<T> = { ok: true; value: T } | { ok: false; refusal: Refusal };

async function accessToken(app: App, c: Credentials): Promise<Result<string>> {
  try {
    const res = await networkRequest(app, {
      method: "POST",
      url: `${providerOrigin(app, "google_analytics.oauth", GOOGLE_TOKEN_ORIGIN).replace(/\/+$/, "")}/token`,
      form: {
        grant_type: "refresh_token",
        refresh_token: c.secrets.refresh_token ?? "",
        client_id: c.settings.client_id ?? "",
        client_secret: c.secrets.client_secret ?? "",
      },
      ...(c.signal ? { signal: c.signal } : {}),
    });
    const token = str(field(res.json, "access_token"));
    if (res.status === 200 && token) return { ok: true, value: token };
    const error = str(field(res.json, "error")) ?? `HTTP ${res.status}`;
    const message = `Google: ${error}${str(field(res.json, "error_description")) ? ` (${str(field(res.json, "error_description"))})` : ""}`;
    if (res.status >= 500 || res.status === 429)
      return { ok: false, refusal: { kind: "unavailable", message } };
    return { ok: false, refusal: { kind: "refused", message } };
  } catch (e) {
    if (e instanceof NoAnswer)
      return { ok: false, refusal: { kind: "unavailable", message: `Google: ${e.message}` } };
    throw e;
  }
}

async function runReport(
  app: App,
  property: string,
  token: string,
  body: unknown,
  signal?: AbortSignal,
): Promise<Result<unknown>> {
  try {
    const res = await networkRequest(app, {
      method: "POST",
      url: `${providerOrigin(app, "google_analytics", GA4_ORIGIN).replace(/\/+$/, "")}/v1beta/properties/${encodeURIComponent(property)}:runReport`,
      headers: { authorization: `Bearer ${token}` },
      json: body,
      ...(signal ? { signal } : {}),
    });
    if (res.status === 200 && res.json !== undefined) return { ok: true, value: res.json };
    const err = field(res.json, "error");
    const message = `Google Analytics: ${str(field(err, "message")) ?? (res.text.slice(0, 200) || `HTTP ${res.status}`)}`;
    if (res.status === 401 || res.status === 403 || res.status === 404 || res.status === 400)
      return { ok: false, refusal: { kind: "refused", message } };
    return { ok: false, refusal: { kind: "unavailable", message } };
  } catch (e) {
    if (e instanceof NoAnswer)
      return { ok: false, refusal: { kind: "unavailable", message: `Google Analytics: ${e.message}` } };
    throw e;
  }
}

const values = (row: unknown, name: string): string[] =>
  ((field(row, name) as unknown[] | undefined) ?? []).map((v) => String(field(v, "value") ?? ""));

export const ga4Analytics: AnalyticsAdapter = {
  async verify(app, c) {
    const property = (c.settings.property_id ?? "").trim().replace(/^properties\//, "");
    const token = await accessToken(app, c);
    if (!token.ok) return token.refusal;
    const r = await runReport(
      app,
      property,
      token.value,
      {
        dateRanges: [{ startDate: "yesterday", endDate: "today" }],
        metrics: [{ name: "activeUsers" }],
        limit: "1",
      },
      c.signal,
    );
    if (!r.ok) return r.refusal;
    return { kind: "ok", site: { external_id: property, name: `GA4 property ${property}` } };
  },

  async read(app, input) {
    const token = await accessToken(app, input);
    if (!token.ok) return token.refusal;
    const rows: AnalyticsRow[] = [];
    const passes = [false, ...(input.goals.length ? [true] : [])];
    for (const goals of passes) {
      for (let pageNo = 0; pageNo < MAX_PAGES; pageNo++) {
        const body: Record<string, unknown> = {
          dateRanges: [{ startDate: input.since, endDate: input.until }],
          dimensions: [
            { name: "date" },
            ...TAG_DIMENSIONS.map((name) => ({ name })),
            ...(goals ? [{ name: "eventName" }] : []),
          ],
          metrics: [{ name: goals ? "eventCount" : "activeUsers" }],
          limit: String(PAGE),
          offset: String(pageNo * PAGE),
        };
        if (goals)
          body.dimensionFilter = {
            filter: { fieldName: "eventName", inListFilter: { values: input.goals } },
          };
        const r = await runReport(app, input.externalId, token.value, body, input.signal);
        if (!r.ok) return r.refusal;
        const list = (field(r.value, "rows") as unknown[] | undefined) ?? [];
        for (const row of list) {
          const d = values(row, "dimensionValues");
          const m = Number(values(row, "metricValues")[0] ?? 0);
          const ymd = d[0] ?? "";
          const day = `${ymd.slice(0, 4)}-${ymd.slice(4, 6)}-${ymd.slice(6, 8)}`;
          const base = {
            day,
            source: noTag(d[1]),
            medium: noTag(d[2]),
            campaign: noTag(d[3]),
            content: noTag(d[4]),
          };
          rows.push(
            goals
              ? { ...base, goal: d[5] ?? "", visitors: 0, conversions: Math.round(m) }
              : { ...base, goal: "", visitors: Math.round(m), conversions: 0 },
          );
        }
        const total = Number(field(r.value, "rowCount") ?? 0);
        if ((pageNo + 1) * PAGE >= total) break;
      }
    }
    return { kind: "ok", rows: rows.filter((r) => /^\d{4}-\d{2}-\d{2}$/.test(r.day)) };
  },
};
