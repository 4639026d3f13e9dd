// GET /v1/analytics_providers: every analytics tool svc reads, with its mode and connect fields.
import { ANALYTICS_PROVIDERS } from "../../platforms/analytics/registry.ts";
import { type Actor, requireScope } from "../actor.ts";
import { presentAnalyticsProvider } from "./present.ts";

export function listAnalyticsProviders(actor: Actor) {
  requireScope(actor, "brands:read");
  return {
    object: "list" as const,
    data: ANALYTICS_PROVIDERS.map(presentAnalyticsProvider),
    has_more: false,
    url: "/v1/analytics_providers",
  };
}
