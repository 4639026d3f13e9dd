// The operator API (interface.md "Org hosting"): operator keys only, across the install's orgs.

import * as v from "valibot";
import { InvitationCreate } from "../../../domain/identity/members/schema.ts";
import { operatorInOrg } from "../../../domain/operator/actor.ts";
import { getOrg, listOrgs, loadOrg, operatorChangeOrg } from "../../../domain/operator/orgs.ts";
import { Limits, OrgChange } from "../../../domain/operator/schema.ts";
import { once } from "../../../lib/once.ts";
import { nint, nstr, obj, str, time } from "../../openapi-schemas.ts";
import { type RouteDef, reply } from "../../route.ts";

const op = { operator: true, tag: "Operator" } as const;

// The use cases load on the first request that needs them, not at start (docs/performance.md, "Start and
// idle memory").
const loadCreate = once(() => import("../../../domain/operator/create.ts"));
const loadDelete = once(() => import("../../../domain/operator/delete.ts"));
const loadInvitations = once(() => import("../../../domain/identity/invitations/service.ts"));
const loadUsage = once(() => import("../../../domain/operator/usage.ts"));

export const operatorRoutes: RouteDef[] = [
  {
    ...op,
    method: "GET",
    path: "/v1/operator/orgs",
    summary: "List the install's orgs, or find one by external_ref",
    list: true,
    query: ["external_ref"],
    response: "OperatorOrgList",
    handler: async ({ app, operator, query }) => listOrgs(app, operator!, query),
  },
  {
    ...op,
    method: "POST",
    path: "/v1/operator/orgs",
    summary: "Create an org with its first owner's invitation (the answer holds the link)",
    body: v.strictObject({
      name: v.string(),
      owner_email: v.string(),
      external_ref: v.optional(v.nullable(v.string())),
      limits: v.optional(Limits),
      send_email: v.optional(v.boolean()),
    }),
    response: "OperatorOrgCreated",
    status: 201,
    handler: async ({ app, operator, body }) =>
      reply(201, await (await loadCreate()).createOrgAsOperator(app, operator!, body)),
  },
  {
    ...op,
    method: "POST",
    path: "/v1/operator/orgs/:id/invitations",
    summary: "Invite a person to an org (the answer holds the one-time link)",
    body: InvitationCreate,
    response: "Invitation",
    status: 201,
    handler: async ({ app, operator, params, body }) => {
      const org = await loadOrg(app.db, params.id!);
      return reply(
        201,
        await (await loadInvitations()).createInvitation(app, operatorInOrg(operator!, org.id), body),
      );
    },
  },
  {
    ...op,
    method: "GET",
    path: "/v1/operator/orgs/:id",
    summary: "Get an org with its status, note, limits and external reference",
    response: "OperatorOrg",
    handler: async ({ app, operator, params }) => getOrg(app, operator!, params.id!),
  },
  {
    ...op,
    method: "POST",
    path: "/v1/operator/orgs/:id",
    summary: "Change an org's name, status, status note, external reference or limits",
    body: OrgChange,
    response: "OperatorOrg",
    handler: async ({ app, operator, params, body }) => operatorChangeOrg(app, operator!, params.id!, body),
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
      return (await loadDelete()).deleteOrg(app, operatorInOrg(operator!, org.id), query.confirm);
    },
  },
  {
    ...op,
    method: "GET",
    path: "/v1/operator/orgs/:id/usage",
    summary: "An org's use in one UTC calendar month (?month=YYYY-MM, default this month)",
    query: ["month"],
    response: "Usage",
    handler: async ({ app, operator, params, query }) =>
      (await loadUsage()).orgUsage(app, operator!, params.id!, query),
  },
];

const limits = obj({ brands: nint, channels: nint, members: nint, posts_per_month: nint });

const operatorOrg = {
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
};

export const operatorSchemas = {
  OperatorOrgCreated: obj({ ...operatorOrg, owner_invitation: { $ref: "#/components/schemas/Invitation" } }),
  OperatorOrg: obj(operatorOrg),
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
