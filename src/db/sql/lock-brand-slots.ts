// Taking a brand's next free slot (domain/slots/take.ts).
import { statement } from "./statement.ts";

/**
 * Postgres: one next-slot claim per brand and mode at a time, until the transaction ends (a transaction-scoped
 * advisory lock on the key's hash). Without it, claims running together all read the same committed slots, pick
 * the same free instant and wait on each other's uncommitted row; each loser re-reads and meets the next claimant,
 * so a burst of ten creates exhausted the five retries and got slot_contention. SQLite runs one write transaction
 * at a time already. The unique key (brand, mode, instant) of post_slots stays the guard.
 */
export const lockBrandSlots = statement<[key: string]>({
  sqlite: null,
  postgres: "SELECT pg_advisory_xact_lock(hashtext(?))",
});
