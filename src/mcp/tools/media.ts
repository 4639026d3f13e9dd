// Media for posts: an image or video fetched by svc from a URL, then attached to a post by its ID.
import * as v from "valibot";
import { BRAND, describedEntries } from "../fields.ts";
import type { Tool } from "../tool.ts";

export const mediaTools: Tool[] = [
  {
    name: "upload_media_from_url",
    description:
      "Have svc fetch an image (JPEG, PNG, GIF, WebP, at most 16 MiB) from a public `url` into the `brand`'s media " +
      "library, with optional `alt` text (at most 1,000 characters; write it: it is what screen readers say). " +
      "Returns the medium with its `id`, type, size and dimensions; pass the id in `media` of preview_post or " +
      "create_post (at most 10 per post; a video is alone). The type is read from the bytes, not the URL. Errors: " +
      "url_invalid, url_unreachable, media_type_unsupported, media_too_large, media_unreadable. Unused media are " +
      "deleted after a day. Needs posts:write.",
    annotations: {
      title: "Upload media from a URL",
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: false,
      openWorldHint: true,
    },
    input: v.strictObject(
      describedEntries(
        { brand: v.string(), url: v.string(), alt: v.optional(v.string()) },
        {
          brand: `${BRAND} The medium belongs to it.`,
          url: [
            "A public http(s) URL of the image. Private and loopback addresses are refused unless the install allows them.",
            { format: "uri" },
          ],
          alt: "What the image shows, for screen readers; at most 1,000 characters.",
        },
      ),
    ),
    run: (api, a: { brand: string; url: string; alt?: string }) =>
      api({ method: "POST", path: "/v1/media", body: a }),
  },
];
