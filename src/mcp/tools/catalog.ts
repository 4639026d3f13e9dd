// What an agent looks up before posting: the networks and their rules, the org's brands, the brand's channels.
import * as v from "valibot";
import { BRAND, described } from "../fields.ts";
import { READ, type Tool } from "../tool.ts";

export const catalogTools: Tool[] = [
  {
    name: "list_platforms",
    description:
      "List every network svc can publish to, with its rules: maximum text length and how it is counted, whether " +
      "threads are possible, media limits (count, bytes per type, aspect ratios) and the fields needed to connect " +
      "a channel. Use it to write text that fits before calling preview_post. Needs no scope.",
    annotations: { title: "List networks and their rules", ...READ },
    input: v.strictObject({}),
    run: (api) => api({ method: "GET", path: "/v1/platforms" }),
  },
  {
    name: "list_brands",
    description:
      "List the org's brands (newest first): id, slug, name, time zone, approval policy and posting slots. Every " +
      "post belongs to one brand; pass its id or slug as `brand` to the other tools. Needs brands:read.",
    annotations: { title: "List brands", ...READ },
    input: v.strictObject({}),
    run: (api) => api({ method: "GET", path: "/v1/brands", query: { limit: 100 } }),
  },
  {
    name: "list_channels",
    description:
      "List the channels (accounts on networks) you can post to, optionally of one brand (id or slug). A channel " +
      "with status other than `active` receives nothing: `needs_reauth` must be reconnected by a person. Test-mode " +
      "credentials see only sandbox channels. Needs channels:read.",
    annotations: { title: "List channels", ...READ },
    input: v.strictObject({
      brand: described(v.optional(v.string()), `${BRAND} Without it, the channels of every brand.`),
    }),
    run: (api, a: { brand?: string }) =>
      api({ method: "GET", path: "/v1/channels", query: { brand: a.brand, limit: 100 } }),
  },
];
