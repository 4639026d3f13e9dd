// Newsletter issue input (interface.md, Newsletter issue; limits "Newsletter").
import * as v from "valibot";
import { rule } from "../validate.ts";

export const MAX_BODY_BYTES = 100_000;

const subject = v.pipe(
  v.string(),
  v.trim(),
  v.minLength(1, rule("subject_invalid", "subject must be 1 to 200 characters.")),
  v.maxLength(200, rule("subject_invalid", "subject must be 1 to 200 characters.")),
);
const previewText = v.pipe(
  v.string(),
  v.trim(),
  v.maxLength(200, rule("preview_text_too_long", "preview_text is at most 200 characters.")),
);
const body = v.pipe(
  v.string(),
  v.check((s) => s.trim() !== "", rule("body_invalid", "body must not be empty.")),
  v.check(
    (s) => Buffer.byteLength(s, "utf8") <= MAX_BODY_BYTES,
    rule("body_invalid", "body is at most 100,000 bytes."),
  ),
);
const Delivery = v.strictObject({
  mail_account: v.string(),
  /** The provider's audience IDs; default: the account's default audiences. */
  audiences: v.optional(v.array(v.pipe(v.string(), v.trim(), v.minLength(1)))),
});
const deliveries = v.pipe(v.array(Delivery), v.maxLength(20));

export const IssueCreate = v.strictObject({
  brand: v.string(),
  subject,
  preview_text: v.optional(previewText),
  body,
  deliveries: v.optional(deliveries),
});

export const IssueUpdate = v.strictObject({
  subject: v.optional(subject),
  preview_text: v.optional(previewText),
  body: v.optional(body),
  deliveries: v.optional(deliveries),
});

export const IssuePreview = v.strictObject({
  brand: v.string(),
  subject,
  preview_text: v.optional(previewText),
  body,
  /** Whose unsubscribe placeholder and utm_source to show; default the sandbox's (test) or the first account's. */
  mail_account: v.optional(v.string()),
});

export const Schedule = v.strictObject({ send_at: v.string() });

// Approve and reject take what a post's review takes (a note of at most 500 characters).
export { Review } from "../posts/schema.ts";

export const TestSend = v.strictObject({
  mail_account: v.string(),
  to: v.pipe(
    v.array(v.string()),
    v.minLength(1, rule("to_invalid", "to lists 1 to 5 addresses.")),
    v.maxLength(5, rule("to_invalid", "to lists 1 to 5 addresses.")),
    v.check(
      (list) => list.every((a) => /^[^\s@<>",]+@[^\s@<>",]+\.[^\s@<>",]+$/.test(a) && a.length <= 254),
      rule("to_invalid", "Every address in to must be an email address."),
    ),
  ),
});
