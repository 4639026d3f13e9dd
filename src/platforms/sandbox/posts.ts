// The sandbox network's storage: what a sandbox channel "posted", one row per part and attempt, read back by
// the public permalink page /sandbox/<target id>.
import type { App } from "../../app/context.ts";
import type { SandboxPostsTable } from "../../db/tables/channels.ts";
import { isId } from "../../lib/ids.ts";
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
      media: JSON.stringify(part.media),
      remote_id: remoteId,
      created_at: app.clock.now(),
    })
    .execute();
  return {
    index: part.index,
    remote_id: remoteId,
    remote_url: `${sandboxPermalink(app, at.targetId)}#${sandboxAnchor(at.attempt, part.index)}`,
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
