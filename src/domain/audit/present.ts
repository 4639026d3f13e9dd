import type { AuditEventsTable } from "../../db/schema.ts";
import { iso } from "../../lib/clock.ts";

export const presentAudit = (r: AuditEventsTable) => ({
  id: r.id,
  object: "audit_event" as const,
  action: r.action,
  target: r.target,
  user: r.user_id,
  api_key: r.api_key_id,
  user_token: r.user_token_id,
  operator: r.operator,
  review_link: r.review_link_id ?? null,
  outcome: r.outcome,
  request_id: r.request_id,
  detail: r.detail ? JSON.parse(r.detail) : null,
  created_at: iso(r.created_at),
});
