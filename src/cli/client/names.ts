// Names beside IDs: what a person reads in a table is a brand's or a channel's name, so commands look them up
// (once per run) rather than print bare IDs. A credential that may not read brands or channels (an API key without
// that scope) still gets its output, with the IDs alone.
import { ApiError } from "./api.ts";
import type { Ctx } from "./command.ts";
import { listItems } from "./pages.ts";

export interface BrandInfo {
  id: string;
  name: string;
  slug: string;
  timezone: string;
}

export interface ChannelInfo {
  id: string;
  name: string;
  provider: string;
}

const brandLists = new WeakMap<Ctx, Promise<Map<string, BrandInfo>>>();
const channelLists = new WeakMap<Ctx, Promise<Map<string, ChannelInfo>>>();

/** Only "may not" and "not there" fall back to IDs; anything else (the server down) is still an error. */
async function orEmpty<T>(p: Promise<Map<string, T>>): Promise<Map<string, T>> {
  try {
    return await p;
  } catch (e) {
    if (e instanceof ApiError && (e.status === 403 || e.status === 404)) return new Map();
    throw e;
  }
}

const asBrand = (b: Record<string, string>): BrandInfo => ({
  id: b.id!,
  name: b.name!,
  slug: b.slug!,
  timezone: b.timezone!,
});

/** Every brand of the org, by ID. */
export function brandsById(ctx: Ctx): Promise<Map<string, BrandInfo>> {
  let p = brandLists.get(ctx);
  if (!p) {
    p = orEmpty(listItems(ctx, "/v1/brands", {}).then((l) => new Map(l.map((b) => [b.id, asBrand(b)]))));
    brandLists.set(ctx, p);
  }
  return p;
}

/** One brand by ID or slug; null when the credential may not read it. */
export async function brandInfo(ctx: Ctx, idOrSlug: string): Promise<BrandInfo | null> {
  const known = await brandLists.get(ctx);
  const hit = known && [...known.values()].find((b) => b.id === idOrSlug || b.slug === idOrSlug);
  if (hit) return hit;
  try {
    return asBrand((await ctx.api("GET", `/v1/brands/${encodeURIComponent(idOrSlug)}`)).body);
  } catch (e) {
    if (e instanceof ApiError && e.status === 403) return null;
    throw e;
  }
}

/** Every channel of the credential's mode, by ID. */
export function channelsById(ctx: Ctx): Promise<Map<string, ChannelInfo>> {
  let p = channelLists.get(ctx);
  if (!p) {
    p = orEmpty(
      listItems(ctx, "/v1/channels", {}).then(
        (l) =>
          new Map(
            l.map((c) => [
              c.id,
              {
                id: c.id,
                name: c.display_name ?? c.handle ?? c.provider,
                provider: c.emulates ? `${c.provider} (${c.emulates})` : c.provider,
              },
            ]),
          ),
      ),
    );
    channelLists.set(ctx, p);
  }
  return p;
}

/** `Acme Shop (acme-shop)`, or the ID when the brand cannot be read. */
export const brandLabel = (b: BrandInfo | null | undefined, id: string) => (b ? `${b.name} (${b.slug})` : id);
