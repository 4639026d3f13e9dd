// The next free slot of a brand, to show (the composer's "Next free slot" choice, the approvals inbox): the
// time a next_slot create would take now. Reading it takes nothing, so the create may still land later if
// another post takes this slot first.
import type { App } from "../../app/context.ts";
import { type Actor, requireScope } from "../actor.ts";
import type { Slot } from "../brands/schema.ts";
import { loadBrand } from "../brands/service.ts";
import { SEARCH_DAYS, slotTimes } from "./next.ts";

/** The earliest free slot instant (epoch ms) of the brand in the actor's mode, or null when none is free. */
export async function nextFreeSlot(app: App, actor: Actor, brandRef: string): Promise<number | null> {
  requireScope(actor, "posts:read");
  const brand = await loadBrand(app.db, actor, brandRef);
  const slots = JSON.parse(brand.slots) as Slot[];
  const now = app.clock.now();
  // The same search as takeNextSlot: from a minute ahead, 56 days.
  const candidates = slotTimes(slots, brand.timezone, now + 60_000, SEARCH_DAYS);
  if (candidates.length === 0) return null;
  const taken = new Set(
    (
      await app.db
        .selectFrom("post_slots")
        .select("slot_time")
        .where("brand_id", "=", brand.id)
        .where("livemode", "=", actor.livemode ? 1 : 0)
        .where("slot_time", ">=", candidates[0]!)
        .execute()
    ).map((r) => Number(r.slot_time)),
  );
  return candidates.find((t) => !taken.has(t)) ?? null;
}
