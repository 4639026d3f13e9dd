// Finding channels as an actor may see them: in the actor's org and mode, and within its brand when the key is
// brand-limited. Anything else looks missing, so an ID never tells another org or mode that it exists.
import type { Db, Tx } from "../../db/index.ts";
import { columns, dialectOf, raw } from "../../db/raw.ts";
import type { ChannelsTable } from "../../db/tables/channels.ts";
import { notFound, type Problem, problem } from "../../lib/errors.ts";
import { isId } from "../../lib/ids.ts";
import { type Actor, brandVisible } from "../actor.ts";
import { rowInScope } from "../scope.ts";

export async function loadChannel(
  db: Db | Tx,
  actor: Actor,
  id: string,
  param = "id",
): Promise<ChannelsTable> {
  const row = await rowInScope(db, actor, "channels", "chan", id);
  if (!row || !brandVisible(actor, row.brand_id))
    throw notFound(`No channel ${id} in this org and mode.`, param);
  return row;
}

/** What a post needs of a channel: checking it can take the post, rendering for its network, naming the target. */
export type PostChannel = Pick<
  ChannelsTable,
  "id" | "brand_id" | "provider" | "emulates" | "display_name" | "status"
>;
const POST_CHANNEL_FIELDS = [
  "id",
  "brand_id",
  "provider",
  "emulates",
  "display_name",
  "status",
] as const satisfies readonly (keyof PostChannel)[];
const POST_CHANNEL_COLUMNS = columns(POST_CHANNEL_FIELDS);

export interface PostChannels {
  /** The channels a post goes to, in the order asked for (by ID when none were named). */
  channels: PostChannel[];
  /** One per named channel that cannot take the post; `param` is `channels.<index>`, detail.channel its ID. */
  problems: Problem[];
}

/**
 * The channels of a post to `brandId`. Without `ids`, every active channel of the brand in the actor's mode
 * (possibly none: the caller decides whether that is `no_channels`). With `ids`, each is checked and every
 * refusal listed: `channel_invalid` (not a channel ID), `channel_missing` (not in this org and mode, or hidden
 * from a brand-limited key), `channel_other_brand`, `channel_inactive` (needs_reauth or disabled). A repeated
 * ID counts once. Only the columns a post uses are read (not the sealed secrets or the settings).
 */
export async function channelsForPost(
  db: Db | Tx,
  actor: Actor,
  brandId: string,
  ids: readonly string[] | undefined,
): Promise<PostChannels> {
  const livemode = actor.livemode ? 1 : 0;
  if (ids === undefined) {
    // Plain text: the usual create names no channels.
    const channels = await raw<PostChannel>(
      db,
      dialectOf(db),
      `SELECT ${POST_CHANNEL_COLUMNS} FROM channels WHERE org_id = ? AND livemode = ? AND brand_id = ? AND status = 'active' ORDER BY id`,
      [actor.orgId, livemode, brandId],
    );
    return { channels, problems: [] };
  }
  const wellFormed = [...new Set(ids.filter((id) => isId("chan", id)))];
  // The query builder here: the list's length varies, and each length would be a prepared text of its own.
  const rows = wellFormed.length
    ? await db
        .selectFrom("channels")
        .select(POST_CHANNEL_FIELDS)
        .where("org_id", "=", actor.orgId)
        .where("livemode", "=", livemode)
        .where("id", "in", wellFormed)
        .execute()
    : [];
  const byId = new Map(rows.map((r) => [r.id, r]));
  const channels: PostChannel[] = [];
  const problems: Problem[] = [];
  const seen = new Set<string>();
  ids.forEach((id, i) => {
    if (seen.has(id)) return;
    seen.add(id);
    const at = `channels.${i}`;
    const detail = { channel: id };
    const row = byId.get(id);
    if (!isId("chan", id))
      problems.push(problem("channel_invalid", `${id} is not a channel ID.`, at, detail));
    else if (!row || !brandVisible(actor, row.brand_id))
      problems.push(problem("channel_missing", `No channel ${id} in this org and mode.`, at, detail));
    else if (row.brand_id !== brandId)
      problems.push(problem("channel_other_brand", `Channel ${id} belongs to another brand.`, at, detail));
    else if (row.status !== "active")
      problems.push(
        problem(
          "channel_inactive",
          row.status === "needs_reauth"
            ? `Channel ${id} must be connected again before it can post.`
            : `Channel ${id} is disabled.`,
          at,
          { ...detail, status: row.status },
        ),
      );
    else channels.push(row);
  });
  return { channels, problems };
}
