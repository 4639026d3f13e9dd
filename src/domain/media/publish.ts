// What a target's network receives of its post's media, prepared when the worker publishes: each medium checked
// again against the network's rules (the rules or the medium may have changed since the post was checked), resized
// where the rules say it will be, and otherwise sent unchanged. Bytes are read (and resized) only when the adapter
// asks, once per attempt.
import type { App } from "../../app/context.ts";
import type { MediaTable } from "../../db/tables/media.ts";
import type { PublishMedia } from "../../platforms/adapter.ts";
import { rulesFor } from "../../platforms/rules-registry.ts";
import { JPEG } from "../../platforms/text/units.ts";
import type { PlatformRules, Provider } from "../../platforms/types.ts";
import { checkMediaFor } from "./for-post.ts";
import { prepareMediaLinks, reachableFromInternet, signedMediaUrl } from "./link.ts";
import { resizeForNetwork } from "./resize.ts";
import { openStream, readBytes } from "./storage.ts";

export type PreparedMedia =
  | { ok: true; media: PublishMedia[]; video: boolean }
  | { ok: false; code: "media_rejected" | "media_link_missing" | "media_unreadable"; message: string };

/** The post's media rows in the order listed. */
export async function mediaOfPost(app: App, postId: string): Promise<MediaTable[]> {
  return app.db
    .selectFrom("post_media")
    .innerJoin("media", "media.id", "post_media.media_id")
    .selectAll("media")
    .where("post_media.post_id", "=", postId)
    .orderBy("post_media.position")
    .execute();
}

export async function mediaForTarget(
  app: App,
  postId: string,
  channel: { provider: string; emulates: string | null },
): Promise<PreparedMedia> {
  const rows = await mediaOfPost(app, postId);
  if (rows.length === 0) return { ok: true, media: [], video: false };
  const rules = rulesFor(channel.provider as Provider, (channel.emulates as Provider | null) ?? null);
  if (rules.media_by_link && !reachableFromInternet(app))
    return {
      ok: false,
      code: "media_link_missing",
      message: `${rules.name} fetches media from a link to this install, and SVC_BASE_URL (${app.config.baseUrl}) is not reachable from the internet.`,
    };
  const checked = checkMediaFor(rules, rows);
  if (checked.violations.length)
    return {
      ok: false,
      code: "media_rejected",
      message: checked.violations.map((v) => v.message).join(" "),
    };
  const resize = new Set(checked.notices.map((n) => n.media));
  // Links are made synchronously when an adapter asks: load their key now where they may be needed.
  if (rules.media_by_link) await prepareMediaLinks(app);
  return {
    ok: true,
    media: rows.map((m) => publishMedia(app, m, rules, resize.has(m.id))),
    video: rows.some((m) => m.kind === "video"),
  };
}

function publishMedia(app: App, m: MediaTable, rules: PlatformRules, resize: boolean): PublishMedia {
  let bytes: Promise<Uint8Array> | null = null;
  const read = (): Promise<Uint8Array> => {
    bytes ??= (async () => {
      const original = await readBytes(app, app.db, m);
      if (!resize) return original;
      const r = await resizeForNetwork(
        original,
        { width: m.width ?? 0, height: m.height ?? 0, bytes: original.byteLength },
        rules,
      );
      // What is sent is what the adapter is told about.
      Object.assign(out, { size: r.bytes.byteLength, width: r.width, height: r.height });
      return r.bytes;
    })();
    return bytes;
  };
  const out: PublishMedia = {
    id: m.id,
    mime: resize ? JPEG : m.type,
    alt: m.alt,
    kind: m.kind,
    size: Number(m.size),
    width: m.width,
    height: m.height,
    resized: resize,
    read,
    async stream(from = 0) {
      if (resize) return new Blob([(await read()).subarray(from) as Uint8Array<ArrayBuffer>]).stream();
      return openStream(app, app.db, m, from);
    },
    link: () => signedMediaUrl(app, m.id, rules.provider),
    video: m.video ? JSON.parse(m.video) : null,
  };
  return out;
}
