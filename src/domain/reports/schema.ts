// Inputs of the report's share links and recipients.
import * as v from "valibot";
import { email } from "../identity/users/email.ts";

export const ShareLinkInput = v.strictObject({
  brand: v.string(),
  /** YYYY-MM; default the last whole month in the brand's zone. */
  month: v.optional(v.string()),
});

export const RecipientInput = v.strictObject({
  email,
});
