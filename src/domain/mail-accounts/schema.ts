// Mail account input (interface.md, Mail account): provider fields, the sender and default audiences.
import * as v from "valibot";
import type { ErrorCode } from "../../lib/error-codes.ts";
import { name, rule } from "../validate.ts";

const address = (code: ErrorCode, what: string) =>
  v.pipe(
    v.string(),
    v.trim(),
    v.maxLength(254, rule(code, `${what} is not an email address.`)),
    v.regex(/^[^\s@<>",]+@[^\s@<>",]+\.[^\s@<>",]+$/, rule(code, `${what} is not an email address.`)),
  );

const audiences = v.pipe(v.array(v.pipe(v.string(), v.trim(), v.minLength(1))), v.maxLength(100));
const fields = v.record(v.string(), v.string());

export const MailAccountCreate = v.strictObject({
  brand: v.string(),
  provider: v.string(),
  from_name: name("from_name_invalid", "from_name"),
  from_email: address("from_email_invalid", "from_email"),
  reply_to: v.optional(v.nullable(address("reply_to_invalid", "reply_to"))),
  default_audiences: v.optional(audiences),
  fields: v.optional(fields),
});

export const MailAccountUpdate = v.strictObject({
  from_name: v.optional(name("from_name_invalid", "from_name")),
  from_email: v.optional(address("from_email_invalid", "from_email")),
  reply_to: v.optional(v.nullable(address("reply_to_invalid", "reply_to"))),
  default_audiences: v.optional(audiences),
  /** New credentials (a reconnect): checked with the provider, and a needs_reauth account is active again. */
  fields: v.optional(fields),
});
