// Newsletter issues (interface.md "Newsletters"; reference §2). The use cases load on first use, not at start.
import {
  IssueCreate,
  IssuePreview,
  IssueUpdate,
  Review,
  Schedule,
  TestSend,
} from "../../../domain/newsletters/schema.ts";
import { once } from "../../../lib/once.ts";
import { bool, nstr, ntime, obj, str, time } from "../../openapi-schemas.ts";
import { type RouteDef, reply } from "../../route.ts";

const load = {
  create: once(() => import("../../../domain/newsletters/create.ts")),
  list: once(() => import("../../../domain/newsletters/list.ts")),
  get: once(() => import("../../../domain/newsletters/get.ts")),
  update: once(() => import("../../../domain/newsletters/update.ts")),
  preview: once(() => import("../../../domain/newsletters/preview.ts")),
  schedule: once(() => import("../../../domain/newsletters/schedule.ts")),
  unschedule: once(() => import("../../../domain/newsletters/unschedule.ts")),
  cancel: once(() => import("../../../domain/newsletters/cancel.ts")),
  review: once(() => import("../../../domain/newsletters/review.ts")),
  test: once(() => import("../../../domain/newsletters/send-test.ts")),
};

const tag = "Newsletters";

export const newsletterRoutes: RouteDef[] = [
  {
    method: "GET",
    path: "/v1/newsletters",
    tag,
    summary: "List newsletter issues in the caller's mode, newest first",
    scope: "newsletters:read",
    query: ["brand", "status"],
    list: true,
    response: "NewsletterList",
    handler: async ({ app, actor, query }) => (await load.list()).listIssues(app, actor, query),
  },
  {
    method: "POST",
    path: "/v1/newsletters",
    tag,
    summary: "Create a draft issue (subject, preview text, Markdown body, deliveries)",
    scope: "newsletters:write",
    body: IssueCreate,
    response: "Newsletter",
    status: 201,
    handler: async ({ app, actor, body }) =>
      reply(201, await (await load.create()).createIssue(app, actor, body)),
  },
  {
    method: "POST",
    path: "/v1/newsletters/preview",
    tag,
    summary: "Render an issue's content as recipients will see it (HTML and text); nothing is saved",
    scope: "newsletters:read",
    body: IssuePreview,
    response: "NewsletterPreview",
    handler: async ({ app, actor, body }) => (await load.preview()).previewContent(app, actor, body),
  },
  {
    method: "GET",
    path: "/v1/newsletters/:id",
    tag,
    summary: "Get an issue with its deliveries",
    scope: "newsletters:read",
    response: "Newsletter",
    handler: async ({ app, actor, params }) => (await load.get()).getIssue(app, actor, params.id!),
  },
  {
    method: "POST",
    path: "/v1/newsletters/:id",
    tag,
    summary: "Change a draft issue (409 issue_not_draft otherwise)",
    scope: "newsletters:write",
    body: IssueUpdate,
    response: "Newsletter",
    handler: async ({ app, actor, params, body }) =>
      (await load.update()).updateIssue(app, actor, params.id!, body),
  },
  {
    method: "GET",
    path: "/v1/newsletters/:id/preview",
    tag,
    summary: "The issue rendered as recipients will see it (mail_account: whose unsubscribe placeholder)",
    scope: "newsletters:read",
    query: ["mail_account"],
    response: "NewsletterPreview",
    handler: async ({ app, actor, params, query }) =>
      (await load.preview()).previewIssue(app, actor, params.id!, query),
  },
  {
    method: "POST",
    path: "/v1/newsletters/:id/schedule",
    tag,
    summary: "Schedule a draft (or move a scheduled issue) to send_at, 2 minutes to one year ahead",
    scope: "newsletters:write",
    body: Schedule,
    response: "Newsletter",
    handler: async ({ app, actor, params, body }) =>
      (await load.schedule()).scheduleIssue(app, actor, params.id!, body),
  },
  {
    method: "POST",
    path: "/v1/newsletters/:id/unschedule",
    tag,
    summary: "Return a scheduled issue (or one waiting for approval) to draft",
    scope: "newsletters:write",
    response: "Newsletter",
    handler: async ({ app, actor, params }) =>
      (await load.unschedule()).unscheduleIssue(app, actor, params.id!),
  },
  {
    method: "POST",
    path: "/v1/newsletters/:id/cancel",
    tag,
    summary: "Cancel an issue that is not sent",
    scope: "newsletters:write",
    response: "Newsletter",
    handler: async ({ app, actor, params }) => (await load.cancel()).cancelIssue(app, actor, params.id!),
  },
  {
    method: "POST",
    path: "/v1/newsletters/:id/approve",
    tag,
    summary: "Approve an issue waiting for approval (not by whoever asked)",
    scope: "posts:approve",
    body: Review,
    response: "Newsletter",
    handler: async ({ app, actor, params, body }) =>
      (await load.review()).approveIssue(app, actor, params.id!, body),
  },
  {
    method: "POST",
    path: "/v1/newsletters/:id/reject",
    tag,
    summary: "Reject an issue waiting for approval; it returns to draft with the note",
    scope: "posts:approve",
    body: Review,
    response: "Newsletter",
    handler: async ({ app, actor, params, body }) =>
      (await load.review()).rejectIssue(app, actor, params.id!, body),
  },
  {
    method: "POST",
    path: "/v1/newsletters/:id/test",
    tag,
    summary:
      "Send the issue, marked [Test], to 1 to 5 addresses through a mail account (addresses are not kept)",
    scope: "newsletters:write",
    body: TestSend,
    response: "NewsletterTest",
    handler: async ({ app, actor, params, body }) =>
      (await load.test()).sendTest(app, actor, params.id!, body),
  },
];

const delivery = obj({
  id: str,
  object: { const: "newsletter_delivery" },
  mail_account: str,
  provider: str,
  audiences: { type: "array", items: str },
  status: {
    enum: ["draft", "held", "queued", "handed_off", "sent", "canceled", "failed", "needs_attention"],
  },
  campaign_id: nstr,
  error: nstr,
  results: { type: ["object", "null"] },
});

export const newsletterSchemas: Record<string, unknown> = {
  Newsletter: obj({
    id: str,
    object: { const: "newsletter" },
    brand: str,
    livemode: bool,
    status: {
      enum: [
        "draft",
        "pending_approval",
        "scheduled",
        "sending",
        "sent",
        "partially_sent",
        "canceled",
        "failed",
      ],
    },
    subject: str,
    preview_text: str,
    body: str,
    send_at: ntime,
    approval: obj({
      required: bool,
      reviewed_by: nstr,
      reviewed_by_key: nstr,
      reviewed_at: ntime,
      note: nstr,
    }),
    deliveries: { type: "array", items: delivery },
    created_at: time,
    updated_at: time,
  }),
  NewsletterTest: obj({
    object: { const: "newsletter_test" },
    newsletter: str,
    mail_account: str,
    sent: { type: "integer" },
  }),
  NewsletterPreview: obj({
    object: { const: "newsletter_preview" },
    brand: str,
    provider: str,
    subject: str,
    preview_text: str,
    html: str,
    text: str,
    links: { type: "integer" },
    images: { type: "array", items: str },
  }),
};
