import { connectAdAccount } from "../../../domain/ads/connect.ts";
import { getAdAccount } from "../../../domain/ads/get.ts";
import { listAdAccounts } from "../../../domain/ads/list.ts";
import { listAdNetworks } from "../../../domain/ads/list-networks.ts";
import { removeAdAccount } from "../../../domain/ads/remove.ts";
import { ADS_GROUP_BY, AdAccountCreate } from "../../../domain/ads/schema.ts";
import { adsSummary } from "../../../domain/ads/summary.ts";
import { bool, nstr, ntime, obj, str, time } from "../../openapi-schemas.ts";
import { type RouteDef, reply } from "../../route.ts";

export const adRoutes: RouteDef[] = [
  {
    method: "GET",
    path: "/v1/ad_networks",
    tag: "Ads",
    summary: "List the ad networks svc reads (read-only), with their mode and connect fields",
    scope: "ads:read",
    response: "AdNetworkList",
    handler: async ({ actor }) => listAdNetworks(actor),
  },
  {
    method: "GET",
    path: "/v1/ad_accounts",
    tag: "Ads",
    summary: "List ad accounts in the caller's mode, optionally of one brand",
    scope: "ads:read",
    query: ["brand"],
    list: true,
    response: "AdAccountList",
    handler: ({ app, actor, query }) => listAdAccounts(app, actor, query),
  },
  {
    method: "POST",
    path: "/v1/ad_accounts",
    tag: "Ads",
    summary:
      "Connect an ad account read-only (test mode: the sandbox network; live mode: real networks); its spend is read from then on",
    scope: "ads:write",
    body: AdAccountCreate,
    response: "AdAccount",
    status: 201,
    handler: async ({ app, actor, body }) => reply(201, await connectAdAccount(app, actor, body)),
  },
  {
    method: "GET",
    path: "/v1/ad_accounts/:id",
    tag: "Ads",
    summary: "Get an ad account",
    scope: "ads:read",
    response: "AdAccount",
    handler: ({ app, actor, params }) => getAdAccount(app, actor, params.id!),
  },
  {
    method: "DELETE",
    path: "/v1/ad_accounts/:id",
    tag: "Ads",
    summary: "Remove an ad account with the figures read from it",
    scope: "ads:write",
    response: "Deleted",
    handler: ({ app, actor, params }) => removeAdAccount(app, actor, params.id!),
  },
  {
    method: "GET",
    path: "/v1/ads/summary",
    tag: "Ads",
    summary:
      "Ad spend (currency minor units), impressions and clicks between since and until (dates; default the last 30 days, at most a year), grouped by brand, account, campaign or day and by currency",
    scope: "ads:read",
    query: ["group_by", "brand", "account", "since", "until"],
    response: "AdsSummary",
    handler: ({ app, actor, query }) => adsSummary(app, actor, query),
  },
];

const int = { type: "integer" };
const date = { type: "string", format: "date" };
const connectField = obj({
  name: str,
  label: str,
  help: str,
  secret: bool,
  optional: bool,
  default: nstr,
});
const amounts = { currency: str, spend: int, impressions: int, clicks: int };

export const adSchemas: Record<string, unknown> = {
  AdNetwork: obj({
    object: { const: "ad_network" },
    network: str,
    name: str,
    livemode: bool,
    connect_fields: { type: "array", items: connectField },
  }),
  AdAccount: obj({
    id: str,
    object: { const: "ad_account" },
    brand: str,
    livemode: bool,
    network: str,
    account_id: str,
    name: str,
    currency: str,
    settings: { type: "object", additionalProperties: str },
    status: { enum: ["active", "needs_reauth"] },
    status_note: nstr,
    collected_at: ntime,
    next_collect_at: ntime,
    created_at: time,
  }),
  AdsSummary: obj({
    object: { const: "ads_summary" },
    group_by: { enum: [...ADS_GROUP_BY] },
    brand: nstr,
    account: nstr,
    since: date,
    until: date,
    data: {
      type: "array",
      items: {
        type: "object",
        description:
          "One group and currency: its key under the group_by name (brand, account, campaign or day), spend in the currency's minor unit, impressions, clicks; campaigns also carry campaign_name and account",
        properties: { ...amounts, campaign_name: str, account: str, brand: str },
        required: ["currency", "spend", "impressions", "clicks"],
      },
    },
    totals: { type: "array", items: obj(amounts) },
  }),
};
