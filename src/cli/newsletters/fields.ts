// The newsletter issue's fields, for --json.
export const NEWSLETTER_FIELDS = [
  "id",
  "object",
  "brand",
  "livemode",
  "status",
  "subject",
  "preview_text",
  "body",
  "send_at",
  "approval",
  "deliveries",
  "created_at",
  "updated_at",
] as const;
