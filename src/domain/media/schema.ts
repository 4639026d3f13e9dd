// Inputs of the media routes. Limits carry their spec codes; the upload's own fields are checked by the service
// (a multipart form is not JSON).
import * as v from "valibot";
import { rule } from "../validate.ts";

export const MAX_ALT = 1000;

const alt = v.pipe(
  v.string(),
  v.maxLength(MAX_ALT, rule("alt_too_long", "alt is at most 1,000 characters.")),
);

export const MediaFromUrl = v.strictObject({
  brand: v.string(),
  url: v.string(),
  alt: v.optional(v.nullable(alt)),
});

export const MediaUpdate = v.strictObject({ alt: v.nullable(alt) });
