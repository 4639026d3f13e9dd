// The sandbox network's storage: what a sandbox channel "posted", one row per part and attempt, read back by
// the public permalink page /sandbox/<target id> (domain/sandbox/page.ts).
import type { App } from "../../app/context.ts";
import type { PublishedPart, PublishPart } from "../adapter.ts";

export const sandboxPermalink = (app: App, targetId: string) => `${app.config.baseUrl}/sandbox/${targetId}`;

/** Where one posted copy of a part sits on the permalink page. */
export const sandboxAnchor = (attempt: number, index: number) => `part-${attempt}-${index}`;

export async function storeSandboxPart(
  app: App,
  at: { orgId: string; channelId: string; targetId: string; attempt: number },
  part: PublishPart,
): Promise<PublishedPart> {
  const remoteId = `sandbox:${at.targetId}:${at.attempt}:${part.index}`;
  await app.db
    .insertInto("sandbox_posts")
    .values({
      target_id: at.targetId,
      attempt: at.attempt,
      part_index: part.index,
      org_id: at.orgId,
      channel_id: at.channelId,
      text: part.text,
      media: JSON.stringify(part.media.map((m) => ({ id: m.id, mime: m.mime, alt: m.alt }))),
      remote_id: remoteId,
      created_at: app.clock.now(),
    })
    .execute();
  // What a network receives: the bytes it was sent (resized where its rules needed), kept for the permalink page.
  // A video's bytes stay where they are stored; the page names it.
  for (const [position, m] of part.media.entries()) {
    const bytes = m.kind !== "video" && m.read ? await m.read() : null;
    await app.db
      .insertInto("sandbox_media")
      .values({
        target_id: at.targetId,
        attempt: at.attempt,
        part_index: part.index,
        position,
        org_id: at.orgId,
        media_id: m.id,
        type: m.mime,
        size: bytes?.byteLength ?? m.size ?? 0,
        width: m.width ?? null,
        height: m.height ?? null,
        bytes,
      })
      .execute();
  }
  return {
    index: part.index,
    remote_id: remoteId,
    remote_url: `${sandboxPermalink(app, at.targetId)}#${sandboxAnchor(at.attempt, part.index)}`,
  };
}
