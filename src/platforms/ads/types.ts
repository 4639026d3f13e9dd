// An ad network as svc reads it (read-only: nothing here can spend): check an account's credentials once, then
// read whole days of spend, impressions and clicks per campaign. Amounts are in the currency's minor unit.
import type { App } from "../../app/context.ts";
import type { Credentials, ProviderInfo, Refusal } from "../insights/types.ts";

export interface AdAccountFound {
  /** The network's own account ID (a second connection of it is refused). */
  external_id: string;
  name: string;
  /** ISO 4217 code. */
  currency: string;
}

export interface AdDay {
  day: string;
  campaign_id: string;
  campaign_name: string;
  /** In the currency's minor unit. */
  spend: number;
  impressions: number;
  clicks: number;
}

export interface AdReadInput extends Credentials {
  externalId: string;
  currency: string;
  /** YYYY-MM-DD, both included. */
  since: string;
  until: string;
}

export interface AdNetworkAdapter {
  verify(app: App, input: Credentials): Promise<{ kind: "ok"; account: AdAccountFound } | Refusal>;
  read(app: App, input: AdReadInput): Promise<{ kind: "ok"; rows: AdDay[] } | Refusal>;
}

export interface AdNetwork extends ProviderInfo {
  /** The adapter, loaded on first use (not at start). */
  load(): Promise<AdNetworkAdapter>;
}
