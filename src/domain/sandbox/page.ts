// The sandbox network's public post page, read: every copy posted for a target, part by part, with what the
// network received (images inline as received, videos from a signed link). Public like a post on a real network:
// whoever has the link sees what was posted, and nothing else.

import type { SandboxFigure, SandboxPart, SandboxPost } from "../../../views/sandbox.tsx";
import type { App } from "../../app/context.ts";
import type { SandboxPostsTable } from "../../db/tables/channels.ts";
import type { SandboxMediaTable } from "../../db/tables/media.ts";
import { iso } from "../../lib/clock.ts";
import { isId } from "../../lib/ids.ts";
import { sandboxAnchor } from "../../platforms/sandbox/posts.ts";
import { mediaUrl, prepareMediaLinks } from "../media/link.ts";

/**
 * What the page shows for a target: the channel and brand it was posted for (a reader of a real network's post
 * sees who posted it; two brands may share a name, so the slug comes with it), the brand's zone for its times,
 * the post's ID for the link back to the dashboard, and the parts in the order they were posted. Null for an
 * unknown or malformed ID.
 */
export async function sandboxPost(app: App, targetId: string): Promise<SandboxPost | null> {
  const rows = await sandboxPostsFor(app, targetId);
  const first = rows[0];
  if (!first) return null;
  const received = await sandboxMediaFor(app, targetId);
  const total = new Set(rows.map((r) => r.part_index)).size;
  if (received.some((r) => r.type.startsWith("video/"))) await prepareMediaLinks(app);
  // The channel or its post may have been deleted since: the page still shows what was posted.
  const channel = await app.db
    .selectFrom("channels")
    .innerJoin("brands", (j) =>
      j.onRef("brands.id", "=", "channels.brand_id").onRef("brands.org_id", "=", "channels.org_id"),
    )
    .select([
      "channels.display_name",
      "channels.handle",
      "brands.name as brand_name",
      "brands.slug as brand_slug",
      "brands.timezone",
    ])
    .where("channels.id", "=", first.channel_id)
    .where("channels.org_id", "=", first.org_id)
    .executeTakeFirst();
  const target = await app.db
    .selectFrom("post_targets")
    .select("post_id")
    .where("id", "=", targetId)
    .where("org_id", "=", first.org_id)
    .executeTakeFirst();
  return {
    channel: channel ? { name: channel.display_name, handle: channel.handle } : null,
    brand: channel ? { name: channel.brand_name, slug: channel.brand_slug } : null,
    timeZone: channel?.timezone ?? "UTC",
    postId: target?.post_id ?? null,
    parts: rows.map((r) => part(app, r, total, received)),
  };
}

/** One part as the page shows it: the images as the network received them, a video from a signed link. */
function part(app: App, p: SandboxPostsTable, total: number, received: SandboxMediaTable[]): SandboxPart {
  const media = JSON.parse(p.media) as { id: string; mime: string; alt: string | null }[];
  const figures: SandboxFigure[] = received
    .filter((r) => r.attempt === p.attempt && r.part_index === p.part_index)
    .flatMap((r): SandboxFigure[] => {
      const common = {
        alt: media[r.position]?.alt ?? "",
        type: r.type,
        width: r.width,
        height: r.height,
        size: r.size,
      };
      // An image is inline (resized where its rules needed): the page loads nothing.
      if (r.bytes)
        return [
          {
            ...common,
            kind: "image",
            src: `data:${r.type};base64,${Buffer.from(r.bytes).toString("base64")}`,
          },
        ];
      // A video's bytes stay in the bucket: it plays from a signed link to this install (made afresh for each
      // view, valid an hour), as a network that took the file would show it.
      if (r.type.startsWith("video/"))
        return [{ ...common, kind: "video", src: mediaUrl(app, r.media_id, "sandbox") }];
      return [];
    })
    // Images first, then videos, as the network shows them.
    .sort((x, y) => (x.kind === y.kind ? 0 : x.kind === "image" ? -1 : 1));
  return {
    anchor: sandboxAnchor(p.attempt, p.part_index),
    label: total > 1 ? `Part ${p.part_index + 1}` : "Post",
    attempt: p.attempt,
    at: iso(p.created_at),
    text: p.text,
    figures,
    media,
  };
}

/** Every copy posted for a target, in the order they were posted; empty for an unknown or malformed ID. */
export async function sandboxPostsFor(app: App, targetId: string): Promise<SandboxPostsTable[]> {
  if (!isId("ptgt", targetId)) return [];
  return app.db
    .selectFrom("sandbox_posts")
    .selectAll()
    .where("target_id", "=", targetId)
    .orderBy("attempt")
    .orderBy("part_index")
    .execute();
}

/** What the sandbox received for a target's parts, in order. */
export async function sandboxMediaFor(app: App, targetId: string): Promise<SandboxMediaTable[]> {
  if (!isId("ptgt", targetId)) return [];
  return app.db
    .selectFrom("sandbox_media")
    .selectAll()
    .where("target_id", "=", targetId)
    .orderBy("attempt")
    .orderBy("part_index")
    .orderBy("position")
    .execute();
}
