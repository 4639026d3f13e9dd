import * as v from "valibot";

// Connect fields are strings by name; which names a network takes is checked against its connect_fields.
export const AdAccountCreate = v.strictObject({
  brand: v.string(),
  network: v.string(),
  fields: v.optional(v.record(v.string(), v.string())),
});

export const ADS_GROUP_BY = ["brand", "account", "campaign", "day"] as const;
export type AdsGroupBy = (typeof ADS_GROUP_BY)[number];
