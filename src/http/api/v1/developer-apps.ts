// Developer apps: the OAuth clients sign-in connections go through (interface.md "Developer apps"). An org's
// own apps are managed here; the install's apps (`svc admin apps`) are listed beside them without client IDs.
import { createApp } from "../../../domain/apps/create.ts";
import { deleteApp } from "../../../domain/apps/delete.ts";
import { getApp } from "../../../domain/apps/get.ts";
import { listApps } from "../../../domain/apps/list.ts";
import { renameApp } from "../../../domain/apps/rename.ts";
import { AppCreate, AppRename } from "../../../domain/apps/schema.ts";
import { nstr, obj, str, time } from "../../openapi-schemas.ts";
import { type RouteDef, reply } from "../../route.ts";

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
    handler: ({ app, actor, query }) => listApps(app, actor, query),
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
    handler: async ({ app, actor, body }) => reply(201, await createApp(app, actor, body)),
  },
  {
    method: "GET",
    path: "/v1/developer_apps/:id",
    tag: "Channels",
    summary: "Get a developer app",
    scope: "channels:read",
    response: "DeveloperApp",
    handler: ({ app, actor, params }) => getApp(app, actor, params.id!),
  },
  {
    method: "POST",
    path: "/v1/developer_apps/:id",
    tag: "Channels",
    summary: "Rename one of the org's developer apps",
    scope: "channels:write",
    body: AppRename,
    response: "DeveloperApp",
    handler: ({ app, actor, params, body }) => renameApp(app, actor, params.id!, body),
  },
  {
    method: "DELETE",
    path: "/v1/developer_apps/:id",
    tag: "Channels",
    summary: "Remove one of the org's developer apps (its channels work until their token needs renewal)",
    scope: "channels:write",
    response: "Deleted",
    handler: ({ app, actor, params }) => deleteApp(app, actor, params.id!),
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
