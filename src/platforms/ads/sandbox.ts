// The test-mode ad network: three campaigns with realistic daily figures, figures of the last two days still
// growing (as real networks correct recent days late, which the daily re-read of 7 days overwrites), and failure
// simulation chosen at connect (`simulate`: refused, unavailable). Deterministic, so tests can recompute it.
import type { App } from "../../app/context.ts";
import { daysBetween } from "../insights/types.ts";
import type { AdDay, AdNetworkAdapter } from "./types.ts";

const DAY = 86_400_000;
export const SANDBOX_CAMPAIGNS = ["Spring launch", "Retargeting", "Brand awareness"] as const;
const BASE_MINOR = [1250, 830, 410];

const slug = (s: string) =>
  s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "") || "account";

/** One campaign's figures for a day as the sandbox reports them at `now` (the last two days still grow). */
export function sandboxAdDay(externalId: string, day: string, campaign: number, now: number): AdDay {
  const start = Date.parse(`${day}T00:00:00Z`);
  const n = Math.floor(start / DAY);
  const complete = Math.min(1, Math.max(0, (now - start) / (2 * DAY)));
  const spend = Math.round(BASE_MINOR[campaign]! * (1 + ((n * 7 + campaign * 3) % 5) / 10) * complete);
  return {
    day,
    campaign_id: `${externalId}-c${campaign + 1}`,
    campaign_name: SANDBOX_CAMPAIGNS[campaign]!,
    spend,
    impressions: spend * 3,
    clicks: Math.floor(spend / 40),
  };
}

export const sandboxAds: AdNetworkAdapter = {
  async verify(_app, { settings }) {
    if (!["none", "refused", "unavailable"].includes(settings.simulate ?? "none"))
      return { kind: "refused", message: "simulate must be none, refused or unavailable." };
    const name = settings.account_name || "Sandbox ads";
    return {
      kind: "ok",
      account: { external_id: `sbx-${slug(name)}`, name, currency: settings.currency || "USD" },
    };
  },
  async read(app: App, input) {
    const simulate = input.settings.simulate ?? "none";
    if (simulate === "refused")
      return { kind: "refused", message: "Sandbox: the access token was revoked (simulated)." };
    if (simulate === "unavailable")
      return { kind: "unavailable", message: "Sandbox: the network is down (simulated)." };
    const now = app.clock.now();
    const rows: AdDay[] = [];
    for (const day of daysBetween(input.since, input.until)) {
      if (Date.parse(`${day}T00:00:00Z`) > now) continue;
      for (let c = 0; c < SANDBOX_CAMPAIGNS.length; c++)
        rows.push(sandboxAdDay(input.externalId, day, c, now));
    }
    return { kind: "ok", rows };
  },
};
