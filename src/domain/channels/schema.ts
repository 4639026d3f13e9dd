import * as v from "valibot";
import { rule } from "../validate.ts";

export const CHANNEL_STATUSES = ["active", "needs_reauth", "disabled"] as const;
export type ChannelStatus = (typeof CHANNEL_STATUSES)[number];

// Connect fields are strings by name; which names a provider takes is checked against its connect_fields
// (field_required, field_unknown) by the service, since that depends on the provider.
const fields = v.record(v.string(), v.string());

export const ChannelCreate = v.strictObject({
  brand: v.string(),
  provider: v.string(),
  emulates: v.optional(v.nullable(v.string())),
  fields: v.optional(fields),
});

export const ChannelUpdate = v.strictObject({
  /** Options to change (a YouTube channel's privacy); credentials change by reconnecting. */
  fields: v.optional(fields),
  status: v.optional(
    v.pipe(
      v.string(),
      v.picklist(["active", "disabled"], rule("status_invalid", "status must be active or disabled.")),
    ),
  ),
});

export const ChannelReconnect = v.strictObject({
  fields: v.optional(fields),
});
