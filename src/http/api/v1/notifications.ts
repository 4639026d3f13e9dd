// Notifications (user tokens only; API keys are refused in the domain, notifications/guard.ts): the person's list,
// marking read, and their email preferences in the org.
import { PreferencesUpdate } from "../../../domain/notifications/schema.ts";
import { NOTIFICATION_TYPES } from "../../../domain/notifications/types.ts";
import { once } from "../../../lib/once.ts";
import { bool, ntime, obj, str, time } from "../../openapi-schemas.ts";
import type { RouteDef } from "../../route.ts";

// Only people signed in to the dashboard or the CLI have notifications: their use cases load with the first ask.
const loadList = once(() => import("../../../domain/notifications/list.ts"));
const loadPreferences = once(() => import("../../../domain/notifications/preferences.ts"));
const loadRead = once(() => import("../../../domain/notifications/read.ts"));

export const notificationRoutes: RouteDef[] = [
  {
    method: "GET",
    path: "/v1/notifications",
    tag: "Notifications",
    userTokensOnly: true,
    summary: "List your notifications in this org, newest first (?unread for unread only)",
    list: true,
    query: ["unread"],
    response: "NotificationList",
    handler: async ({ app, actor, query }) => (await loadList()).listNotifications(app, actor, query),
  },
  {
    method: "POST",
    path: "/v1/notifications/read_all",
    tag: "Notifications",
    userTokensOnly: true,
    summary: "Mark all your notifications in this org read",
    response: "NotificationReadAll",
    handler: async ({ app, actor }) => (await loadRead()).readAllNotifications(app, actor),
  },
  {
    method: "GET",
    path: "/v1/notifications/preferences",
    tag: "Notifications",
    userTokensOnly: true,
    summary: "Your email preferences in this org and your time zone",
    response: "NotificationPreferences",
    handler: async ({ app, actor }) => (await loadPreferences()).getPreferences(app, actor),
  },
  {
    method: "POST",
    path: "/v1/notifications/preferences",
    tag: "Notifications",
    userTokensOnly: true,
    summary:
      "Change your email preferences per type (email on or off, immediate or the 08:00 summary) or time zone",
    body: PreferencesUpdate,
    response: "NotificationPreferences",
    handler: async ({ app, actor, body }) => (await loadPreferences()).updatePreferences(app, actor, body),
  },
  {
    method: "POST",
    path: "/v1/notifications/:id/read",
    tag: "Notifications",
    userTokensOnly: true,
    summary: "Mark one of your notifications read",
    response: "Notification",
    handler: async ({ app, actor, params }) => (await loadRead()).readNotification(app, actor, params.id!),
  },
];

export const notificationSchemas: Record<string, unknown> = {
  Notification: obj({
    id: str,
    object: { const: "notification" },
    type: { enum: [...NOTIFICATION_TYPES] },
    org: str,
    org_name: str,
    subject: str,
    body: str,
    link: str,
    read_at: ntime,
    created_at: time,
  }),
  NotificationReadAll: obj({ object: { const: "notification_read_all" }, marked: { type: "integer" } }),
  NotificationPreferences: obj({
    object: { const: "notification_preferences" },
    org: str,
    timezone: str,
    types: {
      type: "array",
      items: obj({
        type: { enum: [...NOTIFICATION_TYPES] },
        label: str,
        email: bool,
        delivery: { enum: ["immediate", "daily"] },
      }),
    },
  }),
};
