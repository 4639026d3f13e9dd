// Inputs of the webhook endpoint API. The URL's finer rules (credentials, https in live mode, private literals)
// are in url.ts, because they depend on the caller's mode and the install's allow setting.
import * as v from "valibot";
import { isEventType } from "../events/service.ts";
import { overlapHours } from "../identity/api-keys/schema.ts";
import { rule } from "../validate.ts";

const url = v.pipe(v.string(), v.maxLength(2048, rule("url_invalid", "url is at most 2048 characters.")));
const description = v.pipe(
  v.string(),
  v.maxLength(500, rule("description_invalid", "description is at most 500 characters.")),
);
const enabledEvents = v.pipe(
  v.array(
    v.pipe(
      v.string(),
      v.check(
        (s) => s === "*" || isEventType(s),
        rule("event_type_invalid", "Each enabled event must be an event type or *."),
      ),
    ),
  ),
  v.minLength(1, rule("event_type_invalid", "enabled_events lists at least one event type, or *.")),
);

export const EndpointCreate = v.strictObject({
  url,
  description: v.optional(description),
  enabled_events: v.optional(enabledEvents),
});

export const EndpointUpdate = v.strictObject({
  url: v.optional(url),
  description: v.optional(description),
  enabled_events: v.optional(enabledEvents),
  disabled: v.optional(v.boolean()),
});

export const SecretRoll = v.strictObject({ overlap_hours: v.optional(overlapHours) });

/** ["*"] stays as it is; a list is deduplicated in the order given. */
export const normalizeEvents = (list: string[] | undefined): string[] =>
  !list || list.includes("*") ? ["*"] : [...new Set(list)];
