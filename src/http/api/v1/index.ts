// Every /v1 route with a credential. The OpenAPI document is generated from this same list.
import { componentSchemas } from "../../openapi-schemas.ts";
import type { PublicRouteDef } from "../../public-route.ts";
import type { RouteDef } from "../../route.ts";
import { adRoutes, adSchemas } from "./ads.ts";
import { analyticsRoutes, analyticsSchemas } from "./analytics.ts";
import { apiKeyRoutes } from "./api-keys.ts";
import { auditRoutes } from "./audit.ts";
import { authPublicRoutes, authRoutes, authSchemas } from "./auth.ts";
import { brandRoutes } from "./brands.ts";
import { channelRoutes, channelSchemas } from "./channels.ts";
import { developerAppRoutes, developerAppSchemas } from "./developer-apps.ts";
import { engagementRoutes, engagementSchemas } from "./engagement.ts";
import { eventRoutes, eventSchemas } from "./events.ts";
import { mailAccountRoutes, mailAccountSchemas } from "./mail-accounts.ts";
import { meRoutes } from "./me.ts";
import { mediaRoutes, mediaSchemas } from "./media.ts";
import { memberRoutes, memberSchemas } from "./members.ts";
import { newsletterRoutes, newsletterSchemas } from "./newsletters.ts";
import { notificationRoutes, notificationSchemas } from "./notifications.ts";
import { operatorRoutes, operatorSchemas } from "./operator.ts";
import { platformRoutes, platformSchemas } from "./platforms.ts";
import { postRoutes, postSchemas } from "./posts.ts";
import { reportRoutes, reportSchemas } from "./reports.ts";
import { reviewLinkRoutes, reviewLinkSchemas } from "./review-links.ts";
import { templateRoutes, templateSchemas } from "./templates.ts";
import { webhookRoutes, webhookSchemas } from "./webhooks.ts";

export const v1Routes: RouteDef[] = [
  ...meRoutes,
  ...apiKeyRoutes,
  ...brandRoutes,
  ...auditRoutes,
  ...platformRoutes,
  ...channelRoutes,
  ...templateRoutes,
  ...postRoutes,
  ...reviewLinkRoutes,
  ...eventRoutes,
  ...webhookRoutes,
  ...authRoutes,
  ...memberRoutes,
  ...operatorRoutes,
  ...engagementRoutes,
  ...mediaRoutes,
  ...developerAppRoutes,
  ...notificationRoutes,
  ...adRoutes,
  ...analyticsRoutes,
  ...reportRoutes,
  ...mailAccountRoutes,
  ...newsletterRoutes,
];

/**
 * The scopes some route of this install asks for. The spec names scopes for features still to come (ads,
 * newsletters); a key-making form offers only these, so nobody picks a scope that opens nothing.
 */
export const scopesInUse: ReadonlySet<string> = new Set(
  v1Routes.flatMap((r) => (r.scope ? [r.scope as string] : [])),
);

/** /v1 routes that take no credential (documented with `security: []`). */
export const v1PublicRoutes: PublicRouteDef[] = [...authPublicRoutes];

/** Response shapes by name; a feature adds its own from its route file. */
export const v1Schemas: Record<string, unknown> = {
  ...componentSchemas,
  ...platformSchemas,
  ...channelSchemas,
  ...templateSchemas,
  ...postSchemas,
  ...reviewLinkSchemas,
  ...eventSchemas,
  ...webhookSchemas,
  ...authSchemas,
  ...memberSchemas,
  ...operatorSchemas,
  ...engagementSchemas,
  ...mediaSchemas,
  ...developerAppSchemas,
  ...notificationSchemas,
  ...adSchemas,
  ...analyticsSchemas,
  ...reportSchemas,
  ...mailAccountSchemas,
  ...newsletterSchemas,
};
