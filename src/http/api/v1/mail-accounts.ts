// Mail accounts and providers (interface.md "Newsletters"). The use cases load on first use, not at start.
import { MailAccountCreate, MailAccountUpdate } from "../../../domain/mail-accounts/schema.ts";
import { once } from "../../../lib/once.ts";
import { bool, nint, nstr, obj, str, time } from "../../openapi-schemas.ts";
import { type RouteDef, reply } from "../../route.ts";

const load = {
  connect: once(() => import("../../../domain/mail-accounts/connect.ts")),
  list: once(() => import("../../../domain/mail-accounts/list.ts")),
  get: once(() => import("../../../domain/mail-accounts/get.ts")),
  update: once(() => import("../../../domain/mail-accounts/update.ts")),
  remove: once(() => import("../../../domain/mail-accounts/delete.ts")),
  audiences: once(() => import("../../../domain/mail-accounts/audiences.ts")),
  providers: once(() => import("../../../domain/mail-accounts/providers.ts")),
};

const tag = "Newsletters";

export const mailAccountRoutes: RouteDef[] = [
  {
    method: "GET",
    path: "/v1/mail_providers",
    tag,
    summary: "List the mail providers and the fields each takes (available: usable in the caller's mode)",
    scope: "channels:read",
    response: "MailProviderList",
    handler: async ({ actor }) => (await load.providers()).listMailProviders(actor),
  },
  {
    method: "GET",
    path: "/v1/mail_accounts",
    tag,
    summary: "List mail accounts in the caller's mode, optionally of one brand",
    scope: "channels:read",
    query: ["brand"],
    list: true,
    response: "MailAccountList",
    handler: async ({ app, actor, query }) => (await load.list()).listMailAccounts(app, actor, query),
  },
  {
    method: "POST",
    path: "/v1/mail_accounts",
    tag,
    summary: "Connect a mail account (credentials checked with the provider first; secrets sealed)",
    scope: "channels:write",
    body: MailAccountCreate,
    response: "MailAccount",
    status: 201,
    handler: async ({ app, actor, body }) =>
      reply(201, await (await load.connect()).connectMailAccount(app, actor, body)),
  },
  {
    method: "GET",
    path: "/v1/mail_accounts/:id",
    tag,
    summary: "Get a mail account",
    scope: "channels:read",
    response: "MailAccount",
    handler: async ({ app, actor, params }) => (await load.get()).getMailAccount(app, actor, params.id!),
  },
  {
    method: "POST",
    path: "/v1/mail_accounts/:id",
    tag,
    summary: "Update the sender, default audiences or credentials of a mail account",
    scope: "channels:write",
    body: MailAccountUpdate,
    response: "MailAccount",
    handler: async ({ app, actor, params, body }) =>
      (await load.update()).updateMailAccount(app, actor, params.id!, body),
  },
  {
    method: "DELETE",
    path: "/v1/mail_accounts/:id",
    tag,
    summary: "Delete a mail account (409 mail_account_in_use while an unfinished issue goes through it)",
    scope: "channels:write",
    response: "Deleted",
    handler: async ({ app, actor, params }) =>
      (await load.remove()).deleteMailAccount(app, actor, params.id!),
  },
  {
    method: "GET",
    path: "/v1/mail_accounts/:id/audiences",
    tag,
    summary: "The account's audiences, read from the provider",
    scope: "channels:read",
    response: "AudienceList",
    handler: async ({ app, actor, params }) => (await load.audiences()).listAudiences(app, actor, params.id!),
  },
];

export const mailAccountSchemas: Record<string, unknown> = {
  MailProvider: obj({
    provider: str,
    object: { const: "mail_provider" },
    name: str,
    livemode: bool,
    available: bool,
    fields: {
      type: "array",
      items: obj({ name: str, label: str, help: str, secret: bool, optional: bool, default: nstr }),
    },
  }),
  MailAccount: obj({
    id: str,
    object: { const: "mail_account" },
    brand: str,
    livemode: bool,
    provider: str,
    display_name: str,
    settings: { type: "object", additionalProperties: str },
    from_name: str,
    from_email: str,
    reply_to: nstr,
    default_audiences: { type: "array", items: str },
    status: { enum: ["active", "needs_reauth"] },
    created_at: time,
    updated_at: time,
  }),
  Audience: obj({ id: str, object: { const: "audience" }, name: str, size: nint }),
};
