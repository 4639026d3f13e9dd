// What the operator may set on an org (reference §4 Org): name, status and its note, an external reference
// unique on the install, and the four limits (a whole number 0 or more, or null for none).
import * as v from "valibot";
import { name, rule } from "../validate.ts";

export const ORG_STATUSES = ["active", "read_only", "suspended"] as const;

const limit = v.nullable(
  v.pipe(
    v.number(rule("limit_invalid", "A limit is a whole number 0 or more, or null for none.")),
    v.integer(rule("limit_invalid", "A limit is a whole number 0 or more, or null for none.")),
    v.minValue(0, rule("limit_invalid", "A limit is a whole number 0 or more, or null for none.")),
    v.maxValue(1_000_000_000, rule("limit_invalid", "A limit is at most 1,000,000,000.")),
  ),
);

export const Limits = v.strictObject({
  brands: v.optional(limit),
  channels: v.optional(limit),
  members: v.optional(limit),
  posts_per_month: v.optional(limit),
});

export const externalRef = v.nullable(
  v.pipe(
    v.string(),
    v.trim(),
    v.minLength(1, rule("external_ref_invalid", "external_ref is 1 to 200 characters, or null.")),
    v.maxLength(200, rule("external_ref_invalid", "external_ref is 1 to 200 characters, or null.")),
  ),
);

export const OrgChange = v.strictObject({
  name: v.optional(name()),
  status: v.optional(
    v.pipe(
      v.string(),
      v.picklist(ORG_STATUSES, rule("status_invalid", "status is active, read_only or suspended.")),
    ),
  ),
  status_note: v.optional(
    v.nullable(
      v.pipe(
        v.string(),
        v.maxLength(500, rule("status_note_invalid", "status_note is at most 500 characters.")),
      ),
    ),
  ),
  external_ref: v.optional(externalRef),
  limits: v.optional(Limits),
});
export type OrgChangeInput = v.InferOutput<typeof OrgChange>;
