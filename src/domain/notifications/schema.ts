// What a person may change of their notification preferences (the route checks the body against it before the
// use case, src/domain/notifications/preferences.ts, loads).
import * as v from "valibot";
import { isTimezone } from "../brands/schema.ts";
import { rule } from "../validate.ts";
import { DELIVERIES, type Delivery, NOTIFICATION_TYPES } from "./types.ts";

const typeName = v.pipe(
  v.string(),
  v.picklist(
    NOTIFICATION_TYPES,
    rule("notification_type_invalid", `type must be one of ${NOTIFICATION_TYPES.join(", ")}.`),
  ),
);

export const PreferencesUpdate = v.strictObject({
  timezone: v.optional(
    v.pipe(
      v.string(),
      v.check(
        isTimezone,
        rule("timezone_invalid", "timezone must be an IANA time zone such as Europe/Berlin."),
      ),
    ),
  ),
  types: v.optional(
    v.pipe(
      v.array(
        v.strictObject({
          type: typeName,
          email: v.optional(v.boolean()),
          delivery: v.optional(v.picklist(DELIVERIES as Delivery[])),
        }),
      ),
      v.maxLength(NOTIFICATION_TYPES.length * 2),
    ),
  ),
});
