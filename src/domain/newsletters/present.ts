import type { NewsletterDeliveriesTable, NewslettersTable } from "../../db/tables/newsletters.ts";
import { iso } from "../../lib/clock.ts";

export interface DeliveryRow extends NewsletterDeliveriesTable {
  provider: string;
}

export const presentDelivery = (d: DeliveryRow) => ({
  id: d.id,
  object: "newsletter_delivery" as const,
  mail_account: d.mail_account_id,
  provider: d.provider,
  audiences: JSON.parse(d.audiences) as string[],
  status: d.status,
  campaign_id: d.campaign_id,
  error: d.error,
  results: d.results ? (JSON.parse(d.results) as Record<string, unknown>) : null,
});

export const presentIssue = (n: NewslettersTable, deliveries: DeliveryRow[]) => ({
  id: n.id,
  object: "newsletter" as const,
  brand: n.brand_id,
  livemode: n.livemode === 1,
  status: n.status,
  subject: n.subject,
  preview_text: n.preview_text,
  body: n.body,
  send_at: n.send_at === null ? null : iso(n.send_at),
  approval: {
    required: n.approval_required === 1,
    reviewed_by: n.reviewed_by,
    reviewed_by_key: n.reviewed_by_key,
    reviewed_at: n.reviewed_at === null ? null : iso(n.reviewed_at),
    note: n.review_note,
  },
  deliveries: [...deliveries].sort((a, b) => a.position - b.position).map(presentDelivery),
  created_at: iso(n.created_at),
  updated_at: iso(n.updated_at),
});

export type Issue = ReturnType<typeof presentIssue>;
