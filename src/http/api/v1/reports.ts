// Reports: GET /v1/reports (one brand's period beside the previous one), the share links to a brand's month and
// the monthly email's recipients. The use cases load with the first request that needs them.
import { RecipientInput, ShareLinkInput } from "../../../domain/reports/schema.ts";
import { once } from "../../../lib/once.ts";
import { bool, nstr, ntime, obj, str, time } from "../../openapi-schemas.ts";
import { type RouteDef, reply } from "../../route.ts";

const loadGet = once(() => import("../../../domain/reports/get.ts"));
const loadShare = once(() => import("../../../domain/reports/share.ts"));
const loadUnshare = once(() => import("../../../domain/reports/unshare.ts"));
const loadListShares = once(() => import("../../../domain/reports/list-shares.ts"));
const loadAddRecipient = once(() => import("../../../domain/reports/add-recipient.ts"));
const loadListRecipients = once(() => import("../../../domain/reports/list-recipients.ts"));
const loadRemoveRecipient = once(() => import("../../../domain/reports/remove-recipient.ts"));

const tag = "Reports";

export const reportRoutes: RouteDef[] = [
  {
    method: "GET",
    path: "/v1/reports",
    tag,
    summary:
      "One brand's period (month YYYY-MM in the brand's zone, default the last whole month; or since/until at most a year apart) beside the previous period of equal length; sections the caller may not see or that are empty are null",
    scope: "brands:read",
    query: ["brand", "month", "since", "until"],
    response: "Report",
    handler: async ({ app, actor, query }) => (await loadGet()).getReport(app, actor, query),
  },
  {
    method: "GET",
    path: "/v1/reports/share_links",
    tag,
    summary: "Share links of the caller's mode, newest first (never their tokens)",
    scope: "brands:write",
    query: ["brand"],
    list: true,
    response: "ReportShareLinkList",
    handler: async ({ app, actor, query }) => (await loadListShares()).listShareLinks(app, actor, query),
  },
  {
    method: "POST",
    path: "/v1/reports/share_links",
    tag,
    summary:
      "Create a read-only, account-free link to one brand's month, valid 30 days; its url is shown once (audited as report.share)",
    scope: "brands:write",
    secretOnce: true,
    body: ShareLinkInput,
    response: "ReportShareLink",
    status: 201,
    handler: async ({ app, actor, body }) =>
      reply(201, await (await loadShare()).shareReport(app, actor, body)),
  },
  {
    method: "DELETE",
    path: "/v1/reports/share_links/:id",
    tag,
    summary: "Withdraw a share link at once (audited as report.unshare)",
    scope: "brands:write",
    response: "ReportShareLink",
    handler: async ({ app, actor, params }) => (await loadUnshare()).unshareReport(app, actor, params.id!),
  },
  {
    method: "GET",
    path: "/v1/brands/:id/report_recipients",
    tag,
    summary: "The addresses that get the brand's monthly report email (at most 20)",
    scope: "brands:write",
    response: "ReportRecipientList",
    handler: async ({ app, actor, params }) =>
      (await loadListRecipients()).listRecipients(app, actor, params.id!),
  },
  {
    method: "POST",
    path: "/v1/brands/:id/report_recipients",
    tag,
    summary: "Add an address to the brand's monthly report email (at most 20 per brand)",
    scope: "brands:write",
    body: RecipientInput,
    response: "ReportRecipient",
    status: 201,
    handler: async ({ app, actor, params, body }) =>
      reply(201, await (await loadAddRecipient()).addRecipient(app, actor, params.id!, body)),
  },
  {
    method: "DELETE",
    path: "/v1/brands/:id/report_recipients/:email",
    tag,
    summary: "Remove an address from the brand's monthly report email",
    scope: "brands:write",
    response: "ReportRecipientDeleted",
    handler: async ({ app, actor, params }) =>
      (await loadRemoveRecipient()).removeRecipient(
        app,
        actor,
        params.id!,
        decodeURIComponent(params.email!),
      ),
  },
];

const int = { type: "integer" };
const num = { type: "number" };
const pair = (n: unknown = int) => obj({ value: n, previous: n });
const section = (properties: Record<string, unknown>) => ({ oneOf: [obj(properties), { type: "null" }] });

export const reportSchemas: Record<string, unknown> = {
  Report: obj({
    object: { const: "report" },
    brand: obj({ id: str, name: str, slug: str }),
    timezone: str,
    livemode: bool,
    month: nstr,
    since: time,
    until: time,
    previous_since: time,
    previous_until: time,
    generated_at: time,
    sections: {
      type: "object",
      description:
        "Each registered section by name, in order (posts, engagement, top_posts, then ads, analytics and newsletters where this install has them); null when empty or not visible to the caller. Each figure is a pair {value, previous}.",
      properties: {
        newsletters: section({
          issues: pair(),
          sent: pair(),
          opens: pair(),
          clicks: pair(),
          unsubscribes: pair(),
          bounces: pair(),
          list: {
            type: "array",
            items: obj({
              id: str,
              subject: str,
              send_at: time,
              sent: int,
              opens: int,
              clicks: int,
              unsubscribes: int,
              bounces: int,
            }),
          },
        }),
        posts: section({
          posts: pair(),
          by_network: { type: "array", items: obj({ network: str, published: pair() }) },
        }),
        engagement: section({
          likes: pair(),
          reposts: pair(),
          replies: pair(),
          quotes: pair(),
          views: pair(),
          total: pair(),
          per_target: pair(num),
          by_network: { type: "array", items: obj({ network: str, total: pair() }) },
          daily: {
            type: "array",
            items: obj({ date: { type: "string", format: "date" }, published: int, total: int }),
          },
        }),
        top_posts: section({
          data: {
            type: "array",
            items: obj({
              post: str,
              text: str,
              published_at: time,
              likes: int,
              reposts: int,
              replies: int,
              quotes: int,
              total: int,
              targets: {
                type: "array",
                items: obj({ id: str, network: str, channel_name: str, permalink: nstr }),
              },
            }),
          },
        }),
      },
      additionalProperties: { type: ["object", "null"] },
    },
  }),
  ReportShareLink: obj(
    {
      id: str,
      object: { const: "report_share_link" },
      brand: str,
      month: str,
      hint: str,
      secret: { type: "string", description: "The link's token (rpt_…); only in the answer that created it" },
      url: { type: "string", description: "The page with the token; only in the answer that created it" },
      livemode: bool,
      created_by: { enum: ["member", "api_key", "reports.mail"] },
      created_at: time,
      expires_at: time,
      revoked_at: ntime,
    },
    [
      "id",
      "object",
      "brand",
      "month",
      "hint",
      "livemode",
      "created_by",
      "created_at",
      "expires_at",
      "revoked_at",
    ],
  ),
  ReportRecipient: obj({
    object: { const: "report_recipient" },
    brand: str,
    email: str,
    last_sent_month: nstr,
    created_at: time,
  }),
  ReportRecipientDeleted: obj({
    object: { const: "report_recipient" },
    brand: str,
    email: str,
    deleted: { const: true },
  }),
};
