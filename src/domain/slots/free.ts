// The next free slot of a brand, to show (the composer's "Next free slot" choice, the approvals inbox): the
// time a next_slot create would take now. Reading it takes nothing, so the create may still land later if
// another post takes this slot first.
import type { App } from "../../app/context.ts";
import type { BrandsTable } from "../../db/schema.ts";
import { heldSlots } from "../../db/sql/held-slots.ts";
import { run } from "../../db/sql/statement.ts";
import { type Actor, requireScope } from "../actor.ts";
import type { Slot } from "../brands/schema.ts";
import { loadBrand } from "../brands/service.ts";
import { SEARCH_DAYS, slotTimes } from "./next.ts";

/**
 * The earliest free slot instant (epoch ms) of the brand in the actor's mode, or null when none is free. A caller
 * that has loaded the brand (for this actor) passes its row, and it is not read again.
 */
export async function nextFreeSlot(
  app: App,
  actor: Actor,
  brandRef: string | BrandsTable,
): Promise<number | null> {
  requireScope(actor, "posts:read");
  const brand = typeof brandRef === "string" ? await loadBrand(app.db, actor, brandRef) : brandRef;
  const slots = JSON.parse(brand.slots) as Slot[];
  if (slots.length === 0) return null;
  // The same search as takeNextSlot: from a minute ahead, 56 days.
  const from = app.clock.now() + 60_000;
  const held = await run(app.db, app.dialect, heldSlots, [
    brand.id,
    actor.livemode ? 1 : 0,
    from,
    from + SEARCH_DAYS * 86400_000,
  ]);
  const taken = new Set(held.map((r) => Number(r.slot_time)));
  // The next two days' slots first: each slot instant costs a few readings of the zone (Intl), and 56 days of them
  // were most of a live preview's time. They are the first of the 56 days' list (a later day's slots all come
  // after an earlier day's), so a free one among them is the answer; only when all are taken is the rest searched.
  const soon = slotTimes(slots, brand.timezone, from, 2).find((t) => !taken.has(t));
  if (soon !== undefined) return soon;
  return slotTimes(slots, brand.timezone, from, SEARCH_DAYS).find((t) => !taken.has(t)) ?? null;
}
