import { once } from "../../../lib/once.ts";
import { providers } from "../../../platforms/types.ts";
import type { RouteDef } from "../../route.ts";

// Each use case loads with its first request (docs/performance.md, "Start and idle memory").
const loadListPlatforms = once(() => import("../../../domain/platforms/service.ts"));

export const platformRoutes: RouteDef[] = [
  {
    method: "GET",
    path: "/v1/platforms",
    tag: "Platforms",
    summary: "List every platform with its limits and connect fields",
    response: "PlatformList",
    handler: async ({ actor }) => (await loadListPlatforms()).listPlatforms(actor),
  },
];

const nnum = { type: ["number", "null"] } as const;
const nint = { type: ["integer", "null"] } as const;
const obj = (properties: Record<string, unknown>) => ({
  type: "object",
  properties,
  required: Object.keys(properties),
  additionalProperties: false,
});

export const platformSchemas: Record<string, unknown> = {
  Platform: obj({
    provider: { enum: providers },
    name: { type: "string" },
    max_length: nint,
    counting: { enum: ["characters", "graphemes", "x_weighted", "mastodon", "bluesky"] },
    threads: { type: "boolean" },
    max_thread_parts: nint,
    media_required: { type: "boolean" },
    max_media: { type: "integer" },
    images: obj({
      max_bytes: { type: "object", additionalProperties: { type: "integer" } },
      min_aspect_ratio: nnum,
      max_aspect_ratio: nnum,
      max_width_plus_height: nint,
      max_length_with_media: nint,
    }),
    video: {
      oneOf: [
        { type: "null" },
        obj({
          types: { type: "array", items: { type: "string" } },
          max_bytes: nint,
          min_seconds: nnum,
          max_seconds: nnum,
          max_fps: nnum,
          codecs: { type: ["array", "null"], items: { enum: ["h264", "hevc"] } },
          min_aspect_ratio: nnum,
          max_aspect_ratio: nnum,
        }),
      ],
    },
    connect_fields: {
      type: "array",
      items: obj({
        name: { type: "string" },
        label: { type: "string" },
        help: { type: "string" },
        secret: { type: "boolean" },
        optional: { type: "boolean" },
        default: { type: ["string", "null"] },
      }),
    },
  }),
};
