// Members, invitations and org settings: user tokens only (API keys are refused in the domain, guard.ts). Owner
// changes and turning off required two-factor answer reauthentication_required here: they stay in the dashboard.
import { InvitationCreate, MemberUpdate } from "../../../domain/identity/members/schema.ts";
import { getOrg, OrgUpdate, updateOrg } from "../../../domain/orgs/service.ts";
import { once } from "../../../lib/once.ts";
import { bool, nint, nstr, obj, str, time } from "../../openapi-schemas.ts";
import { type RouteDef, reply } from "../../route.ts";

// The use cases load on the first request that needs them, not at start (docs/performance.md, "Start and
// idle memory").
const loadInvitations = once(() => import("../../../domain/identity/invitations/service.ts"));
const loadMembers = once(() => import("../../../domain/identity/members/service.ts"));

export const memberRoutes: RouteDef[] = [
  {
    method: "GET",
    path: "/v1/members",
    tag: "Members",
    userTokensOnly: true,
    summary: "List the org's members (user tokens only)",
    response: "MemberList",
    handler: async ({ app, actor }) => ({
      object: "list",
      data: await (await loadMembers()).listMembers(app, actor),
      has_more: false,
      url: "/v1/members",
    }),
  },
  {
    method: "GET",
    path: "/v1/members/:id",
    tag: "Members",
    userTokensOnly: true,
    summary: "A member by user ID",
    response: "Member",
    handler: async ({ app, actor, params }) => (await loadMembers()).getMember(app, actor, params.id!),
  },
  {
    method: "POST",
    path: "/v1/members/:id",
    tag: "Members",
    userTokensOnly: true,
    summary: "Change a member's role (owner changes stay in the dashboard)",
    scope: "members:write",
    body: MemberUpdate,
    response: "Member",
    handler: async ({ app, actor, params, body }) =>
      (await loadMembers()).updateMember(app, actor, params.id!, body),
  },
  {
    method: "DELETE",
    path: "/v1/members/:id",
    tag: "Members",
    userTokensOnly: true,
    summary: "Remove a member (the last owner stays; removing an owner stays in the dashboard)",
    scope: "members:write",
    response: "Deleted",
    handler: async ({ app, actor, params }) => (await loadMembers()).deleteMember(app, actor, params.id!),
  },
  {
    method: "GET",
    path: "/v1/invitations",
    tag: "Members",
    userTokensOnly: true,
    summary: "List open invitations",
    scope: "members:write",
    list: true,
    response: "InvitationList",
    handler: async ({ app, actor, query }) => (await loadInvitations()).listInvitations(app, actor, query),
  },
  {
    method: "POST",
    path: "/v1/invitations",
    tag: "Members",
    userTokensOnly: true,
    summary: "Invite a person: the one-time link (valid a week) is in this answer only; send_email mails it",
    scope: "members:write",
    body: InvitationCreate,
    response: "Invitation",
    status: 201,
    handler: async ({ app, actor, body }) =>
      reply(201, await (await loadInvitations()).createInvitation(app, actor, body)),
  },
  {
    method: "DELETE",
    path: "/v1/invitations/:id",
    tag: "Members",
    userTokensOnly: true,
    summary: "Withdraw an invitation: its link stops working",
    scope: "members:write",
    response: "Deleted",
    handler: async ({ app, actor, params }) =>
      (await loadInvitations()).revokeInvitation(app, actor, params.id!),
  },
  {
    method: "GET",
    path: "/v1/org",
    tag: "Members",
    userTokensOnly: true,
    summary: "The org the token acts in",
    response: "Org",
    handler: async ({ app, actor }) => getOrg(app, actor),
  },
  {
    method: "POST",
    path: "/v1/org",
    tag: "Members",
    userTokensOnly: true,
    summary: "Change the org's name or require two-factor (owners)",
    scope: "org:write",
    body: OrgUpdate,
    response: "Org",
    handler: async ({ app, actor, body }) => updateOrg(app, actor, body),
  },
];

export const memberSchemas: Record<string, unknown> = {
  Member: obj({
    id: str,
    object: { const: "member" },
    email: str,
    name: nstr,
    role: { enum: ["owner", "admin", "editor", "viewer"] },
    mfa: bool,
    joined_at: time,
  }),
  Invitation: obj(
    {
      id: str,
      object: { const: "invitation" },
      email: str,
      role: { enum: ["owner", "admin", "editor", "viewer"] },
      expires_at: time,
      url: str,
      emailed: bool,
      created_at: time,
    },
    ["id", "object", "email", "role", "expires_at", "emailed", "created_at"],
  ),
  Org: obj(
    {
      id: str,
      object: { const: "org" },
      name: str,
      require_mfa: bool,
      require_sso: bool,
      status: { enum: ["active", "read_only", "suspended"] },
      status_note: nstr,
      limits: obj({ brands: nint, channels: nint, members: nint, posts_per_month: nint }),
      created_at: time,
      // Owners and admins: this month's usage against the limits.
      usage: { $ref: "#/components/schemas/Usage" },
    },
    ["id", "object", "name", "require_mfa", "require_sso", "status", "status_note", "limits", "created_at"],
  ),
};
