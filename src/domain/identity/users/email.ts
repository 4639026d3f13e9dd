// An email address as people type it: trimmed, lower-cased, checked. Apart from the users' use cases so that the
// route table can check inputs without loading those (docs/performance.md, "Start and idle memory").
import * as v from "valibot";
import { rule } from "../../validate.ts";

export const email = v.pipe(
  v.string(),
  v.trim(),
  v.toLowerCase(),
  v.maxLength(254, rule("email_invalid", "That is not an email address.")),
  v.regex(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, rule("email_invalid", "That is not an email address.")),
);
