// The web-analytics tools svc reads: a test-mode sandbox, Plausible (Stats API v2) and Google Analytics 4 (Data
// API v1beta). Only their descriptions are here; each adapter is loaded on first use.
import { field } from "../insights/types.ts";
import type { AnalyticsProvider } from "./types.ts";

export const ANALYTICS_PROVIDERS: readonly AnalyticsProvider[] = [
  {
    key: "sandbox",
    name: "Sandbox analytics",
    livemode: false,
    docs: "docs/insights.md#web-analytics",
    connect_fields: [
      field("site", "Site", "The sandbox site's name (default example.com).", {
        optional: true,
        default: "example.com",
      }),
      field(
        "simulate",
        "Failure simulation",
        "none (default), refused (every read is refused: the source needs reauth) or unavailable (every read fails and is retried).",
        { optional: true, default: "none" },
      ),
    ],
    load: () => import("./sandbox.ts").then((m) => m.sandboxAnalytics),
  },
  {
    key: "plausible",
    name: "Plausible",
    livemode: true,
    docs: "https://plausible.io/docs/stats-api",
    connect_fields: [
      field("site_id", "Site ID", "The site's domain as Plausible names it (example.com)."),
      field("api_key", "Stats API key", "A Stats API key (Account settings → API keys).", { secret: true }),
      field("host", "Server", "A self-hosted Plausible's address (default https://plausible.io).", {
        optional: true,
        default: "https://plausible.io",
      }),
    ],
    load: () => import("./plausible.ts").then((m) => m.plausibleAnalytics),
  },
  {
    key: "ga4",
    name: "Google Analytics 4",
    livemode: true,
    docs: "https://developers.google.com/analytics/devguides/reporting/data/v1",
    connect_fields: [
      field("property_id", "Property ID", "The GA4 property's numeric ID (Admin → Property details)."),
      field(
        "client_id",
        "OAuth client ID",
        "The Google Cloud OAuth client that was granted analytics.readonly.",
      ),
      field("client_secret", "OAuth client secret", "That client's secret.", { secret: true }),
      field("refresh_token", "Refresh token", "A refresh token for analytics.readonly from that client.", {
        secret: true,
      }),
    ],
    load: () => import("./ga4.ts").then((m) => m.ga4Analytics),
  },
];

export const analyticsProvider = (key: string): AnalyticsProvider | undefined =>
  ANALYTICS_PROVIDERS.find((p) => p.key === key);
