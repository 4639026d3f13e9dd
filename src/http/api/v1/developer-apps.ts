// Developer apps: the OAuth clients sign-in connections go through (interface.md "Developer apps"). An org's
// own apps are managed here; the install's apps (`svc admin apps`) are listed beside them without client IDs.
import { AppCreate, AppRename } from "../../../domain/apps/schema.ts";
import { once } from "../../../lib/once.ts";
import { nstr, obj, str, time } from "../../openapi-schemas.ts";
import { type RouteDef, reply } from "../../route.ts";

// The use cases load on the first request that needs them, not at start (docs/performance.md, "Start and
// idle memory").
const loadCreate = once(() => import("../../../domain/apps/create.ts"));
const loadDelete = once(() => import("../../../domain/apps/delete.ts"));
const loadGet = once(() => import("../../../domain/apps/get.ts"));
const loadList = once(() => import("../../../domain/apps/list.ts"));
const loadRename = once(() => import("../../../domain/apps/rename.ts"));

export const developerAppRoutes: RouteDef[] = [
  {
    method: "GET",
    path: "/v1/developer_apps",
    tag: "Channels",
    summary: "List the org's developer apps and the install's (shown without client IDs)",
    scope: "channels:read",
    query: ["provider"],
    list: true,
    response: "DeveloperAppList",
    handler: async ({ app, actor, query }) => (await loadList()).listApps(app, actor, query),
  },
  {
    method: "POST",
    path: "/v1/developer_apps",
    tag: "Channels",
    summary: "Register the org's own developer app for a network (the client secret is sealed, never shown)",
    scope: "channels:write",
    body: AppCreate,
    response: "DeveloperApp",
    status: 201,
    handler: async ({ app, actor, body }) =>
      reply(201, await (await loadCreate()).createApp(app, actor, body)),
  },
  {
    method: "GET",
    path: "/v1/developer_apps/:id",
    tag: "Channels",
    summary: "Get a developer app",
    scope: "channels:read",
    response: "DeveloperApp",
    handler: async ({ app, actor, params }) => (await loadGet()).getApp(app, actor, params.id!),
  },
  {
    method: "POST",
    path: "/v1/developer_apps/:id",
    tag: "Channels",
    summary: "Rename one of the org's developer apps",
    scope: "channels:write",
    body: AppRename,
    response: "DeveloperApp",
    handler: async ({ app, actor, params, body }) =>
      (await loadRename()).renameApp(app, actor, params.id!, body),
  },
  {
    method: "DELETE",
    path: "/v1/developer_apps/:id",
    tag: "Channels",
    summary: "Remove one of the org's developer apps (its channels work until their token needs renewal)",
    scope: "channels:write",
    response: "Deleted",
    handler: async ({ app, actor, params }) => (await loadDelete()).deleteApp(app, actor, params.id!),
  },
];

export const developerAppSchemas: Record<string, unknown> = {
  DeveloperApp: obj({
    id: str,
    object: { const: "developer_app" },
    provider: str,
    name: str,
    provided_by: { enum: ["org", "server"] },
    client_id: nstr,
    redirect_uri: str,
    created_at: time,
  }),
};
