// The brand's slot instants that posts hold in a span of time, in one mode: what the composer's next free slot,
// the week and the month mark as taken. Read on every keystroke of the live preview and every calendar page; by
// hand, since the query builder's tree cost more than the read (the post_slots primary key answers it).
import { statement } from "./statement.ts";

/** (brand, mode, from, to): the held instants in [from, to) and the post holding each. */
export const heldSlots = statement<
  [brandId: string, livemode: number, from: number, to: number],
  { slot_time: number; post_id: string }
>(
  "SELECT slot_time, post_id FROM post_slots WHERE brand_id = ? AND livemode = ? AND slot_time >= ? AND slot_time < ?",
);
