// Newsletters: preview an issue as recipients will see it, save a draft, list issues. Scheduling, approval and
// hand-off stay with people and the API; an agent writes.
import * as v from "valibot";
import { IssueCreate, IssuePreview } from "../../domain/newsletters/schema.ts";
import { BRAND, described, describedEntries } from "../fields.ts";
import { READ, type Tool } from "../tool.ts";

const DOCS = {
  brand: `${BRAND} The issue belongs to it and wears its email theme.`,
  subject: "The subject line, 1 to 200 characters.",
  preview_text: "The line mail clients show after the subject; at most 200 characters.",
  body:
    "The body in Markdown (headings, lists, links, **bold**, images as ![alt](media_…) of the brand's library), " +
    "1 to 100,000 bytes. Raw HTML is shown as text. Links to the brand's UTM domains are tagged utm_medium=email.",
} as const;

const PreviewInput = v.strictObject(
  describedEntries(
    {
      brand: IssuePreview.entries.brand,
      subject: IssuePreview.entries.subject,
      body: IssuePreview.entries.body,
      preview_text: IssuePreview.entries.preview_text,
    },
    DOCS,
  ),
);

const DraftInput = v.strictObject({
  ...describedEntries(
    {
      brand: IssueCreate.entries.brand,
      subject: IssueCreate.entries.subject,
      body: IssueCreate.entries.body,
      preview_text: IssueCreate.entries.preview_text,
    },
    DOCS,
  ),
  idempotency_key: described(
    v.optional(v.pipe(v.string(), v.maxLength(255))),
    "Reuse the same key when retrying after an error or timeout, so a retry cannot make a second draft.",
  ),
});

export const newsletterTools: Tool[] = [
  {
    name: "preview_newsletter",
    description:
      "Render a newsletter issue as recipients will see it: the HTML and the text version with the brand's email " +
      "theme (logo, accent, footer, postal address) and the mail provider's unsubscribe placeholder. Saves " +
      "nothing; an error lists what is wrong (subject_invalid, preview_text_too_long, body_invalid). Needs " +
      "newsletters:read.",
    annotations: { title: "Preview a newsletter", ...READ },
    input: PreviewInput,
    run: (api, a: Record<string, unknown>) =>
      api({ method: "POST", path: "/v1/newsletters/preview", body: a }),
  },
  {
    name: "draft_newsletter",
    description:
      "Save a newsletter issue as a draft of the brand (same input as preview_newsletter plus idempotency_key). " +
      "A person adds the mail accounts, schedules it and, where the brand asks, approves it in the dashboard or " +
      "the API. Returns the issue (nl_…). Needs newsletters:write.",
    annotations: {
      title: "Draft a newsletter",
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
    },
    input: DraftInput,
    run: async (api, a: Record<string, unknown>) => {
      const { idempotency_key, ...body } = a;
      const key = typeof idempotency_key === "string" ? idempotency_key : `mcp_${crypto.randomUUID()}`;
      const r = await api({ method: "POST", path: "/v1/newsletters", body, idempotencyKey: key });
      return { ...r, note: `Idempotency-Key: ${key}` };
    },
  },
  {
    name: "list_newsletters",
    description:
      "List newsletter issues, newest first: optionally of one `brand`, with one `status` (draft, " +
      "pending_approval, scheduled, sending, sent, partially_sent, canceled, failed); `limit` 1-100, default 20. " +
      "Each issue lists its deliveries (mail account, audiences, status, results once read). Needs " +
      "newsletters:read.",
    annotations: { title: "List newsletters", ...READ },
    input: v.strictObject(
      describedEntries(
        {
          brand: v.optional(v.string()),
          status: v.optional(v.string()),
          limit: v.optional(v.pipe(v.number(), v.integer())),
        },
        {
          brand: `${BRAND} Without it, the issues of every brand.`,
          status: [
            "Only issues with this status.",
            {
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
          ],
          limit: ["How many issues, 1 to 100 (default 20).", { minimum: 1, maximum: 100 }],
        },
      ),
    ),
    run: (api, a: { brand?: string; status?: string; limit?: number }) =>
      api({ method: "GET", path: "/v1/newsletters", query: a }),
  },
];
