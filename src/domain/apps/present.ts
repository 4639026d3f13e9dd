import type { DeveloperAppsTable } from "../../db/tables/connect.ts";
import { iso } from "../../lib/clock.ts";

/** Where a network sends the person back after signing in; registered on the network's developer site. */
export const redirectUri = (baseUrl: string, provider: string) =>
  `${baseUrl.replace(/\/+$/, "")}/connect/${provider}/callback`;

/**
 * The public Developer app resource. An install app is "provided by the server": members see that it exists and
 * which network it is for, never its client ID (the operator manages it with `svc admin apps`).
 */
export const presentApp = (baseUrl: string) => (a: DeveloperAppsTable) => ({
  id: a.id,
  object: "developer_app" as const,
  provider: a.provider,
  name: a.name,
  provided_by: a.org_id === null ? ("server" as const) : ("org" as const),
  client_id: a.org_id === null ? null : a.client_id,
  redirect_uri: redirectUri(baseUrl, a.provider),
  created_at: iso(a.created_at),
});
export type DeveloperApp = ReturnType<ReturnType<typeof presentApp>>;
