// GET /v1/ad_networks: every ad network svc reads, with its mode and connect fields.
import { AD_NETWORKS } from "../../platforms/ads/registry.ts";
import { type Actor, requireScope } from "../actor.ts";
import { presentAdNetwork } from "./present.ts";

export function listAdNetworks(actor: Actor) {
  requireScope(actor, "ads:read");
  return {
    object: "list" as const,
    data: AD_NETWORKS.map(presentAdNetwork),
    has_more: false,
    url: "/v1/ad_networks",
  };
}
