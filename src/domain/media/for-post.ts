// The media a post lists: each must be a medium of this org, mode and brand, listed once (media_invalid,
// media_missing, media_other_brand, media_duplicate); a video goes alone (video_alone). Then each network's rules:
// what it refuses (violations) and what publishing will resize (notices).
import type { Db, Tx } from "../../db/index.ts";
import type { MediaTable } from "../../db/tables/media.ts";
import { type Problem, problem } from "../../lib/errors.ts";
import { isId } from "../../lib/ids.ts";
import { checkImage, checkVideo } from "../../platforms/plumbing/media.ts";
import type { Notice, PlatformRules, Violation } from "../../platforms/types.ts";
import type { Actor } from "../actor.ts";

export async function loadPostMedia(
  db: Db | Tx,
  actor: Actor,
  brandId: string,
  ids: readonly unknown[],
): Promise<{ rows: MediaTable[]; problems: Problem[] }> {
  const problems: Problem[] = [];
  const wanted = [...new Set(ids.filter((id): id is string => isId("media", id)))];
  const found = wanted.length
    ? await db
        .selectFrom("media")
        .selectAll()
        .where("id", "in", wanted)
        .where("org_id", "=", actor.orgId)
        .where("livemode", "=", actor.livemode ? 1 : 0)
        .execute()
    : [];
  const byId = new Map(found.map((m) => [m.id, m]));
  const seen = new Set<string>();
  const rows: MediaTable[] = [];
  ids.forEach((id, i) => {
    const param = `media.${i}`;
    if (!isId("media", id))
      problems.push(problem("media_invalid", `${String(id)} is not a media ID.`, param));
    else if (seen.has(id)) problems.push(problem("media_duplicate", `Media ${id} is listed twice.`, param));
    else {
      const row = byId.get(id);
      if (!row) problems.push(problem("media_missing", `No media ${id} in this org and mode.`, param));
      else if (row.brand_id !== brandId)
        problems.push(problem("media_other_brand", `Media ${id} belongs to another brand.`, param));
      else rows.push(row);
    }
    if (typeof id === "string") seen.add(id);
  });
  if (rows.some((m) => m.kind === "video") && ids.length > 1)
    problems.push(problem("video_alone", "A video post carries the video alone, no other media.", "media"));
  return { rows, problems };
}

/** Every medium checked against one network's rules. */
export function checkMediaFor(
  rules: PlatformRules,
  rows: readonly MediaTable[],
): { violations: Violation[]; notices: Notice[] } {
  const violations: Violation[] = [];
  const notices: Notice[] = [];
  for (const m of rows) {
    const check =
      m.kind === "video"
        ? checkVideo(rules, {
            id: m.id,
            mime: m.type,
            bytes: Number(m.size),
            ...(JSON.parse(m.video ?? "{}") as {
              duration_ms: number;
              frame_rate: number | null;
              video_codec: string | null;
            }),
            width: m.width,
            height: m.height,
          })
        : checkImage(rules, {
            id: m.id,
            mime: m.type,
            bytes: Number(m.size),
            width: m.width ?? 0,
            height: m.height ?? 0,
            has_alpha: m.has_alpha === 1 || (m.type === "image/gif" && m.animated === 1),
          });
    violations.push(...check.violations);
    notices.push(...check.notices);
  }
  return { violations, notices };
}
