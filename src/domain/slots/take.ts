// Taking a slot: the unique key (brand, mode, instant) in post_slots decides. A claim that loses a race moves to
// the next free instant; after 5 lost races the caller gets slot_contention (reference §6).
import type { Dialect, Tx } from "../../db/index.ts";
import type { BrandsTable } from "../../db/schema.ts";
import { lockBrandSlots } from "../../db/sql/lock-brand-slots.ts";
import { run } from "../../db/sql/statement.ts";
import { conflict, invalid, problem, ServiceError } from "../../lib/errors.ts";
import type { Slot } from "../brands/schema.ts";
import { SEARCH_DAYS, slotTimes } from "./next.ts";

const RETRIES = 5;

export async function takeNextSlot(
  tx: Tx,
  dialect: Dialect,
  brand: BrandsTable,
  livemode: boolean,
  postId: string,
  now: number,
  before: number | null,
): Promise<number> {
  const slots = JSON.parse(brand.slots) as Slot[];
  if (slots.length === 0)
    throw invalid([
      problem("no_slots", "This brand has no slots; add some or give publish_at.", "publish_at"),
    ]);
  const candidates = slotTimes(slots, brand.timezone, now + 60_000, SEARCH_DAYS);
  // One next-slot claim per brand and mode at a time (see the statement); an exact-time claim does not take it.
  await run(tx, dialect, lockBrandSlots, [`post_slots:${brand.id}:${livemode ? 1 : 0}`]);
  for (let round = 0; round < RETRIES; round++) {
    const taken = new Set(
      (
        await tx
          .selectFrom("post_slots")
          .select("slot_time")
          .where("brand_id", "=", brand.id)
          .where("livemode", "=", livemode ? 1 : 0)
          .where("slot_time", ">=", candidates[0] ?? now)
          .execute()
      ).map((r) => Number(r.slot_time)),
    );
    const free = candidates.find((t) => !taken.has(t));
    if (free === undefined)
      throw conflict("slots_full", `Every slot of this brand in the next ${SEARCH_DAYS} days is taken.`, {
        param: "publish_at",
      });
    if (before !== null && free >= before) {
      throw conflict("no_slot_before_publish_by", "No free slot comes before publish_by.", {
        param: "publish_by",
        detail: { next_slot: new Date(free).toISOString() },
      });
    }
    const got = await tx
      .insertInto("post_slots")
      .values({ brand_id: brand.id, livemode: livemode ? 1 : 0, slot_time: free, post_id: postId })
      .onConflict((oc) => oc.columns(["brand_id", "livemode", "slot_time"]).doNothing())
      .returning("slot_time")
      .executeTakeFirst();
    if (got) return free;
  }
  throw new ServiceError(409, "slot_contention", "Other posts kept taking the free slot; retry.", {
    param: "publish_at",
  });
}

/** Takes one exact slot instant (a reschedule onto a slot); 409 slot_taken names the post holding it. */
export async function takeExactSlot(
  tx: Tx,
  brandId: string,
  livemode: boolean,
  postId: string,
  at: number,
): Promise<void> {
  const got = await tx
    .insertInto("post_slots")
    .values({ brand_id: brandId, livemode: livemode ? 1 : 0, slot_time: at, post_id: postId })
    .onConflict((oc) => oc.columns(["brand_id", "livemode", "slot_time"]).doNothing())
    .returning("slot_time")
    .executeTakeFirst();
  if (got) return;
  const holder = await tx
    .selectFrom("post_slots")
    .select("post_id")
    .where("brand_id", "=", brandId)
    .where("livemode", "=", livemode ? 1 : 0)
    .where("slot_time", "=", at)
    .executeTakeFirst();
  if (holder?.post_id === postId) return;
  throw conflict("slot_taken", "Another post holds that slot.", {
    param: "publish_at",
    detail: { post: holder?.post_id ?? null },
  });
}

export async function releaseSlots(tx: Tx, postId: string): Promise<void> {
  await tx.deleteFrom("post_slots").where("post_id", "=", postId).execute();
}
