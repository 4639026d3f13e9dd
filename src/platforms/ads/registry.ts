// The ad networks svc reads: the test-mode sandbox and Meta's Marketing API (live). Only their descriptions are
// here; each adapter is loaded when an account of it is first connected or read.
import { field } from "../insights/types.ts";
import type { AdNetwork } from "./types.ts";

export const AD_NETWORKS: readonly AdNetwork[] = [
  {
    key: "sandbox",
    name: "Sandbox ad network",
    livemode: false,
    docs: "docs/insights.md#ad-accounts",
    connect_fields: [
      field("account_name", "Account name", "What the sandbox account is called.", {
        optional: true,
        default: "Sandbox ads",
      }),
      field("currency", "Currency", "ISO 4217 code the sandbox reports in (default USD).", {
        optional: true,
        default: "USD",
      }),
      field(
        "simulate",
        "Failure simulation",
        "none (default), refused (every read is refused: the account needs reauth) or unavailable (every read fails and is retried).",
        { optional: true, default: "none" },
      ),
    ],
    load: () => import("./sandbox.ts").then((m) => m.sandboxAds),
  },
  {
    key: "meta",
    name: "Meta Ads",
    livemode: true,
    docs: "https://developers.facebook.com/docs/marketing-api/insights",
    connect_fields: [
      field("ad_account_id", "Ad account ID", "The account's ID, with or without the act_ prefix."),
      field(
        "access_token",
        "Access token",
        "A system-user or user token with ads_read for this account (Business settings → System users).",
        { secret: true },
      ),
    ],
    load: () => import("./meta.ts").then((m) => m.metaAds),
  },
];

export const adNetwork = (key: string): AdNetwork | undefined => AD_NETWORKS.find((n) => n.key === key);
