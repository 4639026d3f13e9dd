// The operator API (interface.md "Org hosting"): operator keys only, across the install's orgs.

import { operatorInOrg } from "../../../domain/operator/actor.ts";
import { deleteOrg } from "../../../domain/operator/delete.ts";
import { getOrg, listOrgs, loadOrg, operatorChangeOrg } from "../../../domain/operator/orgs.ts";
import { OrgChange } from "../../../domain/operator/schema.ts";
import { orgUsage } from "../../../domain/operator/usage.ts";
import { nint, nstr, obj, str, time } from "../../openapi-schemas.ts";
import type { RouteDef } from "../../route.ts";

const op = { operator: true, tag: "Operator" } as const;

export const operatorRoutes: RouteDef[] = [
  {
    ...op,
    method: "GET",
    path: "/v1/operator/orgs",
    summary: "List the install's orgs, or find one by external_ref",
    list: true,
    query: ["external_ref"],
    response: "OperatorOrgList",
    handler: ({ app, operator, query }) => listOrgs(app, operator!, query),
  },
  {
    ...op,
    method: "GET",
    path: "/v1/operator/orgs/:id",
    summary: "Get an org with its status, note, limits and external reference",
    response: "OperatorOrg",
    handler: ({ app, operator, params }) => getOrg(app, operator!, params.id!),
  },
  {
    ...op,
    method: "POST",
    path: "/v1/operator/orgs/:id",
    summary: "Change an org's name, status, status note, external reference or limits",
    body: OrgChange,
    response: "OperatorOrg",
    handler: ({ app, operator, params, body }) => operatorChangeOrg(app, operator!, params.id!, body),
  },
  {
    ...op,
    method: "DELETE",
    path: "/v1/operator/orgs/:id",
    summary: "Delete an org and everything in it for good (?confirm=<its name>)",
    query: ["confirm"],
    response: "Deleted",
    handler: async ({ app, operator, params, query }) => {
      const org = await loadOrg(app.db, params.id!);
      return deleteOrg(app, operatorInOrg(operator!, org.id), query.confirm);
    },
  },
  {
    ...op,
    method: "GET",
    path: "/v1/operator/orgs/:id/usage",
    summary: "An org's use in one UTC calendar month (?month=YYYY-MM, default this month)",
    query: ["month"],
    response: "Usage",
    handler: ({ app, operator, params, query }) => orgUsage(app, operator!, params.id!, query),
  },
];

const limits = obj({ brands: nint, channels: nint, members: nint, posts_per_month: nint });

export const operatorSchemas = {
  OperatorOrg: obj({
    id: str,
    object: { const: "org" },
    name: str,
    require_mfa: { type: "boolean" },
    require_sso: { type: "boolean" },
    status: { enum: ["active", "read_only", "suspended"] },
    status_note: nstr,
    limits,
    external_ref: nstr,
    created_at: time,
  }),
  Usage: obj({
    object: { const: "usage" },
    org: str,
    period_start: time,
    period_end: time,
    brands: { type: "integer" },
    live_channels: { type: "integer" },
    members: { type: "integer" },
    live_posts_created: { type: "integer" },
    live_targets_published: { type: "integer" },
    media_bytes: { type: "integer" },
  }),
};
