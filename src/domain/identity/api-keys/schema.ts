import * as v from "valibot";
import { name, rule } from "../../validate.ts";

const rfc3339 = v.pipe(
  v.string(),
  v.isoTimestamp(rule("parameter_invalid", "expires_at must be an RFC 3339 time.")),
);

export const ApiKeyCreate = v.strictObject({
  name: name(),
  scopes: v.optional(v.array(v.string())),
  brand: v.optional(v.nullable(v.string())),
  expires_at: v.optional(v.nullable(rfc3339)),
  livemode: v.optional(v.boolean()),
});

export const overlapHours = v.pipe(
  v.number(),
  v.integer(rule("parameter_invalid", "overlap_hours must be a whole number.")),
  v.minValue(0, rule("parameter_invalid", "overlap_hours must be 0 to 168.")),
  v.maxValue(168, rule("parameter_invalid", "overlap_hours must be 0 to 168.")),
);
export const ApiKeyRoll = v.strictObject({ overlap_hours: v.optional(overlapHours) });
