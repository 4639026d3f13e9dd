// /v1/media: upload (multipart part `file`, or JSON {brand, url, alt}), list, get, change alt, delete.
import * as v from "valibot";
import { MediaFromUrl, MediaUpdate } from "../../../domain/media/schema.ts";
import { deleteMedia, getMedia, listMedia, updateMedia } from "../../../domain/media/service.ts";
import { badRequest } from "../../../lib/errors.ts";
import { once } from "../../../lib/once.ts";
import { readJsonObject } from "../../body.ts";
import { nint, nstr, obj, str, time } from "../../openapi-schemas.ts";
import { type RouteDef, reply } from "../../route.ts";

const tag = "Media";

// The use cases load on the first request that needs them, not at start (docs/performance.md, "Start and
// idle memory").
const loadCreate = once(() => import("../../../domain/media/create.ts"));

export const mediaRoutes: RouteDef[] = [
  {
    method: "GET",
    path: "/v1/media",
    tag,
    summary: "List media in the caller's mode, newest first (brand: only that brand's)",
    scope: "posts:read",
    list: true,
    query: ["brand"],
    response: "MediaList",
    handler: async ({ app, actor, query }) => listMedia(app, actor, query),
  },
  {
    method: "POST",
    path: "/v1/media",
    tag,
    summary:
      "Upload an image (JPEG, PNG, GIF, WebP; at most 16 MiB) or a video (MP4, QuickTime; needs S3) as multipart/form-data with parts brand, file and alt, or give JSON {brand, url, alt}",
    scope: "posts:write",
    body: v.union([
      MediaFromUrl,
      v.object({ brand: v.string(), file: v.string(), alt: v.optional(v.string()) }),
    ]),
    response: "Media",
    status: 201,
    rawBody: true,
    handler: async ({ app, actor, request }) => {
      const type = (request.headers.get("content-type") ?? "").toLowerCase();
      if (type.startsWith("multipart/form-data"))
        return reply(201, await (await loadCreate()).uploadMedia(app, actor, request));
      if (type.startsWith("application/json") || type === "")
        return reply(
          201,
          await (await loadCreate()).createMediaFromUrl(app, actor, await readJsonObject(request)),
        );
      throw badRequest(
        "form_invalid",
        "Send multipart/form-data with a part named file, or JSON with url.",
        "content-type",
      );
    },
  },
  {
    method: "GET",
    path: "/v1/media/:id",
    tag,
    summary: "Get a medium",
    scope: "posts:read",
    response: "Media",
    handler: async ({ app, actor, params }) => getMedia(app, actor, params.id!),
  },
  {
    method: "POST",
    path: "/v1/media/:id",
    tag,
    summary: "Change a medium's alt text",
    scope: "posts:write",
    body: MediaUpdate,
    response: "Media",
    handler: async ({ app, actor, params, body }) => updateMedia(app, actor, params.id!, body),
  },
  {
    method: "DELETE",
    path: "/v1/media/:id",
    tag,
    summary: "Delete a medium (409 media_in_use while a post that is not finished uses it)",
    scope: "posts:write",
    response: "Deleted",
    handler: async ({ app, actor, params }) => deleteMedia(app, actor, params.id!),
  },
];

export const mediaSchemas: Record<string, unknown> = {
  Media: obj({
    id: str,
    object: { const: "media" },
    brand: str,
    livemode: { type: "boolean" },
    type: { enum: ["image/jpeg", "image/png", "image/gif", "image/webp", "video/mp4", "video/quicktime"] },
    size: { type: "integer" },
    width: nint,
    height: nint,
    alt: nstr,
    filename: nstr,
    sha256: { type: "string", pattern: "^[0-9a-f]{64}$" },
    video: {
      oneOf: [
        { type: "null" },
        obj({
          duration_ms: { type: "integer" },
          frame_rate: { type: ["number", "null"] },
          video_codec: nstr,
          audio_codec: nstr,
        }),
      ],
    },
    created_at: time,
  }),
};
