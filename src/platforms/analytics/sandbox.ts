// The test-mode analytics tool: visitors without tags every day, and for each of the brand's posts visits tagged
// as svc tags its links (utm_source the network, utm_medium social, utm_campaign the template, utm_content the
// post ID) for two weeks after publishing, with goal conversions in proportion. Deterministic, so a test can
// compute the same figures; `simulate` (refused, unavailable) makes every read fail that way.
import { daysBetween } from "../insights/types.ts";
import type { AnalyticsAdapter, AnalyticsReadInput, AnalyticsRow } from "./types.ts";

const DAY = 86_400_000;
const hash = (s: string) => [...s].reduce((n, c) => (n * 31 + c.charCodeAt(0)) % 1000, 7);

/** Every row the sandbox reports for one day. */
export function sandboxAnalyticsDay(
  day: string,
  goals: string[],
  posts: AnalyticsReadInput["posts"],
): AnalyticsRow[] {
  const start = Date.parse(`${day}T00:00:00Z`);
  const n = Math.floor(start / DAY);
  const rows: AnalyticsRow[] = [];
  const add = (source: string, medium: string, campaign: string, content: string, visitors: number) => {
    if (visitors <= 0) return;
    rows.push({ day, source, medium, campaign, content, goal: "", visitors, conversions: 0 });
    goals.forEach((goal, i) => {
      const conversions = Math.floor(visitors / (5 + 5 * i));
      if (conversions > 0)
        rows.push({ day, source, medium, campaign, content, goal, visitors: 0, conversions });
    });
  };
  add("", "", "", "", 40 + (n % 7) * 5);
  for (const p of posts) {
    const age = Math.floor((start - Math.floor(p.published_at / DAY) * DAY) / DAY);
    if (age < 0 || age >= 14) continue;
    for (const provider of p.providers)
      add(provider, "social", p.template ?? "", p.id, 30 - 2 * age + (hash(p.id + provider) % 5));
  }
  return rows;
}

export const sandboxAnalytics: AnalyticsAdapter = {
  async verify(_app, { settings }) {
    if (!["none", "refused", "unavailable"].includes(settings.simulate ?? "none"))
      return { kind: "refused", message: "simulate must be none, refused or unavailable." };
    const site = settings.site || "example.com";
    return { kind: "ok", site: { external_id: site, name: site } };
  },
  async read(app, input) {
    const simulate = input.settings.simulate ?? "none";
    if (simulate === "refused")
      return { kind: "refused", message: "Sandbox: the API key was revoked (simulated)." };
    if (simulate === "unavailable")
      return { kind: "unavailable", message: "Sandbox: the tool is down (simulated)." };
    const now = app.clock.now();
    const rows: AnalyticsRow[] = [];
    for (const day of daysBetween(input.since, input.until))
      if (Date.parse(`${day}T00:00:00Z`) <= now)
        rows.push(...sandboxAnalyticsDay(day, input.goals, input.posts));
    return { kind: "ok", rows };
  },
};
