// What a client review link's page shows: the brand's posts waiting for approval in the link's mode, each as every
// network will receive it (the text frozen on its targets, measured by that network's rules, as the composer's
// preview shows it). Posts written by the link's own creator are shown without a decision (decide.ts).
import type { App } from "../../app/context.ts";
import { iso, isoOrNull } from "../../lib/clock.ts";
import { rulesFor } from "../../platforms/rules-registry.ts";
import { measure } from "../../platforms/text/counting.ts";
import { checkParts, partLimit } from "../../platforms/text/fit.ts";
import type { Provider } from "../../platforms/types.ts";
import type { Media } from "../media/present.ts";
import { nextFreeSlot } from "../slots/free.ts";
import { fromJson } from "../tx.ts";
import { creatorWrote } from "./decide.ts";
import { openReviewLink } from "./open.ts";
import { formToken } from "./token.ts";

/** At most this many posts on one page, oldest first: a review link is for a client's batch, not a backlog. */
export const PAGE_POSTS = 100;

export async function reviewLinkPage(app: App, token: string) {
  const { link, org, brand, actor } = await openReviewLink(app, token);
  const posts = await app.db
    .selectFrom("posts")
    .selectAll()
    .where("org_id", "=", link.org_id)
    .where("livemode", "=", link.livemode)
    .where("brand_id", "=", link.brand_id)
    .where("status", "=", "pending_approval")
    .orderBy("id", "asc")
    .limit(PAGE_POSTS + 1)
    .execute();
  const shown = posts.slice(0, PAGE_POSTS);
  const ids = shown.map((p) => p.id);
  const targets = ids.length
    ? await app.db.selectFrom("post_targets").selectAll().where("post_id", "in", ids).orderBy("id").execute()
    : [];
  const channelIds = [...new Set(targets.map((t) => t.channel_id))];
  const channels = channelIds.length
    ? await app.db
        .selectFrom("channels")
        .select(["id", "brand_id", "provider", "emulates", "display_name", "handle", "status"])
        .where("id", "in", channelIds)
        .execute()
    : [];
  const byChannel = new Map(channels.map((c) => [c.id, c]));
  const slot = shown.some((p) => p.slot === 1 && p.publish_at === null)
    ? await nextFreeSlot(app, actor, brand.id)
    : null;
  return {
    link: { id: link.id, name: link.name, expires_at: iso(link.expires_at) },
    org: { name: org.name, status: org.status },
    brand: { name: brand.name, timezone: brand.timezone },
    livemode: link.livemode === 1,
    form: await formToken(app, link.id),
    more: posts.length > PAGE_POSTS,
    channels: channels.map((c) => ({ ...c, brand: c.brand_id })),
    posts: await Promise.all(
      shown.map(async (p) => {
        const media = fromJson<Media[]>(p.media, []);
        const mine = targets.filter((t) => t.post_id === p.id);
        return {
          id: p.id,
          created_at: iso(p.created_at),
          publish_at: isoOrNull(p.publish_at),
          /** When approving takes the next free slot: that slot (null if none is free), else undefined. */
          next_slot: p.slot === 1 && p.publish_at === null ? isoOrNull(slot) : undefined,
          /** Each attached file, shown as a thumbnail (an image) or a poster frame (a video) by the link's routes. */
          media: media.map((m) => ({
            id: m.id,
            kind: m.type.startsWith("video/") ? ("video" as const) : ("image" as const),
            alt: m.alt,
            width: m.width,
            height: m.height,
            duration_ms: m.video?.duration_ms ?? null,
          })),
          decidable: !(await creatorWrote(app, link, p)),
          renditions: mine.map((t) => {
            const c = byChannel.get(t.channel_id);
            const rules = rulesFor(t.provider as Provider, (c?.emulates ?? null) as Provider | null);
            const parts = fromJson<string[]>(t.parts, []);
            const lengths = parts.map((text) => measure(text, rules.counting));
            return {
              channel: t.channel_id,
              provider: t.provider,
              parts,
              lengths,
              limit: partLimit(rules, 0, media.length),
              counting: rules.counting as string,
              violations: checkParts(rules, parts, media.length, lengths).map((v) => ({
                code: v.code as string,
                message: v.message,
                part: v.part ?? null,
              })),
              notices: t.first_comment
                ? [{ code: "first_comment", message: `Then, as the first comment: ${t.first_comment}` }]
                : [],
            };
          }),
        };
      }),
    ),
  };
}
export type ReviewLinkPage = Awaited<ReturnType<typeof reviewLinkPage>>;
