// The actor's channels for a filter or a picker: the first 100 (newest first, as listChannels gives them) of a
// brand, or of the org, with only what a picker and a network tag show. The post list reads them on every page;
// listChannels' builder and full presentation (settings parsed, times formatted) cost more than the read.
import type { App } from "../../app/context.ts";
import { marks, raw } from "../../db/raw.ts";
import { type Actor, requireScope } from "../actor.ts";
import { loadBrand } from "../brands/service.ts";

export interface ChannelChoice {
  id: string;
  brand: string;
  provider: string;
  emulates: string | null;
  display_name: string | null;
  handle: string | null;
  profile_url: string | null;
  status: string;
}

const CHOICES = `SELECT id, brand_id AS brand, provider, emulates, display_name, handle, profile_url, status
  FROM channels WHERE org_id = ? AND livemode = ?`;
const ORDER = " ORDER BY id DESC LIMIT 100";

/** `brandRef`: a brand's ID or slug (an unknown or hidden one is refused as listChannels refuses it). */
export async function channelChoices(app: App, actor: Actor, brandRef?: string): Promise<ChannelChoice[]> {
  requireScope(actor, "channels:read");
  const params: unknown[] = [actor.orgId, actor.livemode ? 1 : 0];
  let text = CHOICES;
  if (brandRef) {
    text += " AND brand_id = ?";
    params.push((await loadBrand(app.db, actor, brandRef)).id);
  }
  if (actor.brandId) {
    text += " AND brand_id = ?";
    params.push(actor.brandId);
  }
  return raw<ChannelChoice>(app.db, app.dialect, text + ORDER, params);
}

/** The actor's channels of these IDs, with the same few columns (any not theirs, or of the other mode, left out). */
export async function channelChoicesByIds(
  app: App,
  actor: Actor,
  ids: readonly string[],
): Promise<ChannelChoice[]> {
  requireScope(actor, "channels:read");
  const unique = [...new Set(ids)];
  if (unique.length === 0) return [];
  const params: unknown[] = [actor.orgId, actor.livemode ? 1 : 0, ...unique];
  let text = `${CHOICES} AND id IN (${marks(unique.length)})`;
  if (actor.brandId) {
    text += " AND brand_id = ?";
    params.push(actor.brandId);
  }
  return raw<ChannelChoice>(app.db, app.dialect, `${text} ORDER BY id DESC`, params);
}
