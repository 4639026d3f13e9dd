// What a preview says about a network whatever the post: TikTok publishes an app's posts only privately until the
// app has passed TikTok's audit (developers.tiktok.com/doc/content-sharing-guidelines, "Direct Post API"), so svc
// posts SELF_ONLY and every TikTok rendition says so.
import type { Notice } from "./types.ts";

const byProvider: ReadonlyMap<string, Notice[]> = new Map([
  [
    "tiktok",
    [
      {
        code: "private_only",
        message:
          "TikTok will show this video to the account alone (private): TikTok allows an app that has not passed its audit to post only privately, to private accounts.",
        media: null,
      },
    ],
  ],
]);

export function networkNotices(provider: string): Notice[] {
  return byProvider.get(provider) ?? [];
}
