// Images for a LinkedIn post, uploaded before the post (learn.microsoft.com/linkedin/marketing/community-management/
// shares/images-api): POST /rest/images?action=initializeUpload with the post's author as owner answers an upload
// URL and the image's URN; the bytes are PUT to that URL (with the same token); the post then names the URN, one
// image as content.media, several as content.multiImage (…/shares/multiimage-post-api: 2 to 20 images). The alt
// text goes with each image in the post.
import type { App } from "../../app/context.ts";
import type { PublishMedia, PublishOutcome } from "../adapter.ts";
import {
  field,
  type NetworkResponse,
  NoAnswer,
  networkRequest,
  noAnswerOutcome,
  str,
} from "../plumbing/http.ts";
import { linkedinApi, restHeaders } from "./api.ts";

export interface UploadedImage {
  urn: string;
  alt: string | null;
}

/** The post's `content` for its images (none: no content). */
export function imageContent(images: UploadedImage[]): Record<string, unknown> | undefined {
  const one = (i: UploadedImage) => ({ id: i.urn, ...(i.alt ? { altText: i.alt.slice(0, 4086) } : {}) });
  if (images.length === 0) return undefined;
  if (images.length === 1) return { media: one(images[0]!) };
  return { multiImage: { images: images.map(one) } };
}

/**
 * Uploads each image; the first failure is the outcome (nothing was posted: an uploaded image not used in a post
 * is not shown anywhere). A failed upload is never uncertain: the post itself was not sent.
 */
export async function uploadImages(
  app: App,
  token: string,
  version: string | null,
  owner: string,
  media: PublishMedia[],
  refusal: (res: NetworkResponse) => PublishOutcome,
): Promise<{ images: UploadedImage[] } | { outcome: PublishOutcome }> {
  const images: UploadedImage[] = [];
  for (const m of media) {
    if (m.kind === "video" || !m.read)
      return {
        outcome: {
          kind: "rejected",
          code: "media_rejected",
          message: "svc sends images to LinkedIn, not video; nothing was posted.",
        },
      };
    try {
      const init = await networkRequest(app, {
        method: "POST",
        url: `${linkedinApi(app)}/rest/images?action=initializeUpload`,
        headers: restHeaders(token, version),
        json: { initializeUploadRequest: { owner } },
      });
      if (init.status !== 200) return { outcome: notPosted(refusal(init)) };
      const value = field(init.json, "value");
      const uploadUrl = str(field(value, "uploadUrl"));
      const urn = str(field(value, "image"));
      if (!uploadUrl || !urn)
        return { outcome: { kind: "transient", message: "LinkedIn gave no upload URL for an image." } };
      const put = await networkRequest(app, {
        method: "PUT",
        url: uploadUrl,
        headers: { authorization: `Bearer ${token}` },
        bytes: { data: await m.read(), type: m.mime },
        timeoutMs: 60_000,
      });
      if (put.status !== 200 && put.status !== 201) return { outcome: notPosted(refusal(put)) };
      images.push({ urn, alt: m.alt });
    } catch (err) {
      if (!(err instanceof NoAnswer)) throw err;
      // Only an image may be half-sent here, never the post: the attempt can be retried.
      const o = noAnswerOutcome("LinkedIn", err, 0);
      return { outcome: o.kind === "uncertain" ? { kind: "transient", message: o.message } : o };
    }
  }
  return { images };
}

/** A refusal met while uploading: the post was not sent, so a server error is worth another attempt. */
function notPosted(o: PublishOutcome): PublishOutcome {
  if (o.kind === "uncertain") return { kind: "transient", message: `${o.message} (uploading an image)` };
  if (o.kind === "rejected" && o.code === "rejected")
    return { ...o, code: "media_rejected", message: `${o.message} (uploading an image)` };
  return o;
}
